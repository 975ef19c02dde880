package report

import (
	"encoding/json"
	"io"

	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/rules"
)

// checkJSON is `check --format json` (DESIGN.md §4); its keys are a stable contract.
type checkJSON struct {
	Tool     toolJSON      `json:"tool"`
	Findings []findingJSON `json:"findings"`
	Errors   []errorJSON   `json:"errors"`
	Summary  summaryJSON   `json:"summary"`
}

type toolJSON struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

type findingJSON struct {
	Rule      string        `json:"rule"`
	Name      string        `json:"name"`
	Severity  string        `json:"severity"`
	File      string        `json:"file"`
	Line      int           `json:"line"`
	Column    int           `json:"column"`
	EndLine   int           `json:"endLine"`
	EndColumn int           `json:"endColumn"`
	Message   string        `json:"message"`
	Related   []relatedJSON `json:"related"`
	Fix       *fixJSON      `json:"fix"`
	// Verified is the verify result of the finding's recommendation; null unless check --verify
	// verified it.
	Verified *verifiedJSON `json:"verified"`
	// Measured is what the finding's join or aggregation cost in the event logs of check
	// --evidence; the key is there only when a run matched.
	Measured *measuredJSON `json:"measured,omitempty"`
}

type measuredJSON struct {
	What        string `json:"what"`
	Bytes       int64  `json:"bytes"`
	Records     int64  `json:"records"`
	WriteTimeNs int64  `json:"writeTimeNs"`
	Runs        int    `json:"runs"`
	Apps        int    `json:"applications"`
}

type verifiedJSON struct {
	Scenario            string `json:"scenario"`
	Identical           bool   `json:"identical"`
	Reproduced          bool   `json:"reproduced"`
	ExchangesBefore     int    `json:"exchangesBefore"`
	ExchangesAfter      int    `json:"exchangesAfter"`
	ShuffledRowsBefore  int64  `json:"shuffledRowsBefore"`
	ShuffledRowsAfter   int64  `json:"shuffledRowsAfter"`
	ShuffledBytesBefore int64  `json:"shuffledBytesBefore"`
	ShuffledBytesAfter  int64  `json:"shuffledBytesAfter"`
}

type relatedJSON struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
}

type fixJSON struct {
	Description string     `json:"description"`
	Edits       []editJSON `json:"edits"`
}

type editJSON struct {
	File      string `json:"file"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"endLine"`
	EndColumn int    `json:"endColumn"`
	Text      string `json:"text"`
}

type errorJSON struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
}

type summaryJSON struct {
	Files    int `json:"files"`
	Findings int `json:"findings"`
	Errors   int `json:"errors"`
}

// JSON writes the check result as DESIGN.md §4's `check --format json` document: every key
// present, empty lists as [], a missing fix and the verify result as null.
func JSON(w io.Writer, c *Check) error {
	out := checkJSON{
		Tool:     toolJSON{Name: c.Tool.Name, Version: c.Tool.Version},
		Findings: make([]findingJSON, 0, len(c.Findings)),
		Errors:   make([]errorJSON, 0, len(c.Errors)),
		Summary:  summaryJSON{Files: c.Files, Findings: len(c.Findings), Errors: len(c.Errors)},
	}
	for i := range c.Findings {
		f := toFindingJSON(&c.Findings[i])
		if i < len(c.Verified) && c.Verified[i] != nil {
			v := verifiedJSON(*c.Verified[i])
			f.Verified = &v
		}
		out.Findings = append(out.Findings, f)
	}
	for _, e := range c.Errors {
		out.Errors = append(out.Errors, errorJSON(e))
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

func toFindingJSON(d *rules.Diagnostic) findingJSON {
	start, end := d.Span.Start, endOf(d.Span)
	f := findingJSON{
		Rule: d.Rule, Name: d.Name, Severity: d.Severity.String(),
		File: start.File, Line: line(start.Line), Column: col(start.Col),
		EndLine: line(end.Line), EndColumn: col(end.Col),
		Message: d.Message, Related: make([]relatedJSON, 0, len(d.Related)),
	}
	for _, r := range d.Related {
		f.Related = append(f.Related, relatedJSON{File: r.Span.Start.File, Line: line(r.Span.Start.Line), Column: col(r.Span.Start.Col), Message: r.Message})
	}
	if m := d.Measured; m != nil {
		what := m.What
		if what == "" {
			what = "join"
		}
		f.Measured = &measuredJSON{What: what, Bytes: m.Bytes, Records: m.Records, WriteTimeNs: m.TimeNs, Runs: m.Runs, Apps: m.Apps}
	}
	if d.Fix != nil {
		f.Fix = &fixJSON{Description: d.Fix.Description, Edits: make([]editJSON, 0, len(d.Fix.Edits))}
		for _, e := range d.Fix.Edits {
			f.Fix.Edits = append(f.Fix.Edits, toEditJSON(e.Span, e.Text))
		}
	}
	return f
}

func toEditJSON(s plan.Span, text string) editJSON {
	end := endOf(s)
	return editJSON{File: s.Start.File, Line: line(s.Start.Line), Column: col(s.Start.Col), EndLine: line(end.Line), EndColumn: col(end.Col), Text: text}
}

package report

import (
	"bufio"
	"encoding/json"
	"io"

	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/rules"
)

// reviewdog's Diagnostic (proto/rdf): 1-based lines, columns in UTF-8 bytes, as ours.
type rdDiagnostic struct {
	Message     string         `json:"message"`
	Location    rdLocation     `json:"location"`
	Severity    string         `json:"severity"`
	Source      rdSource       `json:"source"`
	Code        rdCode         `json:"code"`
	Suggestions []rdSuggestion `json:"suggestions,omitempty"`
	Related     []rdRelated    `json:"related_locations,omitempty"`
}

type rdLocation struct {
	Path  string  `json:"path"`
	Range rdRange `json:"range"`
}

type rdRange struct {
	Start rdPos `json:"start"`
	End   rdPos `json:"end"`
}

type rdPos struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

type rdSource struct {
	Name string `json:"name"`
	URL  string `json:"url,omitempty"`
}

type rdCode struct {
	Value string `json:"value"`
	URL   string `json:"url"`
}

type rdSuggestion struct {
	Range rdRange `json:"range"`
	Text  string  `json:"text"`
}

type rdRelated struct {
	Message  string     `json:"message"`
	Location rdLocation `json:"location"`
}

// RDJSONL writes reviewdog's rdjsonl: one Diagnostic per line, with the fix edits as
// suggestions (reviewdog turns them into "suggested changes" on a pull-request review).
func RDJSONL(w io.Writer, c *Check) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	for i := range c.Findings {
		d := &c.Findings[i]
		rd := rdDiagnostic{
			Message:  d.Message,
			Location: rdLocation{Path: d.Span.Start.File, Range: rdRangeOf(d.Span)},
			Severity: rdSeverity(d.Severity),
			Source:   rdSource{Name: c.Tool.Name, URL: "https://github.com/bucketlint/bucketlint"},
			Code:     rdCode{Value: d.Rule, URL: ruleURL(d.Rule, d.Name)},
		}
		if d.Fix != nil {
			for _, e := range d.Fix.Edits {
				// reviewdog applies suggestions to the diagnostic's file only.
				if e.Span.Start.File == d.Span.Start.File {
					rd.Suggestions = append(rd.Suggestions, rdSuggestion{Range: rdRangeOf(e.Span), Text: e.Text})
				}
			}
		}
		for _, r := range d.Related {
			rd.Related = append(rd.Related, rdRelated{Message: r.Message, Location: rdLocation{Path: r.Span.Start.File, Range: rdRangeOf(r.Span)}})
		}
		if err := enc.Encode(rd); err != nil {
			return err
		}
	}
	return bw.Flush()
}

func rdRangeOf(s plan.Span) rdRange {
	end := endOf(s)
	return rdRange{Start: rdPos{Line: line(s.Start.Line), Column: col(s.Start.Col)}, End: rdPos{Line: line(end.Line), Column: col(end.Col)}}
}

func rdSeverity(s rules.Severity) string {
	switch s {
	case rules.Error:
		return "ERROR"
	case rules.Info:
		return "INFO"
	}
	return "WARNING"
}

// RuleURL is the documentation page of a rule, at its anchor (its ID and name); the page
// alone when name is empty. SARIF, rdjsonl and the language server link to it.
func RuleURL(id, name string) string { return ruleURL(id, name) }

// ruleURL is the documentation anchor of a rule.
func ruleURL(id, name string) string {
	if name == "" {
		return docsURL
	}
	return docsURL + "#" + lower(id) + "-" + name
}

package report

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/rules"
)

// A Check is the outcome of one `bucketlint check` run, as every diagnostics format reads it.
// The command fills it in; the formats only read it.
type Check struct {
	// Tool names the program and its version for the formats that record them.
	Tool Tool
	// Findings are the diagnostics reported, after suppressions, baseline and configuration.
	// SortFindings puts them in report order; formats rely on that order.
	Findings []rules.Diagnostic
	// Errors are the inputs that could not be read or parsed (each is also a BL901 finding).
	Errors []PositionedError
	// Files is how many files were checked.
	Files int
	// Rules is the rule catalogue: SARIF lists it, the other formats look up names and docs.
	Rules []*rules.Rule
	// Explains are the explain outputs loaded, and the predicted plans of queries with join
	// findings, so that the markdown report can draw the plan a join finding is about.
	Explains []*plan.Explain
	// Baselined counts the findings left out because the baseline accepts them.
	Baselined int
	// Explained counts the explanations left out (info findings without a fix; check lists
	// them with --explain): the summary says so, so that nothing is hidden silently.
	Explained int
	// BaselineUnused counts baseline entries that matched no finding: fixed findings, which
	// rewriting the baseline drops, so that it only shrinks.
	BaselineUnused int
	// PassBelow is the lowest severity that fails the run (check --fail-on): JUnit marks the
	// findings below it as passing test cases. Zero fails every finding; above Error
	// (--fail-on never), none.
	PassBelow rules.Severity
	// RulesFailed counts the rules that failed with an internal error: the summary says the
	// result is incomplete, so that a run missing a rule's findings never reads as clean.
	RulesFailed int
	// Quiet leaves out the text format's summary line (check -q): the findings only.
	Quiet bool
	// Color asks the text format for ANSI colours (a terminal that wants them).
	Color bool
	// Source returns a file's contents, or nil; SARIF uses it to convert byte columns into
	// UTF-16 code units. Nil means columns are written as they are.
	Source func(file string) []byte
	// StepSummary, when set, receives what the github format could not annotate (GitHub keeps
	// 10 annotations per level per step): the command opens $GITHUB_STEP_SUMMARY for it.
	StepSummary io.Writer
	// Verified holds, per finding (same index as Findings), the verify result of the finding's
	// recommendation (check --verify); a nil entry, or a slice shorter than Findings, is a
	// finding that was not verified.
	Verified []*Verification
}

// A Verification is the proof of one finding's recommendation on data: the query run before
// and after the layout change (engine/verify).
type Verification struct {
	Scenario                                string
	Identical, Reproduced                   bool
	ExchangesBefore, ExchangesAfter         int
	ShuffledRowsBefore, ShuffledRowsAfter   int64
	ShuffledBytesBefore, ShuffledBytesAfter int64
}

// Tool is the program that produced a report.
type Tool struct {
	Name    string
	Version string
}

// A Format writes a check result in one output format.
type Format func(io.Writer, *Check) error

// Formats lists the names FormatByName accepts, the default first.
func Formats() []string {
	return []string{"text", "json", "sarif", "github", "markdown", "rdjsonl", "checkstyle", "junit", "gitlab"}
}

// FormatByName returns the writer of the named format.
func FormatByName(name string) (Format, bool) {
	switch name {
	case "text":
		return Text, true
	case "json":
		return JSON, true
	case "sarif":
		return SARIF, true
	case "github":
		return GitHub, true
	case "markdown":
		return Markdown, true
	case "rdjsonl":
		return RDJSONL, true
	case "checkstyle":
		return Checkstyle, true
	case "junit":
		return JUnit, true
	case "gitlab":
		return GitLab, true
	}
	return nil, false
}

// SortFindings orders diagnostics by file, line, column, rule and message: the one order every
// format prints.
func SortFindings(ds []rules.Diagnostic) {
	sort.SliceStable(ds, func(i, j int) bool { return lessFinding(&ds[i], &ds[j]) })
}

func lessFinding(a, b *rules.Diagnostic) bool {
	pa, pb := a.Span.Start, b.Span.Start
	switch {
	case pa.File != pb.File:
		return pa.File < pb.File
	case pa.Line != pb.Line:
		return pa.Line < pb.Line
	case pa.Col != pb.Col:
		return pa.Col < pb.Col
	case a.Rule != b.Rule:
		return a.Rule < b.Rule
	}
	return a.Message < b.Message
}

// rule returns the catalogue entry with the ID, or nil.
func (c *Check) rule(id string) *rules.Rule {
	for _, r := range c.Rules {
		if r.ID == id {
			return r
		}
	}
	return nil
}

// counts tallies the findings by severity.
func (c *Check) counts() (errs, warns, infos int) {
	for i := range c.Findings {
		switch c.Findings[i].Severity {
		case rules.Error:
			errs++
		case rules.Warning:
			warns++
		default:
			infos++
		}
	}
	return errs, warns, infos
}

// Summary is the one-line summary of a run: "3 findings (1 error, 2 warnings) in 4 files".
func (c *Check) Summary() string {
	var b strings.Builder
	if len(c.Findings) == 0 {
		fmt.Fprintf(&b, "no findings in %s", plural(c.Files, "file"))
	} else {
		e, w, i := c.counts()
		var parts []string
		for _, p := range []struct {
			n    int
			word string
		}{{e, "error"}, {w, "warning"}, {i, "info"}} {
			if p.n > 0 {
				parts = append(parts, countOf(p.n, p.word))
			}
		}
		fmt.Fprintf(&b, "%s (%s) in %s", plural(len(c.Findings), "finding"), strings.Join(parts, ", "), plural(c.Files, "file"))
	}
	if len(c.Errors) > 0 {
		fmt.Fprintf(&b, "; %s", plural(len(c.Errors), "input error"))
	}
	if c.RulesFailed > 0 {
		fmt.Fprintf(&b, "; incomplete: %s failed (the error below), so its findings are missing", plural(c.RulesFailed, "rule"))
	}
	if c.Baselined > 0 {
		fmt.Fprintf(&b, "; %d accepted by the baseline", c.Baselined)
	}
	if c.Explained > 0 {
		fmt.Fprintf(&b, "; %s left out (info with nothing to change; --explain lists them)", plural(c.Explained, "explanation"))
	}
	if c.BaselineUnused > 0 {
		entries := "baseline entries"
		if c.BaselineUnused == 1 {
			entries = "baseline entry"
		}
		fmt.Fprintf(&b, "; %d %s no longer found (rewrite the baseline to drop them)", c.BaselineUnused, entries)
	}
	return b.String()
}

// endOf returns the end of a span, the start when the end is unknown.
func endOf(s plan.Span) plan.Pos {
	if s.End.IsValid() {
		return s.End
	}
	return s.Start
}

// col returns a 1-based column, 1 when unknown.
func col(c int) int {
	if c <= 0 {
		return 1
	}
	return c
}

// line returns a 1-based line, 1 when unknown.
func line(l int) int {
	if l <= 0 {
		return 1
	}
	return l
}

// countOf is plural for severities: "info" stays "info".
func countOf(n int, word string) string {
	if word == "info" {
		return fmt.Sprintf("%d info", n)
	}
	return plural(n, word)
}

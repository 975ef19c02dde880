package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/bucketlint/bucketlint/rules"
)

// Text writes findings as a terminal reads them, one per line in the compiler convention,
//
//	jobs/daily.sql:12:3: warning: join of orders (8 buckets) and customers (16 buckets) shuffles orders (BL301)
//	    ddl/customers.sql:4:1: customers is bucketed into 16 buckets here
//	    fix: Rebucket orders INTO 16 BUCKETS
//
// related positions and the fix indented below, and a one-line summary at the end. Colours
// are used only when c.Color is set.
func Text(w io.Writer, c *Check) error {
	bw := bufio.NewWriter(w)
	p := painter(c.Color)
	for i := range c.Findings {
		d := &c.Findings[i]
		fmt.Fprintf(bw, "%s: %s: %s %s\n", p.paint("\x1b[1m", Clean(d.Span.Start.String())), severityText(p, d.Severity), Clean(d.Message), p.paint(ansiDim, "("+d.Rule+")"))
		for _, r := range d.Related {
			fmt.Fprintf(bw, "    %s: %s\n", Clean(r.Span.Start.String()), Clean(r.Message))
		}
		if d.Measured != nil {
			fmt.Fprintf(bw, "    measured: %s\n", MeasuredText(d.Measured))
		}
		if d.Fix != nil {
			fmt.Fprintf(bw, "    %s %s\n", p.paint(ansiCyan, "fix:"), indentLines(cleanBlock(d.Fix.Description), "        "))
			for _, e := range d.Fix.Edits {
				fmt.Fprintf(bw, "        %s\n", editText(e))
			}
		}
	}
	if !c.Quiet {
		fmt.Fprintln(bw, c.Summary())
	}
	return bw.Flush()
}

// severityText is the severity word, coloured as compilers colour it.
func severityText(p painter, s rules.Severity) string {
	switch s {
	case rules.Error:
		return p.paint("\x1b[1;31m", "error")
	case rules.Warning:
		return p.paint("\x1b[1;33m", "warning")
	}
	return p.paint("\x1b[1;36m", s.String())
}

// editText says where an edit applies and what it does: an empty span inserts, empty text
// deletes, anything else replaces. A span on one line is written file:line:col-endcol.
func editText(e rules.Edit) string {
	start, end := e.Span.Start, e.Span.End
	if !end.IsValid() || end == start {
		return fmt.Sprintf("%s: insert %q", Clean(start.String()), e.Text)
	}
	where := fmt.Sprintf("%s-%d:%d", Clean(start.String()), end.Line, end.Col)
	if end.Line == start.Line {
		where = fmt.Sprintf("%s-%d", Clean(start.String()), end.Col)
	}
	if e.Text == "" {
		return where + ": delete"
	}
	return fmt.Sprintf("%s: replace with %q", where, e.Text)
}

// indentLines indents every line after the first of a multi-line text (advice given as code)
// so that it stays under the finding it belongs to.
func indentLines(s, indent string) string {
	return strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n"+indent)
}

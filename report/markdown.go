package report

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/rules"
)

// MarkdownMarker is the hidden line that identifies bucketlint's pull-request comment, so
// that CI updates the one comment instead of adding another on every push.
const MarkdownMarker = "<!-- bucketlint -->"

// MarkdownLimit is the largest comment Markdown writes, in bytes: GitHub rejects comment
// bodies over 65,536 characters, and this leaves room for a footer.
const MarkdownLimit = 60000

// Markdown writes a pull-request comment: the hidden marker, a summary line and table, then
// the findings grouped by rule and file in collapsible blocks, each with its location,
// related positions and fix, and for a join finding in explain output a Mermaid drawing of
// the plan. The comment stays under MarkdownLimit; what does not fit is counted at the end.
func Markdown(w io.Writer, c *Check) error {
	var b strings.Builder
	b.WriteString(MarkdownMarker + "\n")
	fmt.Fprintf(&b, "### bucketlint: %s\n\n", c.Summary())
	if len(c.Findings) > 0 {
		e, wn, i := c.counts()
		fmt.Fprintf(&b, "| Severity | Findings |\n| --- | ---: |\n| :x: error | %d |\n| :warning: warning | %d |\n| :information_source: info | %d |\n\n", e, wn, i)
	}
	b.WriteString(measuredTable(c.Findings))
	if len(c.Errors) > 0 {
		b.WriteString("**Inputs that could not be parsed:**\n\n")
		for _, e := range c.Errors {
			fmt.Fprintf(&b, "- %s: %s\n", codeSpan(fmt.Sprintf("%s:%d:%d", e.File, e.Line, e.Column)), mdInline(e.Message))
		}
		b.WriteString("\n")
	}
	drawn := map[*plan.Explain]bool{}
	left := len(c.Findings)
	for _, g := range groupByRule(c.Findings) {
		section, shown := c.ruleSection(g, drawn, MarkdownLimit-footerRoom-b.Len())
		if shown == 0 {
			break
		}
		b.WriteString(section)
		left -= shown
	}
	if left > 0 {
		fmt.Fprintf(&b, "\n%s not shown to keep this comment under GitHub's size limit; see the SARIF or JSON report of the run.\n", plural(left, "more finding"))
	}
	b.WriteString("\n<sub>Suppress a finding with `bucketlint:ignore RULE reason` on its line or the line above; `bucketlint explain RULE` tells more.</sub>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// measuredRows is how many findings the table of measured costs lists.
const measuredRows = 10

// measuredTable lists the findings whose join or aggregation the event logs measured (check
// --evidence), costliest first, so the comment shows what to fix first before the findings
// by rule; "" when none was measured.
func measuredTable(ds []rules.Diagnostic) string {
	var ms []*rules.Diagnostic
	for i := range ds {
		if ds[i].Measured != nil {
			ms = append(ms, &ds[i])
		}
	}
	if len(ms) == 0 {
		return ""
	}
	sort.SliceStable(ms, func(i, j int) bool { return ms[i].Measured.Bytes > ms[j].Measured.Bytes })
	var b strings.Builder
	b.WriteString("**Costliest in the event logs** (shuffle bytes Spark measured, highest first):\n\n| Finding | Shuffled | Runs |\n| --- | ---: | ---: |\n")
	for i, d := range ms {
		if i == measuredRows {
			fmt.Fprintf(&b, "\n%s with measured costs below.\n", plural(len(ms)-measuredRows, "more finding"))
			break
		}
		what := d.Measured.What
		if what == "" {
			what = "join"
		}
		fmt.Fprintf(&b, "| %s %s %s | %s (%s) | %d |\n", severityIcon(d.Severity), htmlText(d.Rule), codeSpan(d.Span.Start.String()),
			plan.FormatBytes(d.Measured.Bytes), what, d.Measured.Runs)
	}
	b.WriteString("\n")
	return b.String()
}

// groupByRule splits sorted findings into runs of one rule, rules in ID order, each run
// keeping report order (file, line).
func groupByRule(ds []rules.Diagnostic) [][]*rules.Diagnostic {
	idx := map[string]int{}
	var ids []string
	var groups [][]*rules.Diagnostic
	for i := range ds {
		k, ok := idx[ds[i].Rule]
		if !ok {
			k = len(groups)
			idx[ds[i].Rule] = k
			ids = append(ids, ds[i].Rule)
			groups = append(groups, nil)
		}
		groups[k] = append(groups[k], &ds[i])
	}
	order := make([][]*rules.Diagnostic, 0, len(groups))
	for _, id := range sortedCopy(ids) {
		order = append(order, groups[idx[id]])
	}
	return order
}

// footerRoom is what Markdown keeps free for the closing lines.
const footerRoom = 500

// ruleSection renders as many of one rule's findings as fit in budget bytes, drawing a plan
// next to a join finding when the drawing fits too, and returns how many it rendered.
func (c *Check) ruleSection(g []*rules.Diagnostic, drawn map[*plan.Explain]bool, budget int) (string, int) {
	d0 := g[0]
	title := d0.Name
	if r := c.rule(d0.Rule); r != nil && r.Title != "" {
		title = r.Title
	}
	head := fmt.Sprintf("<details><summary><b>%s</b> %s: %s (%d)</summary>\n\n", htmlText(d0.Rule), htmlText(d0.Name), htmlText(title), len(g))
	tail := fmt.Sprintf("\n[About %s](%s)\n</details>\n\n", d0.Rule, ruleURL(d0.Rule, d0.Name))
	var b strings.Builder
	b.WriteString(head)
	file, shown := "", 0
	for _, d := range g {
		var f strings.Builder
		if d.Span.Start.File != file {
			fmt.Fprintf(&f, "**%s**\n\n", codeSpan(d.Span.Start.File))
		}
		c.writeFinding(&f, d)
		if b.Len()+f.Len()+len(tail) > budget {
			break
		}
		file = d.Span.Start.File
		b.WriteString(f.String())
		shown++
		if e := c.explainAt(d.Span.Start); e != nil && !drawn[e] && strings.HasPrefix(d.Rule, "BL3") {
			var m strings.Builder
			if PlanMermaid(&m, []*plan.Explain{e}) == nil {
				drawing := fmt.Sprintf("\n  ```mermaid\n%s  ```\n", indent(m.String(), "  "))
				if b.Len()+len(drawing)+len(tail) <= budget {
					drawn[e] = true
					b.WriteString(drawing)
				}
			}
		}
	}
	if shown == 0 {
		return "", 0
	}
	b.WriteString(tail)
	return b.String(), shown
}

// writeFinding renders one finding as a list item with its related positions and fix.
func (c *Check) writeFinding(b *strings.Builder, d *rules.Diagnostic) {
	fmt.Fprintf(b, "- %s %s %s\n", severityIcon(d.Severity), codeSpan(d.Span.Start.String()), mdInline(d.Message))
	for _, r := range d.Related {
		fmt.Fprintf(b, "  - %s %s\n", codeSpan(r.Span.Start.String()), mdInline(r.Message))
	}
	if d.Measured != nil {
		fmt.Fprintf(b, "  - **Measured:** %s\n", mdInline(MeasuredText(d.Measured)))
	}
	if d.Fix != nil {
		fmt.Fprintf(b, "  - **Fix:** %s\n", mdInline(d.Fix.Description))
		b.WriteString(c.fixDiff(d.Fix))
	}
}

// fixDiff shows a fix's single-line edits as a diff of the lines they change, when the
// source is available.
func (c *Check) fixDiff(f *rules.Fix) string {
	if c.Source == nil {
		return ""
	}
	var b strings.Builder
	for _, e := range f.Edits {
		start, end := e.Span.Start, endOf(e.Span)
		src := c.Source(start.File)
		if src == nil || end.Line != start.Line || start.Col < 1 {
			continue
		}
		old := string(lineText(src, start.Line))
		if end.Col-1 > len(old) || end.Col < start.Col || strings.Contains(e.Text, "\n") {
			continue
		}
		repl := old[:start.Col-1] + e.Text + old[end.Col-1:]
		fmt.Fprintf(&b, "\n    %s\n    ```diff\n    - %s\n    + %s\n    ```\n", codeSpan(start.String()), Clean(old), Clean(repl))
	}
	return b.String()
}

// explainAt returns the explain output that contains pos: the last one in its file starting
// at or before its line.
func (c *Check) explainAt(pos plan.Pos) *plan.Explain {
	var found *plan.Explain
	for _, e := range c.Explains {
		if e.File == pos.File && e.Pos.Line <= pos.Line {
			if found == nil || e.Pos.Line >= found.Pos.Line {
				found = e
			}
		}
	}
	return found
}

func severityIcon(s rules.Severity) string {
	switch s {
	case rules.Error:
		return ":x:"
	case rules.Info:
		return ":information_source:"
	}
	return ":warning:"
}

func indent(s, pre string) string {
	lines := strings.SplitAfter(s, "\n")
	var b strings.Builder
	for _, l := range lines {
		if l != "" {
			b.WriteString(pre + l)
		}
	}
	return b.String()
}

func sortedCopy(ss []string) []string {
	out := append([]string(nil), ss...)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

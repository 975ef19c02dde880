package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/bucketlint/bucketlint/rules"
)

// GitHub's limits on workflow-command annotations: it keeps 10 of each level per step and 50
// per job and silently drops the rest (actions/toolkit problem-matchers documentation).
const (
	githubPerLevel = 10
	githubPerStep  = 3 * githubPerLevel
)

// GitHub writes GitHub Actions workflow commands, one annotation per finding:
//
//	::warning file=jobs/daily.sql,line=12,endLine=12,col=3,endColumn=40,title=BL301 bucket-count-mismatch::message
//
// At most 10 per level are annotated (GitHub drops the rest); the findings left over are
// listed as a Markdown table in c.StepSummary ($GITHUB_STEP_SUMMARY) when it is set, and a
// final notice says how many there were and where they went.
func GitHub(w io.Writer, c *Check) error {
	bw := bufio.NewWriter(w)
	shown := map[rules.Severity]int{}
	var rest []*rules.Diagnostic
	for i := range c.Findings {
		d := &c.Findings[i]
		if shown[d.Severity] >= githubPerLevel {
			rest = append(rest, d)
			continue
		}
		shown[d.Severity]++
		writeAnnotation(bw, d)
	}
	if len(rest) > 0 {
		where := "see the SARIF or JSON report"
		if c.StepSummary != nil {
			if err := writeOverflow(c.StepSummary, rest); err != nil {
				return fmt.Errorf("writing the step summary: %w", err)
			}
			where = "listed in the job summary"
		}
		// The note is itself a notice; if notices are full it is the one GitHub drops.
		fmt.Fprintf(bw, "::notice title=bucketlint::%s\n", escapeData(fmt.Sprintf(
			"%d more findings not annotated (GitHub keeps %d per level per step); %s", len(rest), githubPerLevel, where)))
	}
	return bw.Flush()
}

func writeAnnotation(w io.Writer, d *rules.Diagnostic) {
	start, end := d.Span.Start, endOf(d.Span)
	props := []string{"file=" + escapeProperty(start.File), fmt.Sprintf("line=%d", line(start.Line))}
	if end.Line >= start.Line {
		props = append(props, fmt.Sprintf("endLine=%d", line(end.Line)))
	}
	// GitHub reads col/endColumn only for single-line annotations.
	if end.Line == start.Line {
		props = append(props, fmt.Sprintf("col=%d", col(start.Col)), fmt.Sprintf("endColumn=%d", col(end.Col)))
	}
	props = append(props, "title="+escapeProperty(d.Rule+" "+d.Name))
	msg := d.Message
	if d.Fix != nil {
		msg += "\nFix: " + d.Fix.Description
	}
	fmt.Fprintf(w, "::%s %s::%s\n", githubLevel(d.Severity), strings.Join(props, ","), escapeData(msg))
}

func githubLevel(s rules.Severity) string {
	switch s {
	case rules.Error:
		return "error"
	case rules.Info:
		return "notice"
	}
	return "warning"
}

// escapeData escapes a workflow command's message (actions/toolkit escapeData), after the
// control characters other than line breaks (an ANSI escape would colour the log) and the
// "##[" that starts a command of the runner's older syntax.
func escapeData(s string) string {
	s = strings.ReplaceAll(cleanBlock(strings.ReplaceAll(s, "\r", "\n")), "##[", "#"+escapeRune('#')+"[")
	return dataEscaper.Replace(s)
}

// escapeProperty escapes a workflow command's property value (actions/toolkit
// escapeProperty), after every control character.
func escapeProperty(s string) string {
	return propertyEscaper.Replace(Clean(s))
}

// writeOverflow appends the findings GitHub would drop to the step summary as a table.
func writeOverflow(w io.Writer, ds []*rules.Diagnostic) error {
	var b strings.Builder
	fmt.Fprintf(&b, "### bucketlint: %s not shown as annotations\n\n", plural(len(ds), "finding"))
	b.WriteString("| Location | Severity | Rule | Message |\n| --- | --- | --- | --- |\n")
	for _, d := range ds {
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", codeSpan(d.Span.Start.String()), d.Severity, d.Rule, mdInline(d.Message))
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

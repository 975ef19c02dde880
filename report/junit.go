package report

import (
	"fmt"
	"io"
	"strings"
)

// JUnit writes JUnit XML for CI test tabs: one test suite, one test case per finding (named
// after the rule and location, classed by file), failed when the finding's severity is at or
// above c.PassBelow and passing with the finding as its output below it; one passing case when
// there are no findings.
func JUnit(w io.Writer, c *Check) error {
	var bw strings.Builder
	n := 0
	for i := range c.Findings {
		if c.Findings[i].Severity >= c.PassBelow {
			n++
		}
	}
	tests := len(c.Findings)
	if tests == 0 {
		tests = 1
	}
	fmt.Fprintf(&bw, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"%s\" tests=\"%d\" failures=\"%d\" errors=\"0\">\n", xmlEscape(c.Tool.Name), tests, n)
	fmt.Fprintf(&bw, "  <testsuite name=\"%s\" tests=\"%d\" failures=\"%d\" errors=\"0\">\n", xmlEscape(c.Tool.Name), tests, n)
	if len(c.Findings) == 0 {
		bw.WriteString("    <testcase name=\"bucketlint check\" classname=\"bucketlint\"></testcase>\n")
	}
	for i := range c.Findings {
		d := &c.Findings[i]
		var body strings.Builder
		fmt.Fprintf(&body, "%s: %s: %s (%s)\n", d.Span.Start, d.Severity, d.Message, d.Rule)
		for _, r := range d.Related {
			fmt.Fprintf(&body, "    %s: %s\n", r.Span.Start, r.Message)
		}
		if d.Fix != nil {
			fmt.Fprintf(&body, "    fix: %s\n", d.Fix.Description)
		}
		fmt.Fprintf(&bw, "    <testcase name=\"%s %s\" classname=\"%s\">\n", xmlEscape(d.Rule), xmlEscape(d.Span.Start.String()), xmlEscape(d.Span.Start.File))
		if d.Severity >= c.PassBelow {
			fmt.Fprintf(&bw, "      <failure message=\"%s\" type=\"%s\">%s</failure>\n", xmlEscape(d.Message), d.Severity, xmlText(body.String()))
		} else {
			fmt.Fprintf(&bw, "      <system-out>%s</system-out>\n", xmlText(body.String()))
		}
		bw.WriteString("    </testcase>\n")
	}
	bw.WriteString("  </testsuite>\n</testsuites>\n")
	_, err := io.WriteString(w, bw.String())
	return err
}

// xmlText escapes element content, keeping line breaks readable; characters XML 1.0 does not
// allow (controls, invalid UTF-8) are escaped as text first.
func xmlText(s string) string {
	return xmlEscaper.Replace(cleanBlock(s))
}

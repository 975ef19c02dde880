package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"
)

// Checkstyle writes Checkstyle XML (version 4.3), findings grouped by file in report order,
// as Jenkins' warnings plugin and reviewdog -f=checkstyle read it.
func Checkstyle(w io.Writer, c *Check) error {
	var bw strings.Builder
	bw.WriteString(xml.Header)
	bw.WriteString(`<checkstyle version="4.3">` + "\n")
	file := ""
	for i := range c.Findings {
		d := &c.Findings[i]
		if f := d.Span.Start.File; f != file || i == 0 {
			if i > 0 {
				bw.WriteString("  </file>\n")
			}
			file = f
			fmt.Fprintf(&bw, "  <file name=\"%s\">\n", xmlEscape(file))
		}
		fmt.Fprintf(&bw, "    <error line=\"%d\" column=\"%d\" severity=\"%s\" message=\"%s\" source=\"%s\"/>\n",
			line(d.Span.Start.Line), col(d.Span.Start.Col), d.Severity, xmlEscape(d.Message), xmlEscape("bucketlint."+d.Rule))
	}
	if len(c.Findings) > 0 {
		bw.WriteString("  </file>\n")
	}
	bw.WriteString("</checkstyle>\n")
	_, err := io.WriteString(w, bw.String())
	return err
}

// xmlEscape escapes text for an XML attribute or element, control characters as text.
func xmlEscape(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(Clean(s)))
	return b.String()
}

func lower(s string) string { return strings.ToLower(s) }

package report

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/bucketlint/bucketlint/plan"
)

func firstParagraph(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.Index(s, "\n\n"); i >= 0 {
		s = s[:i]
	}
	return strings.Join(strings.Fields(s), " ")
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n-1]
	for !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s + "…"
}

// columnConverter turns byte columns into UTF-16 code units using the source lines.
type columnConverter struct {
	source func(string) []byte
}

func (cv columnConverter) physical(s plan.Span) sarifPhysical {
	return sarifPhysical{ArtifactLocation: artifact(s.Start.File), Region: cv.region(s)}
}

func (cv columnConverter) region(s plan.Span) sarifRegion {
	start, end := s.Start, endOf(s)
	r := sarifRegion{
		StartLine: line(start.Line), StartColumn: cv.col(start.File, start.Line, col(start.Col)),
		EndLine: line(end.Line), EndColumn: cv.col(end.File, end.Line, col(end.Col)),
	}
	if r.EndLine < r.StartLine || (r.EndLine == r.StartLine && r.EndColumn < r.StartColumn) {
		r.EndLine, r.EndColumn = r.StartLine, r.StartColumn
	}
	return r
}

func (cv columnConverter) col(file string, ln, c int) int {
	if cv.source == nil {
		return c
	}
	src := cv.source(file)
	if src == nil {
		return c
	}
	text := lineText(src, ln)
	if c-1 > len(text) {
		return c
	}
	units := 0
	for _, r := range string(text[:c-1]) {
		units++
		if r >= 0x10000 {
			units++
		}
	}
	return units + 1
}

// lineText returns line n (1-based) of src without its newline.
func lineText(src []byte, n int) []byte {
	for i := 1; i < n; i++ {
		j := bytes.IndexByte(src, '\n')
		if j < 0 {
			return nil
		}
		src = src[j+1:]
	}
	if j := bytes.IndexByte(src, '\n'); j >= 0 {
		return src[:j]
	}
	return src
}

package explain

import (
	"strings"

	"github.com/bucketlint/bucketlint/parser/perr"
	"github.com/bucketlint/bucketlint/plan"
)

// A line is one input line without its line end and trailing blanks. off is the byte offset
// of s[0] in the original line: an ASCII box's leading "|" is cut off the front.
type line struct {
	s   string
	off int
}

// parser holds one file's lines and the errors found in them.
type parser struct {
	file  string
	lines []line
	errs  perr.List
	raws  []rawNode // preallocated raw nodes, see newRaw
	// frames is readTree's stack, kept for the next tree.
	frames []frame
	// ids is the operator table of the formatted plan being read.
	ids opTable
	arena
}

func newParser(file string, src []byte) *parser {
	p := &parser{file: file}
	p.later = &reader{}
	text := string(src)
	text0 := text
	p.lines = make([]line, 0, strings.Count(text, "\n")+1)
	for len(text) > 0 {
		s := text
		if k := strings.IndexByte(text, '\n'); k >= 0 {
			s, text = text[:k], text[k+1:]
		} else {
			text = ""
		}
		e := len(s)
		for e > 0 && (s[e-1] == ' ' || s[e-1] == '\t' || s[e-1] == '\r') {
			e--
		}
		p.lines = append(p.lines, line{s: s[:e]})
	}
	if strings.Contains(text0, "|== ") || strings.Contains(text0, "|Found ") {
		p.unbox() // no line can open a table cell otherwise
	}
	return p
}

// unbox strips the ASCII table Spark's DataFrame.show(truncate=False) draws around an
// EXPLAIN result: "|== Physical Plan ==" opens the cell, the cell's last line ends in
// padding and "|", and a "+---+" rule closes the table.
func (p *parser) unbox() {
	in := false
	for i := range p.lines {
		l := &p.lines[i]
		t := strings.TrimLeft(l.s, " ")
		switch {
		case strings.HasPrefix(t, "|== ") || strings.HasPrefix(t, "|Found "):
			l.off = len(l.s) - len(t) + 1
			l.s = t[1:]
			in = true
		case !in:
			continue
		case isRule(t):
			l.s = ""
			in = false
			continue
		}
		if strings.HasSuffix(l.s, "|") {
			l.s = strings.TrimRight(l.s[:len(l.s)-1], " ")
		}
	}
}

// isRule reports a table rule such as "+-----+".
func isRule(t string) bool {
	if len(t) < 2 || t[0] != '+' || t[1] != '-' {
		return false
	}
	return strings.Trim(t, "+-") == ""
}

// pos returns the position of byte col (0-based, in the stripped line) of line i (0-based).
func (p *parser) pos(i, col int) plan.Pos {
	return plan.Pos{File: p.file, Line: i + 1, Col: p.lines[i].off + col + 1}
}

// endPos returns the position just after the last byte of line i.
func (p *parser) endPos(i int) plan.Pos {
	return p.pos(i, len(p.lines[i].s))
}

// errorf records an error at byte col of line i.
func (p *parser) errorf(i, col int, format string, args ...any) {
	p.errs.Add(p.pos(i, col), format, args...)
}

// blank reports whether line i is empty.
func (p *parser) blank(i int) bool {
	s := p.lines[i].s
	if s != "" && s[0] > ' ' && s[0] < 0x80 {
		return false // not a space, not the start of a Unicode one
	}
	return strings.TrimSpace(s) == ""
}

// skipBlank returns the first non-blank line at or after i.
func (p *parser) skipBlank(i int) int {
	for i < len(p.lines) && p.blank(i) {
		i++
	}
	return i
}

// indent returns the index of the first non-blank byte of s.
func indent(s string) int {
	return len(s) - len(strings.TrimLeft(s, " \t"))
}

// header returns the title of a section header line "== Title ==", and false for any other
// line.
func header(s string) (string, bool) {
	t := strings.TrimSpace(s)
	if len(t) < 6 || !strings.HasPrefix(t, "== ") || !strings.HasSuffix(t, " ==") {
		return "", false
	}
	return strings.TrimSpace(t[3 : len(t)-3]), true
}

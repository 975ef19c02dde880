package plan

import "strings"

// Rewrite returns x's text (Raw) with the sub-expressions for which f returns a replacement
// replaced by it, outermost first: the text a printer shows for an expression whose columns
// were renamed or unqualified. Sub-expressions are located in their parent's text by their
// spans (a parser's positions), so a node whose span does not lie inside its parent's (trees
// from explain text have none) keeps its text.
func (x *X) Rewrite(f func(*X) (string, bool)) string {
	if x == nil {
		return ""
	}
	if s, ok := f(x); ok {
		return s
	}
	if len(x.Args) == 0 || !x.Span.Start.IsValid() {
		return x.Raw
	}
	var b strings.Builder
	at := 0
	for _, a := range x.Args {
		from, okFrom := Offset(x.Raw, x.Span.Start, a.Span.Start)
		to, okTo := Offset(x.Raw, x.Span.Start, a.Span.End)
		if !okFrom || !okTo || from < at || to < from || a.Raw != x.Raw[from:to] {
			continue
		}
		b.WriteString(x.Raw[at:from])
		b.WriteString(a.Rewrite(f))
		at = to
	}
	b.WriteString(x.Raw[at:])
	return b.String()
}

// Offset returns the byte offset in text, whose first byte is at position start, of position
// p; false when p does not lie in text.
func Offset(text string, start, p Pos) (int, bool) {
	if !p.IsValid() || p.File != start.File || p.Line < start.Line {
		return 0, false
	}
	off, col := 0, start.Col
	for line := start.Line; line < p.Line; line++ {
		i := strings.IndexByte(text[off:], '\n')
		if i < 0 {
			return 0, false
		}
		off += i + 1
		col = 1
	}
	off += p.Col - col
	if off < 0 || off > len(text) {
		return 0, false
	}
	return off, true
}

package sql

import (
	"slices"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// A stmtKind is what a statement's leading keywords say it is.
type stmtKind int

const (
	stmtOther stmtKind = iota
	stmtSet
	stmtUse
	stmtCreate
	stmtAlter
	stmtDrop
	stmtAnalyze
	stmtCache
	stmtQuery
	stmtView
)

// classify picks the grammar for a statement from its first keywords.
func classify(w []string) stmtKind {
	if len(w) == 0 {
		return stmtOther
	}
	at := func(i int) string {
		if i < len(w) {
			return w[i]
		}
		return ""
	}
	switch w[0] {
	case "set":
		return stmtSet
	case "use":
		return stmtUse
	case "create", "replace":
		for _, x := range w[1:] {
			switch x {
			case "table":
				return stmtCreate
			case "view":
				return stmtView
			case "or", "replace", "temporary", "temp", "external", "global":
			default:
				return stmtOther
			}
		}
	case "alter":
		if at(1) == "table" {
			return stmtAlter
		}
	case "drop":
		if at(1) == "table" {
			return stmtDrop
		}
	case "analyze":
		if at(1) == "table" {
			return stmtAnalyze
		}
	case "cache":
		return stmtCache
	case "select", "with", "insert", "(", "values", "table", "from":
		return stmtQuery
	}
	return stmtOther
}

// leadingWords returns up to n leading words (or a leading bracket) of s, lower case, after
// blanks and comments. Hint comments are skipped too.
func leadingWords(s string, n int) []string {
	return appendLeadingWords(make([]string, 0, n), s, n)
}

// appendLeadingWords is leadingWords appending to out.
func appendLeadingWords(out []string, s string, n int) []string {
	i := 0
	for i < len(s) && len(out) < n {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '-' && i+1 < len(s) && s[i+1] == '-':
			i = skipLine(s, i)
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			i = skipBlock(s, i)
		case c == '(':
			out = append(out, "(")
			i++
		case isWordByte(c):
			j := i
			for j < len(s) && isWordByte(s[j]) {
				j++
			}
			out = append(out, lowerWord(s[i:j]))
			i = j
		default:
			return out
		}
	}
	return out
}

// lowerWord is strings.ToLower of a word, without allocating for the keywords classify
// reads, which most statements start with.
func lowerWord(w string) string {
	if len(w) < len(statementWords) {
		for _, k := range statementWords[len(w)] {
			if foldEq(w, k) {
				return k
			}
		}
	}
	return strings.ToLower(w)
}

// statementWords are the words lowerWord returns without allocating, by length.
var statementWords = func() (t [10][]string) { //nolint:gochecknoglobals // a constant table
	for _, k := range [...]string{
		"select", "with", "insert", "create", "table", "view", "or", "replace", "temporary", "temp",
		"external", "global", "alter", "drop", "analyze", "cache", "set", "use", "values", "from",
		"if", "not", "exists", "into", "overwrite", "show", "describe", "explain", "lazy",
	} {
		t[len(k)] = append(t[len(k)], k)
	}
	return t
}()

func isWordByte(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// leadingSpace returns the offset of the first byte of code in s (after blanks and comments).
func leadingSpace(s string) int {
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '-' && i+1 < len(s) && s[i+1] == '-':
			i = skipLine(s, i)
		case c == '/' && i+1 < len(s) && s[i+1] == '*' && (i+2 >= len(s) || s[i+2] != '+'):
			i = skipBlock(s, i)
		default:
			return i
		}
	}
	return i
}

// A lineIndex maps byte offsets of a file to positions.
type lineIndex struct {
	file   string
	starts []int
	size   int
	// last is the line of the last position asked for: positions are asked for in runs on
	// one line, most of them.
	last int
}

func newLineIndex(file, src string) lineIndex {
	starts := []int{0}
	for i := 0; ; {
		j := strings.IndexByte(src[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
		starts = append(starts, i)
	}
	return lineIndex{file: file, starts: starts, size: len(src)}
}

// pos returns the position of offset off, clamped to the file.
func (l *lineIndex) pos(off int) plan.Pos {
	off = max(0, min(off, l.size))
	line := l.last
	if line >= len(l.starts) || l.starts[line] > off || line+1 < len(l.starts) && l.starts[line+1] <= off {
		if next := line + 1; next < len(l.starts) && l.starts[next] <= off && (next+1 == len(l.starts) || l.starts[next+1] > off) {
			line = next // the next line, as in a statement read in order
		} else {
			line, _ = slices.BinarySearch(l.starts, off+1) // the first line starting after off
			line--
		}
		l.last = line
	}
	return plan.Pos{File: l.file, Line: line + 1, Col: off - l.starts[line] + 1}
}

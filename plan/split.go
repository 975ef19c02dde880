package plan

import "strings"

// SplitArgs splits s at commas outside brackets, parentheses, braces and closed quotes, and
// trims the spaces around each part. ok is false when a bracket is still open at the end of
// s, as in FileScan metadata cut at 100 characters ("In(b, [1,2,3..."); the last part then
// holds everything after its last top-level comma. It reads the argument lists of operators
// and expressions as Spark prints them.
func SplitArgs(s string) (parts []string, ok bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, true
	}
	return AppendSplitArgs(make([]string, 0, strings.Count(s, ",")+1), s)
}

// AppendSplitArgs is SplitArgs appending the parts to dst, which a caller can keep on its
// stack; for empty s it returns dst as it is.
func AppendSplitArgs(dst []string, s string) (parts []string, ok bool) {
	s = TrimSpace(s)
	if s == "" {
		return dst, true
	}
	parts = dst
	depth, start := 0, 0
	var noQuote [3]bool // a quote with no closing partner left: treat it as a plain byte
	for i := 0; i < len(s); i++ {
		if !splitSpecial[s[i]] {
			continue
		}
		switch c := s[i]; c {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth > 0 {
				depth--
			}
		case '\'', '"', '`':
			k := strings.IndexByte("'\"`", c)
			if noQuote[k] {
				continue
			}
			if j := ClosingQuote(s, i); j > 0 {
				i = j
			} else {
				noQuote[k] = true
			}
		case ',':
			if depth == 0 {
				parts = append(parts, TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	parts = append(parts, TrimSpace(s[start:]))
	return parts, depth == 0
}

// splitSpecial are the bytes AppendSplitArgs looks at; it steps over the others.
//
//nolint:gochecknoglobals // a constant table
var splitSpecial = [256]bool{
	'(': true, '[': true, '{': true, ')': true, ']': true, '}': true,
	'\'': true, '"': true, '`': true, ',': true,
}

// TrimSpace is strings.TrimSpace, quicker for text that neither starts nor ends with a space
// (the arguments and list elements of printed plans, usually).
func TrimSpace(s string) string {
	if s != "" && isPlain(s[len(s)-1]) {
		switch {
		case isPlain(s[0]):
			return s
		case s[0] == ' ' && len(s) > 1 && isPlain(s[1]): // a list's element after ", "
			return s[1:]
		}
	}
	return strings.TrimSpace(s)
}

// isPlain reports an ASCII byte that is not white space.
func isPlain(c byte) bool { return c > ' ' && c < 0x80 }

// ClosingQuote returns the index of the quote closing the one at s[i], skipping
// backslash-escaped bytes, or -1 when there is none.
func ClosingQuote(s string, i int) int {
	q := s[i]
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case q:
			return j
		}
	}
	return -1
}

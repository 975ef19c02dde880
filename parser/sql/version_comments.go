package sql

import "strings"

// Comments as Spark before 3.1 read them: a /* comment */ ends at its first */.

// nestedComment returns the offset of the first /* comment nested inside another in s, or
// -1: Spark before 3.1 ended a comment at its first */.
func nestedComment(s string) int {
	if strings.Count(s, "/*") < 2 {
		return -1
	}
	return eachBlockComment(s, func(i, j int) int {
		if k := strings.Index(s[i+2:j], "/*"); k >= 0 {
			return i + 2 + k
		}
		return -1
	})
}

// flatComments returns s with every /* inside a /* comment */ blanked to "/ ", so that each
// comment ends at its first */ as it did before Spark 3.1 (the rest of the text keeps its
// offsets); s itself when no comment holds another.
func flatComments(s string) string {
	if nestedComment(s) < 0 {
		return s
	}
	b := []byte(s)
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case c == '\'' || c == '"' || c == '`' || isDollarQuote(s, i):
			i = skipQuoted(s, i)
		case c == '-' && i+1 < len(b) && b[i+1] == '-':
			i = skipLine(s, i)
		case c == '/' && i+1 < len(b) && b[i+1] == '*':
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				end = len(s)
			} else {
				end += i + 2
			}
			for j := i + 2; j+1 < end; j++ {
				if b[j] == '/' && b[j+1] == '*' {
					b[j+1] = ' '
				}
			}
			i = min(end+2, len(b))
		default:
			i++
		}
	}
	return string(b)
}

// strayClose reports whether s, a statement with its comments blanked (hints stay), holds a
// */ outside strings and hints: what is left of a comment that held another when the first
// */ ended it, which Spark before 3.1 rejected.
func strayClose(s string) bool {
	for i := 0; i+1 < len(s); {
		c := s[i]
		switch {
		case c == '\'' || c == '"' || c == '`' || isDollarQuote(s, i):
			i = skipQuoted(s, i)
		case c == '/' && s[i+1] == '*':
			i = skipBlock(s, i)
		case c == '*' && s[i+1] == '/':
			return true
		default:
			i++
		}
	}
	return false
}

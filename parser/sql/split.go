package sql

// A chunk is one statement's source: the text between top-level semicolons, with its byte
// offset in the file.
type chunk struct {
	text   string
	offset int
}

// split cuts src into statements at semicolons outside quotes, comments, templates and
// brackets. It never fails: an unterminated quote or comment runs to the end of the input.
// Chunks holding only blanks and comments are dropped.
func split(src string) []chunk {
	var out []chunk
	start, depth := 0, 0
	emit := func(end int) {
		if hasCode(src[start:end]) {
			out = append(out, chunk{text: src[start:end], offset: start})
		}
	}
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\'' || c == '"' || c == '`':
			i = skipQuoted(src, i)
		case c == '-' && i+1 < len(src) && src[i+1] == '-':
			i = skipLine(src, i)
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			i = skipBlock(src, i)
		case c == '{' && i+1 < len(src) && (src[i+1] == '{' || src[i+1] == '%' || src[i+1] == '#'):
			i = skipTemplate(src, i)
		case c == '(':
			depth++
			i++
		case c == ')':
			if depth > 0 {
				depth--
			}
			i++
		case c == ';' && depth == 0:
			emit(i)
			start = i + 1
			i++
		default:
			i++
		}
	}
	emit(len(src))
	return out
}

// skipQuoted returns the offset just after the quoted text starting at i. A backslash escapes
// the next byte in strings; a doubled quote continues the text.
func skipQuoted(src string, i int) int {
	q := src[i]
	for j := i + 1; j < len(src); j++ {
		switch {
		case src[j] == '\\' && q != '`':
			j++
		case src[j] == q:
			if j+1 < len(src) && src[j+1] == q {
				j++
				continue
			}
			return j + 1
		}
	}
	return len(src)
}

func skipLine(src string, i int) int {
	for j := i; j < len(src); j++ {
		if src[j] == '\n' {
			return j + 1
		}
	}
	return len(src)
}

// skipBlock skips a /* … */ comment, nested comments included, as Spark's lexer does.
func skipBlock(src string, i int) int {
	depth := 0
	for j := i; j+1 < len(src); j++ {
		switch {
		case src[j] == '/' && src[j+1] == '*':
			depth++
			j++
		case src[j] == '*' && src[j+1] == '/':
			depth--
			j++
			if depth == 0 {
				return j + 1
			}
		}
	}
	return len(src)
}

// skipTemplate skips a Jinja {{ … }}, {% … %} or {# … #}.
func skipTemplate(src string, i int) int {
	closer := map[byte]string{'{': "}}", '%': "%}", '#': "#}"}[src[i+1]]
	for j := i + 2; j+1 < len(src); j++ {
		if src[j:j+2] == closer {
			return j + 2
		}
	}
	return len(src)
}

// hasCode reports whether s holds anything besides blanks and comments.
func hasCode(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '-' && i+1 < len(s) && s[i+1] == '-':
			i = skipLine(s, i)
		case c == '/' && i+1 < len(s) && s[i+1] == '*' && !(i+2 < len(s) && s[i+2] == '+'):
			i = skipBlock(s, i)
		default:
			return true
		}
	}
	return false
}

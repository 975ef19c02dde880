package sql

import "strings"

// A chunk is one statement's source: the text between top-level semicolons with comments
// blanked out, the same text as written (raw), and its byte offset in the file.
type chunk struct {
	text   string
	raw    string
	offset int
}

// splitStop reports the bytes at which split may have more to do than step over them.
func splitStop(c byte) bool {
	switch c {
	case '\'', '"', '`', '$', '-', '/', '{', ';':
		return true
	}
	return false
}

// splitStops is splitStop as a table, which the byte loop of split reads.
var splitStops = func() (t [256]bool) { //nolint:gochecknoglobals // a constant table
	for c := range 256 {
		t[c] = splitStop(byte(c))
	}
	return t
}()

// split cuts src into statements at semicolons outside quotes, backquotes, comments,
// templates and dollar-quoted bodies ($$ … $$), as the spark-sql CLI does (brackets do not protect a semicolon, so an unclosed bracket costs one
// statement only). It never fails: an unterminated quote or comment runs to the end of the
// input. Chunks holding only blanks, comments and templates are dropped.
func split(src string) []chunk {
	var out []chunk
	start := 0
	emit := func(end int) {
		if text := blank(src[start:end]); leadingSpace(text) < len(text) {
			out = append(out, chunk{text: text, raw: src[start:end], offset: start})
		}
	}
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case !splitStops[c]:
			i++
		case c == '\'' || c == '"' || c == '`' || isDollarQuote(src, i):
			i = skipQuoted(src, i)
		case c == '-' && i+1 < len(src) && src[i+1] == '-':
			i = skipLine(src, i)
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			i = skipBlock(src, i)
		case c == '{' && i+1 < len(src) && (src[i+1] == '{' || src[i+1] == '%' || src[i+1] == '#'):
			i = skipTemplate(src, i)
		case c == ';':
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
	if src[i] == '$' {
		return dollarEnd(src, i)
	}
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
	if j := strings.IndexByte(src[i:], '\n'); j >= 0 {
		return i + j + 1
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
	closer := "}}"
	switch src[i+1] {
	case '%':
		closer = "%}"
	case '#':
		closer = "#}"
	}
	for j := i + 2; j+1 < len(src); j++ {
		if src[j:j+2] == closer {
			return j + 2
		}
	}
	return len(src)
}

// blank returns s with comments, {% … %} and {# … #} tags, and the {{ … }} templates that
// come before the statement's first word (a dbt config block) replaced by spaces, newlines
// kept, so that offsets and line numbers are unchanged. Nested block comments are handled
// here, which a regular lexer cannot do; hint comments are kept.
func blank(s string) string {
	if !strings.Contains(s, "--") && !strings.Contains(s, "/*") && strings.IndexByte(s, '{') < 0 {
		return s // nothing to blank
	}
	var b []byte // a copy of s, made at the first wipe: most statements have nothing to wipe
	started := false
	wipe := func(from, to int) {
		if b == nil {
			b = []byte(s)
		}
		for k := from; k < to; k++ {
			if b[k] != '\n' {
				b[k] = ' '
			}
		}
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\'' || c == '"' || c == '`' || isDollarQuote(s, i):
			started = true
			i = skipQuoted(s, i)
		case c == '-' && i+1 < len(s) && s[i+1] == '-':
			j := skipLine(s, i)
			wipe(i, j)
			i = j
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			j := skipBlock(s, i)
			if i+2 >= len(s) || s[i+2] != '+' {
				wipe(i, j)
			}
			i = j
		case c == '{' && i+1 < len(s) && (s[i+1] == '%' || s[i+1] == '#' || s[i+1] == '{' && !started):
			j := skipTemplate(s, i)
			wipe(i, j)
			i = j
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		default:
			started = true
			i++
		}
	}
	if b == nil {
		return s
	}
	return string(b)
}

// unclosedComment returns the offset of a /* comment in s that is never closed (nested
// comments counted, as Spark's lexer does), or -1.
func unclosedComment(s string) int {
	if !strings.Contains(s, "/*") {
		return -1
	}
	return eachBlockComment(s, func(i, j int) int {
		if j >= len(s) && (j-i < 4 || s[j-2:j] != "*/" || !closes(s[i:j])) {
			return i
		}
		return -1
	})
}

// eachBlockComment calls at with the start and end of each /* comment */ of s outside
// strings, quoted names and line comments (its end as skipBlock finds it: nested comments
// counted), in order, and returns the first result that is not -1, or -1.
func eachBlockComment(s string, at func(i, j int) int) int {
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\'' || c == '"' || c == '`' || isDollarQuote(s, i):
			i = skipQuoted(s, i)
		case c == '-' && i+1 < len(s) && s[i+1] == '-':
			i = skipLine(s, i)
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			j := skipBlock(s, i)
			if r := at(i, j); r >= 0 {
				return r
			}
			i = j
		default:
			i++
		}
	}
	return -1
}

// closes reports whether the block comment c (from its /* to the end of the text) closes all
// the comments it opens.
func closes(c string) bool {
	depth := 0
	for j := 0; j+1 < len(c); j++ {
		switch {
		case c[j] == '/' && c[j+1] == '*':
			depth++
			j++
		case c[j] == '*' && c[j+1] == '/':
			depth--
			j++
		}
	}
	return depth == 0
}

// quotesToBackticks returns s with its double-quoted strings written as backquoted names, as
// Spark reads them under spark.sql.ansi.doubleQuotedIdentifiers; lengths and offsets are
// unchanged.
func quotesToBackticks(s string) string {
	b := []byte(s)
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '"':
			j := skipQuoted(s, i)
			b[i] = '`'
			if j-1 > i && s[j-1] == '"' {
				b[j-1] = '`'
			}
			i = j
		case c == '\'' || c == '`' || isDollarQuote(s, i):
			i = skipQuoted(s, i)
		case c == '-' && i+1 < len(s) && s[i+1] == '-':
			i = skipLine(s, i)
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			i = skipBlock(s, i)
		default:
			i++
		}
	}
	return string(b)
}

// isDollarQuote reports whether a dollar-quoted body ($$ … $$ or $tag$ … $tag$, the body of
// a Python function) starts at i: a $ that does not continue a name. It is small enough to
// be inlined where the scanners ask it of every byte; dollarQuoteAt reads the rest.
func isDollarQuote(s string, i int) bool { return s[i] == '$' && dollarQuoteAt(s, i) }

// dollarQuoteAt is isDollarQuote for the $ at i.
func dollarQuoteAt(s string, i int) bool {
	if i > 0 && (isIdentStart(s[i-1]) || isDigit(s[i-1])) {
		return false
	}
	j := i + 1
	for j < len(s) && (isIdentStart(s[j]) && s[j] != '$' || isDigit(s[j]) && j > i+1) {
		j++
	}
	return j < len(s) && s[j] == '$'
}

// dollarEnd returns the offset just after the dollar-quoted body starting at i (its closing
// delimiter), or the end of s when it is never closed.
func dollarEnd(s string, i int) int {
	j := strings.IndexByte(s[i+1:], '$') + i + 1
	delim := s[i : j+1]
	if k := strings.Index(s[j+1:], delim); k >= 0 {
		return j + 1 + k + len(delim)
	}
	return len(s)
}

// opaqueStart reports the bytes that may start what skipOpaque skips.
func opaqueStart(c byte) bool {
	switch c {
	case '\'', '"', '`', '$', '{':
		return true
	}
	return false
}

// skipOpaque returns the offset just after a quoted string or a template that starts at i,
// and whether one does.
func skipOpaque(s string, i int) (int, bool) {
	switch c := s[i]; {
	case c == '\'' || c == '"' || c == '`' || isDollarQuote(s, i):
		return skipQuoted(s, i), true
	case c == '{' && i+1 < len(s) && s[i+1] == '{':
		return skipTemplate(s, i), true
	}
	return i, false
}

// StatementEnds returns the offsets at which the statements of src end, in order: each
// ';' that ends one, then len(src). Statements are cut as the parser cuts them (outside
// quotes, comments, templates and dollar-quoted bodies).
func StatementEnds(src string) []int {
	var out []int
	for _, c := range split(src) {
		out = append(out, c.offset+len(c.raw))
	}
	return append(out, len(src))
}

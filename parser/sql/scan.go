package sql

import "strings"

// The hand-written tokenizer of the statement parser (rd*.go). It reads what lexer.go's
// rules read (Spark's SqlBaseLexer as far as bucketlint needs it), in one pass without
// regular expressions: comments and whitespace are dropped, a hint comment /*+ … */ is a
// token, a Jinja {{ … }} is a template token and {% … %} / {# … #} are dropped. Operators
// are single characters except the multi-character ones below; << >> >>> and |> are read by
// the parser from adjacent < > | characters, so that array<array<int>> needs no splitting.

// A tkind is a token's kind.
type tkind uint8

const (
	tEOF tkind = iota
	tIdent
	tQuoted
	tString
	tNumber
	tOp
	tHint
	tTemplate
	// tBad is a character no rule reads.
	tBad
)

// A token is one token of a statement: its text as written and its byte extent.
type token struct {
	kind     tkind
	text     string
	off, end int
}

// multiOp returns the length of the operator of more than one character at the start of s,
// or 1.
func multiOp(s string) int {
	if strings.HasPrefix(s, "<=>") {
		return 3
	}
	if len(s) >= 2 {
		switch s[:2] {
		case "<>", "<=", ">=", "!=", "==", "||", "::", "->", "=>", "&&":
			return 2
		}
	}
	return 1
}

// scanInto tokenizes s into toks[:0] (grown when short), so that a caller reading many
// statements reuses one buffer: a token holds offsets into s and a substring of it, never a
// copy. It never fails: a character no rule reads is a tBad token, an unterminated quote or
// comment runs to the end of s.
func scanInto(toks []token, s string) []token {
	if toks = toks[:0]; cap(toks) < len(s)/5+8 {
		toks = make([]token, 0, len(s)/5+8)
	}
	for i := 0; i < len(s); {
		c := s[i]
		start := i
		var k tkind
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
			continue
		case c == '-' && i+1 < len(s) && s[i+1] == '-':
			i = skipLine(s, i)
			continue
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			i = skipBlock(s, i)
			if i-start >= 3 && s[start+2] == '+' {
				toks = append(toks, token{kind: tHint, text: s[start:i], off: start, end: i})
			}
			continue
		case c == '{' && i+1 < len(s) && (s[i+1] == '%' || s[i+1] == '#'):
			i = skipTemplate(s, i)
			continue
		case c == '$' && isDollarQuote(s, i):
			k, i = tString, dollarEnd(s, i)
		case wordByte[c]:
			k, i = wordToken(s, i)
		case (c == '{' || c == '$') && templateEnd(s, i) > i:
			// a placeholder and the name characters joined to it (template.go)
			k, i = tTemplate, templateEnd(s, i)
		case c == '\'' || c == '"':
			k, i = tString, skipQuoted(s, i)
		case (c == 'r' || c == 'R') && i+1 < len(s) && (s[i+1] == '\'' || s[i+1] == '"'):
			k, i = tString, skipQuoted(s, i+1)
		case c == '`':
			k, i = tQuoted, skipQuoted(s, i)
		case isDigit(c) || c == '.' && i+1 < len(s) && isDigit(s[i+1]):
			var ident bool
			i, ident = scanNumber(s, i)
			k = tNumber
			if ident {
				k = tIdent
			}
		case isIdentStart(c) || c >= 0x80:
			k = tIdent
			i = identEnd(s, i+1)
		default:
			k, i = tOp, i+multiOp(s[i:])
			if !isOpChar(c) {
				k = tBad
			}
		}
		toks = append(toks, token{kind: k, text: s[start:i], off: start, end: i})
	}
	return append(toks, token{kind: tEOF, off: len(s), end: len(s)})
}

// wordByte marks the bytes templateEnd reads as name characters: ASCII letters, digits and _.
var wordByte = func() (t [256]bool) { //nolint:gochecknoglobals // a constant table
	for c := range 256 {
		t[c] = c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || isDigit(byte(c))
	}
	return t
}()

// wordToken reads the token at i that starts with a letter, a digit or _: what scanInto's
// cases give it in their order (a template, an r'…' string, a number, an identifier), with
// the run of name characters read once. Only a { or $ after that run can start a template.
func wordToken(s string, i int) (tkind, int) {
	j := i + 1
	for j < len(s) && wordByte[s[j]] {
		j++
	}
	if j < len(s) && (s[j] == '{' || s[j] == '$') {
		if e := templateEnd(s, i); e > i {
			return tTemplate, e
		}
	}
	c := s[i]
	switch {
	case (c == 'r' || c == 'R') && j == i+1 && j < len(s) && (s[j] == '\'' || s[j] == '"'):
		return tString, skipQuoted(s, j)
	case isDigit(c):
		end, ident := scanNumber(s, i)
		if ident {
			return tIdent, end
		}
		return tNumber, end
	}
	return tIdent, identEnd(s, j)
}

// identEnd returns the end of the identifier whose rest starts at i.
func identEnd(s string, i int) int {
	for i < len(s) && (isIdentStart(s[i]) || isDigit(s[i]) || s[i] >= 0x80) {
		i++
	}
	return i
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// isOpChar reports the characters that are operators or punctuation.
func isOpChar(c byte) bool {
	switch c {
	case '-', '+', '*', '/', '%', '=', '<', '>', '(', ')', ',', '.', ';', '[', ']', ':', '&',
		'|', '^', '~', '!', '?', '{', '}', '@', '#', '\\':
		return true
	}
	return false
}

// scanNumber returns the end of the number at i: digits, an optional fraction, an optional
// exponent and an optional type suffix (L, S, Y, D, F, B, BD), as Spark's literals have. Digits
// followed by letters that are not a suffix (2012_s, 1a) make an identifier, as in Spark
// (ident is then true).
func scanNumber(s string, i int) (end int, ident bool) {
	start := i
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	if i < len(s) && s[i] == '.' {
		_, r := digits(s[i+1:])
		i = len(s) - len(r)
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j < len(s) && isDigit(s[j]) {
			_, r := digits(s[j:])
			i = len(s) - len(r)
		}
	}
	if i+1 < len(s) && (s[i] == 'b' || s[i] == 'B') && (s[i+1] == 'd' || s[i+1] == 'D') {
		i += 2
	} else if i < len(s) && isSuffix(s[i]) {
		i++
	}
	if i < len(s) && (isIdentStart(s[i]) || isDigit(s[i])) && !hasDot(s[start:i]) {
		i = identEnd(s, i)
		return i, true
	}
	return i, false
}

func isSuffix(c byte) bool {
	switch c | 0x20 {
	case 'l', 's', 'y', 'd', 'f', 'b':
		return true
	}
	return false
}

func hasDot(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '.' || s[i] == 'e' || s[i] == 'E' {
			return true
		}
	}
	return false
}

// templateEnd returns the end of the Template token at i (template.go's templatePattern:
// placeholders and the name characters joined to them), or -1 when none starts there.
func templateEnd(s string, i int) int {
	found := false
	for {
		j := i
		for j < len(s) && (isIdentStart(s[j]) && s[j] != '$' || isDigit(s[j])) {
			j++
		}
		e := placeholderEnd(s, j)
		if e < 0 {
			if found {
				return j
			}
			return -1
		}
		found, i = true, e
	}
}

// placeholderEnd returns the end of the placeholder at i ({{ … }}, ${…}, or a Python format
// field {name!r:spec}), or -1.
func placeholderEnd(s string, i int) int {
	switch {
	case strings.HasPrefix(s[i:], "{{"):
		if k := strings.Index(s[i+2:], "}}"); k >= 0 {
			return i + 2 + k + 2
		}
	case strings.HasPrefix(s[i:], "${"):
		for k := i + 2; k < len(s); k++ {
			switch s[k] {
			case '}':
				return k + 1
			case '{', '\n':
				return -1
			}
		}
	case i < len(s) && s[i] == '{':
		return formatField(s, i)
	}
	return -1
}

// formatField returns the end of a Python format field {name} {0} {} {x!r} {x:>10} at i, or -1.
func formatField(s string, k int) int {
	k++
	if k < len(s) && (isIdentStart(s[k]) && s[k] != '$') {
		for k < len(s) && (isIdentStart(s[k]) && s[k] != '$' || isDigit(s[k]) || s[k] == '.') {
			k++
		}
	} else {
		for k < len(s) && isDigit(s[k]) {
			k++
		}
	}
	if k+1 < len(s) && s[k] == '!' && strings.IndexByte("rsa", s[k+1]) >= 0 {
		k += 2
	}
	if k < len(s) && s[k] == ':' {
		for k < len(s) && s[k] != '}' {
			if s[k] == '{' || s[k] == '\n' {
				return -1
			}
			k++
		}
	}
	if k < len(s) && s[k] == '}' {
		return k + 1
	}
	return -1
}

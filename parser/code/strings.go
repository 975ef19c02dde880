package code

import (
	"strconv"
	"strings"
)

// A strLit is a string literal: literal parts and, for f-strings and Scala interpolators,
// interpolated expressions.
type strLit struct {
	parts []strPart
	// verbatim is set when the value is a byte-for-byte copy of the text at contentOff (no
	// escapes, no interpolation), so positions inside it map directly.
	verbatim   bool
	contentOff int
	// one holds the part of a literal without interpolation, parts then being one[:]: most
	// literals are such, and this spares them an allocation.
	one [1]strPart
}

// A strPart is a literal piece of a string or an interpolated expression (expr set).
type strPart struct {
	lit  string
	expr string
}

// constant returns the literal's value when it has no interpolation.
func (s *strLit) constant() (string, bool) {
	if len(s.parts) == 1 && s.parts[0].expr == "" {
		return s.parts[0].lit, true
	}
	var b strings.Builder
	for _, p := range s.parts {
		if p.expr != "" {
			return "", false
		}
		b.WriteString(p.lit)
	}
	return b.String(), true
}

// lexString reads a string literal whose opening quote is at lx.i; prefix is the Python
// prefix or the Scala interpolator before it.
func (lx *lexer) lexString(prefix string, _ int) *strLit {
	q := lx.src[lx.i]
	triple := lx.peek(1) == q && lx.peek(2) == q
	open := 1
	if triple {
		open = 3
	}
	lx.i += open
	cs := lx.i
	escapes := !lx.scala || !triple
	lower := strings.ToLower(prefix)
	raw := (!lx.scala && strings.Contains(lower, "r")) || (lx.scala && prefix == "raw")
	for lx.i < len(lx.src) {
		c := lx.src[lx.i]
		if c == '\\' && escapes && lx.i+1 < len(lx.src) {
			lx.i += 2
			continue
		}
		if c == '\n' && !triple {
			break
		}
		if c == q && (!triple || (lx.peek(1) == q && lx.peek(2) == q)) {
			break
		}
		lx.i++
	}
	ce := lx.i
	if lx.i < len(lx.src) && lx.src[lx.i] == q {
		lx.i += open
		if lx.i > len(lx.src) {
			lx.i = len(lx.src)
		}
	}
	content := string(lx.src[cs:ce])
	decode := escapes && !raw
	lit := &strLit{contentOff: cs}
	switch {
	case !lx.scala && strings.Contains(lower, "f"):
		lit.parts = splitFString(content, decode)
	case lx.scala && prefix != "" && prefix != "raw":
		lit.parts = splitScalaInterp(content, decode)
	default:
		lit.one[0] = strPart{lit: unescape(content, decode)}
		lit.parts = lit.one[:]
		lit.verbatim = !decode || !strings.Contains(content, `\`)
	}
	return lit
}

// unescape decodes the common backslash escapes when decode is set; unknown escapes are kept
// as written, as Python does.
func unescape(s string, decode bool) string {
	if !decode || !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case '0':
			b.WriteByte(0)
		case '\\', '\'', '"':
			b.WriteByte(e)
		case '\n':
		case 'x', 'u':
			n := 2
			if e == 'u' {
				n = 4
			}
			if i+n < len(s) {
				if v, err := strconv.ParseUint(s[i+1:i+1+n], 16, 32); err == nil {
					b.WriteRune(rune(v))
					i += n
					continue
				}
			}
			b.WriteByte('\\')
			b.WriteByte(e)
		default:
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	return b.String()
}

// splitFString splits a Python f-string's content into literal parts and {expr} parts
// ({{ and }} are literal braces; a !conversion or :format suffix is dropped).
func splitFString(s string, decode bool) []strPart {
	b := &partsBuilder{decode: decode}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case (c == '{' || c == '}') && i+1 < len(s) && s[i+1] == c:
			b.lit.WriteByte(c)
			i++
		case c == '{':
			j, depth := i+1, 1
			for ; j < len(s) && depth > 0; j++ {
				switch s[j] {
				case '{', '[', '(':
					depth++
				case '}', ']', ')':
					depth--
				}
			}
			var inner string
			if depth > 0 {
				inner, j = s[i+1:], len(s)+1
			} else {
				inner = s[i+1 : j-1]
			}
			b.expr(fExpr(inner))
			i = j - 1
		default:
			b.lit.WriteByte(c)
		}
	}
	b.flush()
	return b.parts
}

// fExpr trims an f-string replacement field to its expression.
func fExpr(s string) string {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[', '(', '{':
			depth++
		case ']', ')', '}':
			depth--
		case '!', ':':
			if depth == 0 && (s[i] == ':' || (i+1 < len(s) && s[i+1] != '=')) {
				s = s[:i]
			}
		}
	}
	s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "="))
	if s == "" {
		return "?"
	}
	return s
}

// splitScalaInterp splits a Scala s"…" / f"…" content: $name and ${expr} are expressions,
// $$ a literal dollar.
func splitScalaInterp(s string, decode bool) []strPart {
	b := &partsBuilder{decode: decode}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '$' || i+1 >= len(s) {
			b.lit.WriteByte(c)
			continue
		}
		switch n := s[i+1]; {
		case n == '$':
			b.lit.WriteByte('$')
			i++
		case n == '{':
			j := strings.IndexByte(s[i+2:], '}')
			end := len(s)
			if j >= 0 {
				end = i + 2 + j
			}
			b.expr(fExpr(s[i+2 : end]))
			i = end
		case isIdentStart(n):
			j := i + 1
			for j < len(s) && isIdentPart(s[j]) {
				j++
			}
			b.expr(s[i+1 : j])
			i = j - 1
		default:
			b.lit.WriteByte(c)
		}
	}
	b.flush()
	return b.parts
}

// A partsBuilder collects a string's parts: literal bytes up to the next expression, then it.
type partsBuilder struct {
	parts  []strPart
	lit    strings.Builder
	decode bool
}

// flush ends the literal part being collected, if any.
func (b *partsBuilder) flush() {
	if b.lit.Len() > 0 {
		b.parts = append(b.parts, strPart{lit: unescape(b.lit.String(), b.decode)})
		b.lit.Reset()
	}
}

// expr ends the literal part and adds an expression part.
func (b *partsBuilder) expr(e string) {
	b.flush()
	b.parts = append(b.parts, strPart{expr: e})
}

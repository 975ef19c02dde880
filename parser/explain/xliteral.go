package explain

import (
	"strconv"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// The literals of the expression parser (xparse.go): quoted strings, numbers with Spark's
// typed suffixes, and the literals Spark prints without quotes.

// quoted reads a quoted string literal at the current position ('it”s', 'a\'b'); typ is
// its type ("string", or "date"/"timestamp" after DATE and TIMESTAMP). In printed text an
// unterminated quote starts an unquoted literal.
func (p *xparser) quoted(start int, typ string) *plan.X {
	q := p.s[p.i]
	if p.closing(p.i) < 0 {
		if p.printed {
			return p.rawLiteral(start)
		}
		return p.fail()
	}
	var b strings.Builder
	plain := true
	for j := p.i + 1; j < len(p.s); j++ {
		switch c := p.s[j]; {
		case c == '\\' && j+1 < len(p.s):
			if plain {
				b.WriteString(p.s[p.i+1 : j])
				plain = false
			}
			j++
			b.WriteByte(p.s[j])
		case c == q && j+1 < len(p.s) && p.s[j+1] == q:
			if plain {
				b.WriteString(p.s[p.i+1 : j])
				plain = false
			}
			j++
			b.WriteByte(q)
		case c == q:
			v := p.s[p.i+1 : j]
			if !plain {
				v = b.String()
			}
			p.i = j + 1
			return p.node(plan.X{Op: plan.OpLiteral, Value: v, Type: typ, Raw: p.raw(start)})
		default:
			if !plain {
				b.WriteByte(c)
			}
		}
	}
	if p.printed {
		return p.rawLiteral(start)
	}
	return p.fail()
}

// number reads a numeric literal whose digits start at digits (after a '-' at start): 5,
// -1.5, 1.0E10, and Spark's typed suffixes 5L, 5S, 5Y, 1.5D, 1.5F, 1.5BD. In printed text
// a number running into '-' or ':' is a date or a time, read as an unquoted literal.
func (p *xparser) number(start, digits int) *plan.X {
	j := digits
	for j < len(p.s) && isDigit(p.s[j]) {
		j++
	}
	intEnd, dot, exp := j, false, false
	if j < len(p.s) && p.s[j] == '.' {
		dot = true
		j++
		for j < len(p.s) && isDigit(p.s[j]) {
			j++
		}
	}
	if j+1 < len(p.s) && (p.s[j] == 'E' || p.s[j] == 'e') && (isDigit(p.s[j+1]) || (p.s[j+1] == '-' || p.s[j+1] == '+') && j+2 < len(p.s) && isDigit(p.s[j+2])) {
		exp = true
		j += 2
		for j < len(p.s) && isDigit(p.s[j]) {
			j++
		}
	}
	numEnd := j
	typ, k := numberSuffix(p.s, j)
	if k < len(p.s) && (isWordByte(p.s[k]) || p.s[k] == '-' || p.s[k] == ':' || p.s[k] == '.') {
		if p.printed {
			return p.rawLiteral(start)
		}
		return p.fail()
	}
	p.i = k
	value := p.s[start:numEnd]
	switch {
	case typ == "decimal":
		typ = decimalLiteralType(p.s[digits:numEnd], intEnd-digits)
	case typ != "":
	case p.printed:
	case exp:
		typ = "double"
	case dot:
		typ = decimalLiteralType(p.s[digits:numEnd], intEnd-digits)
	default:
		typ = integerLiteralType(value)
	}
	return p.node(plan.X{Op: plan.OpLiteral, Value: value, Type: typ, Raw: p.s[start:k]})
}

// numberSuffix reads a typed literal's suffix at j: its type ("decimal" for BD, to be
// sized) and the index after it; "" and j when there is none.
func numberSuffix(s string, j int) (string, int) {
	if j+1 < len(s) && (s[j] == 'B' || s[j] == 'b') && (s[j+1] == 'D' || s[j+1] == 'd') {
		return "decimal", j + 2
	}
	if j < len(s) {
		switch s[j] {
		case 'L', 'l':
			return "bigint", j + 1
		case 'S', 's':
			return "smallint", j + 1
		case 'Y', 'y':
			return "tinyint", j + 1
		case 'D', 'd':
			return "double", j + 1
		case 'F', 'f':
			return "float", j + 1
		}
	}
	return "", j
}

// decimalLiteralType is the type Spark gives a decimal literal: decimal(p,s) with s the
// digits after the point and p all digits (at least s, at least 1).
func decimalLiteralType(digits string, intLen int) string {
	scale := 0
	if intLen < len(digits) {
		scale = len(digits) - intLen - 1
	}
	intDigits := strings.TrimLeft(digits[:intLen], "0")
	prec := max(len(intDigits)+scale, scale, 1)
	return "decimal(" + strconv.Itoa(prec) + "," + strconv.Itoa(scale) + ")"
}

// integerLiteralType is the type Spark's parser gives an integer literal without suffix:
// int when it fits, else bigint, else decimal(p,0).
func integerLiteralType(v string) string {
	if _, err := strconv.ParseInt(v, 10, 32); err == nil {
		return "int"
	}
	if _, err := strconv.ParseInt(v, 10, 64); err == nil {
		return "bigint"
	}
	return "decimal(" + strconv.Itoa(len(strings.TrimLeft(strings.TrimPrefix(v, "-"), "0"))) + ",0)"
}

// rawLiteral reads a literal Spark printed without quotes (a string, a date, a timestamp):
// everything up to the end of the enclosing bracket or list element, or up to a word that
// continues the expression (WHEN, THEN, ELSE, END, AS). Its type is not printed.
func (p *xparser) rawLiteral(start int) *plan.X {
	j, depth := start, 0
	stopAtWord := false
loop:
	for ; j < len(p.s); j++ {
		switch p.s[j] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth == 0 {
				break loop
			}
			depth--
		case ',':
			if depth == 0 {
				break loop
			}
		case ' ':
			if depth == 0 && p.continues(j+1) {
				stopAtWord = true
				break loop
			}
		}
	}
	v := p.s[start:j]
	if stopAtWord {
		v = strings.TrimSuffix(v, " ")
	}
	if v == "" {
		return p.fail()
	}
	p.i = j
	return p.node(plan.X{Op: plan.OpLiteral, Value: v, Raw: strings.TrimSpace(v)})
}

// continues reports whether the word at i is one that ends an unquoted literal.
func (p *xparser) continues(i int) bool {
	for _, kw := range [...]string{"WHEN", "THEN", "ELSE", "END", "AS"} {
		if p.isKeyword(i, kw) {
			return true
		}
	}
	return false
}

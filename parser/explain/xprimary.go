package explain

import (
	"strconv"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// prefix reads an operand: a literal, a column, a call, a parenthesised expression, CASE,
// or a prefix operator applied to an operand.
func (p *xparser) prefix() *plan.X {
	p.space()
	if p.i >= len(p.s) {
		return p.fail()
	}
	start := p.i
	switch c := p.s[p.i]; {
	case c == '(':
		return p.postfix(start, p.group())
	case c == '\'' || c == '"' && !p.printed:
		return p.quoted(start, "string")
	case c == '-' && p.i+1 < len(p.s) && isDigit(p.s[p.i+1]):
		return p.number(start, start+1)
	case c == '-' || c == '+' || c == '~':
		p.i++
		x := p.expr(precUnary)
		if p.failed {
			return nil
		}
		return p.node(plan.X{Op: plan.OpUnary, Name: string(c), Args: []*plan.X{x}, Raw: p.raw(start)})
	case isDigit(c) || c == '.' && p.i+1 < len(p.s) && isDigit(p.s[p.i+1]):
		return p.number(start, start)
	case c == '*':
		p.i++
		return p.node(plan.X{Op: plan.OpStar, Raw: "*"})
	case c == '`' && !p.printed:
		return p.postfix(start, p.identifier(start))
	}
	j := p.wordAt(p.i)
	if j == p.i {
		if p.printed {
			return p.rawLiteral(start)
		}
		return p.fail()
	}
	if x, ok := p.keywordOperand(start, strings.ToLower(p.s[p.i:j]), j); ok {
		return x
	}
	switch {
	case j < len(p.s) && p.s[j] == '(':
		p.i = j
		return p.postfix(start, p.call(start, strings.ToLower(p.s[start:j])))
	case j < len(p.s) && p.s[j] == '#':
		return p.postfix(start, p.attribute(start, j))
	case p.printed && j < len(p.s) && p.s[j] == '[':
		p.i = j
		return p.postfix(start, p.node(plan.X{Op: plan.OpOther, Raw: p.s[start:j]}))
	case p.printed:
		return p.rawLiteral(start)
	}
	return p.postfix(start, p.identifier(start))
}

// keywordOperand reads the operands that start with a keyword: NOT, CASE, NULL, TRUE, FALSE
// and typed literals (DATE '…', TIMESTAMP '…'). ok is false when word is none of them.
func (p *xparser) keywordOperand(start int, word string, j int) (*plan.X, bool) {
	if j < len(p.s) && (p.s[j] == '(' || p.s[j] == '#' || p.s[j] == '.') {
		return nil, false
	}
	switch word {
	case "not":
		p.i = j
		x := p.expr(precNot)
		if p.failed {
			return nil, true
		}
		return p.node(plan.X{Op: plan.OpUnary, Name: "not", Args: []*plan.X{x}, Raw: p.raw(start)}), true
	case "case":
		p.i = j
		return p.caseExpr(start), true
	case "null":
		p.i = j
		return p.node(plan.X{Op: plan.OpLiteral, Value: "null", Type: "null", Raw: p.raw(start)}), true
	case "true", "false":
		p.i = j
		return p.node(plan.X{Op: plan.OpLiteral, Value: word, Type: "boolean", Raw: p.raw(start)}), true
	case "date", "timestamp", "timestamp_ntz", "timestamp_ltz":
		k := j
		for k < len(p.s) && p.s[k] == ' ' {
			k++
		}
		if k < len(p.s) && p.s[k] == '\'' {
			p.i = k
			x := p.quoted(start, plan.CanonicalType(word))
			return x, true
		}
	}
	return nil, false
}

// group reads "( expr )".
func (p *xparser) group() *plan.X {
	open := p.i
	p.i++
	x := p.expr(0)
	if p.failed || !p.expect(')') {
		return p.recover(open)
	}
	x.Raw = p.raw(open)
	return x
}

// postfix reads what may follow an operand without a space: an expression id, which makes
// the operand an attribute named by its text ("count(1)#48"), an index ("a#1[0]"), a field
// ("s#1.f"), or, after a call, a window specification ("rank(v#2) windowspecdefinition(…)").
func (p *xparser) postfix(start int, x *plan.X) *plan.X {
	for !p.failed && p.i < len(p.s) {
		switch c := p.s[p.i]; {
		case c == ' ' && x.Op != plan.OpCall:
			return x
		case (c == '#' || c == '[' || c == '.' || c == ' ') && !p.deeper():
			return nil
		}
		switch p.s[p.i] {
		case '#':
			if x.Op == plan.OpColumn {
				return x
			}
			end, id, long, ok := idAt(p.s, p.i)
			if !ok {
				return x
			}
			name := strings.ToLower(plan.StripIDs(p.s[start:p.i]))
			p.i = end
			x = p.node(plan.X{Op: plan.OpColumn, Name: name, ID: id, Long: long, Raw: p.raw(start)})
		case '[':
			open := p.i
			p.i++
			args := p.args([]*plan.X{x}, ']')
			if p.failed {
				return p.recover(open)
			}
			x = p.node(plan.X{Op: plan.OpOther, Args: args, Raw: p.raw(start)})
		case '.':
			if !p.printed || p.wordAt(p.i+1) == p.i+1 {
				return x
			}
			p.i = p.wordAt(p.i + 1)
			x = p.node(plan.X{Op: plan.OpOther, Args: []*plan.X{x}, Raw: p.raw(start)})
		case ' ':
			return p.window(start, x)
		default:
			return x
		}
	}
	return x
}

// window reads the window specification Spark prints after a window function
// ("windowspecdefinition(k#1, v#2 ASC NULLS FIRST, specifiedwindowframe(…))") into an "over"
// call of the function and the specification; anything else after fn is left unread.
func (p *xparser) window(start int, fn *plan.X) *plan.X {
	const spec = "windowspecdefinition"
	mark := p.i
	p.space()
	j := p.wordAt(p.i)
	if j == p.i || j >= len(p.s) || p.s[j] != '(' || !strings.EqualFold(p.s[p.i:j], spec) {
		p.i = mark
		return fn
	}
	specStart := p.i
	p.i = j
	s := p.call(specStart, spec)
	if p.failed {
		return nil
	}
	return p.node(plan.X{Op: plan.OpCall, Name: "over", Args: []*plan.X{fn, s}, Raw: p.raw(start)})
}

// call reads a function call's arguments from the '(' at the current position; name is the
// function name in lower case. Casts and null tests become their own nodes.
func (p *xparser) call(start int, name string) *plan.X {
	open := p.i
	p.i++
	switch name {
	case "cast", "try_cast", "ansi_cast":
		return p.cast(start, open, name)
	}
	x := p.node(plan.X{Op: plan.OpCall, Name: name})
	switch {
	case p.peekByte() == '*' && p.i+1 < len(p.s) && strings.TrimSpace(p.s[p.i+1:p.i+2]) == ")":
		p.i += 2
		x.Star = true
	case p.peekByte() == ')':
		p.i++
	default:
		mark := p.i
		if p.keyword("DISTINCT") && p.i < len(p.s) && p.s[p.i] == ' ' {
			x.Distinct = true
		} else {
			p.i = mark
		}
		x.Args = p.args(nil, ')')
	}
	if p.failed {
		return p.recover(open)
	}
	x.Raw = p.raw(start)
	if (name == "isnull" || name == "isnotnull") && len(x.Args) == 1 && !x.Distinct {
		x.Op = plan.OpUnary
	}
	return x
}

// cast reads "cast(x as T)" after its '(' (at open).
func (p *xparser) cast(start, open int, name string) *plan.X {
	inner := p.expr(0)
	if p.failed || !p.keyword("AS") {
		return p.recover(open)
	}
	p.space()
	typeStart := p.i
	p.i = p.skipBalanced(p.i)
	typ := strings.TrimSpace(p.s[typeStart:p.i])
	if typ == "" || !p.expect(')') {
		return p.recover(open)
	}
	if name == "ansi_cast" {
		name = "cast"
	}
	return p.node(plan.X{Op: plan.OpCast, Name: name, Type: plan.CanonicalType(typ), Args: []*plan.X{inner}, Raw: p.raw(start)})
}

// args reads list items separated by commas up to and including closer, appending them to
// dst. An item that does not parse becomes an OpOther of its text; the list fails only
// when closer never comes.
func (p *xparser) args(dst []*plan.X, closer byte) []*plan.X {
	for {
		p.space()
		itemStart := p.i
		x := p.item()
		if !p.failed {
			if c := p.peekByte(); c != ',' && c != closer {
				p.failed = true
			}
		}
		if p.failed {
			p.i = p.skipBalanced(p.i)
			if p.i >= len(p.s) {
				return dst
			}
			p.failed = false
			x = p.node(plan.X{Op: plan.OpOther, Raw: p.raw(itemStart)})
		}
		dst = append(dst, x)
		if p.s[p.i] == closer {
			p.i++
			return dst
		}
		if p.s[p.i] != ',' {
			p.failed = true
			return dst
		}
		p.i++
	}
}

// caseExpr reads CASE [operand] WHEN c THEN v … [ELSE e] END after the CASE keyword.
func (p *xparser) caseExpr(start int) *plan.X {
	x := p.node(plan.X{Op: plan.OpCase})
	p.space()
	if !p.isKeyword(p.i, "WHEN") {
		x.Operand = true
		x.Args = append(x.Args, p.expr(0))
	}
	for !p.failed && p.keyword("WHEN") {
		c := p.expr(0)
		if p.failed || !p.keyword("THEN") {
			return p.fail()
		}
		x.Args = append(x.Args, c, p.expr(0))
	}
	if !p.failed && p.keyword("ELSE") {
		x.Else = true
		x.Args = append(x.Args, p.expr(0))
	}
	if p.failed || !p.keyword("END") || len(x.Args) < 2 {
		return p.fail()
	}
	x.Raw = p.raw(start)
	return x
}

// attribute reads "name#12", "name#12L", "name#x" or a bare "name#" (Hyperspace's
// templates); the name ends at hash.
func (p *xparser) attribute(start, hash int) *plan.X {
	end, id, long, ok := idAt(p.s, hash)
	if !ok {
		return p.fail()
	}
	p.i = end
	return p.node(plan.X{Op: plan.OpColumn, Name: strings.ToLower(p.s[start:hash]), ID: id, Long: long, Raw: p.s[start:end]})
}

// identifier reads a column as SQL writes it: a name, or a dotted chain whose last part is
// the name ("o.k", "db.t.k", "`my col`"); "q.*" is a star.
func (p *xparser) identifier(start int) *plan.X {
	var parts []string
	for {
		part, ok := p.namePart()
		if !ok {
			return p.fail()
		}
		parts = append(parts, part)
		if p.i+1 >= len(p.s) || p.s[p.i] != '.' {
			break
		}
		if p.s[p.i+1] == '*' {
			p.i += 2
			return p.node(plan.X{Op: plan.OpStar, Qualifier: strings.ToLower(strings.Join(parts, ".")), Raw: p.raw(start)})
		}
		p.i++
	}
	n := len(parts)
	return p.node(plan.X{
		Op: plan.OpColumn, Name: strings.ToLower(parts[n-1]),
		Qualifier: strings.ToLower(strings.Join(parts[:n-1], ".")), Raw: p.raw(start),
	})
}

// namePart reads one identifier: a word or a `quoted` name.
func (p *xparser) namePart() (string, bool) {
	if p.i < len(p.s) && p.s[p.i] == '`' {
		j := p.i + 1
		for j < len(p.s) {
			if p.s[j] == '`' {
				if j+1 < len(p.s) && p.s[j+1] == '`' {
					j += 2
					continue
				}
				part := strings.ReplaceAll(p.s[p.i+1:j], "``", "`")
				p.i = j + 1
				return part, true
			}
			j++
		}
		return "", false
	}
	j := p.wordAt(p.i)
	if j == p.i {
		return "", false
	}
	part := p.s[p.i:j]
	p.i = j
	return part, true
}

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

// closeQuote returns the index of the quote closing the one at s[i], skipping
// backslash-escaped bytes, or -1 when there is none.
func closeQuote(s string, i int) int {
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

package explain

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// This file and xprimary.go read one expression as Spark prints it (Expression.toString:
// "(k#1 = 5)", "isnotnull(k#1)", "cast(k#1 as bigint)", "sum(v#2) windowspecdefinition(…)
// AS s#7") and, for the same conditions written as SQL, the forms a query holds ("k IS NOT
// NULL", "x NOT IN (1, 2)", "DATE '2024-06-30'"), into a plan.X tree. It is a Pratt parser
// over the text without a token slice, linear in the input: a construct it cannot read
// becomes an OpOther keeping its text, recovered at the innermost enclosing bracket, never an
// error of the whole plan; nesting deeper than maxXDepth is such a construct too.
//
// Spark prints attributes with their expression ids (name#12) and string, date and
// timestamp literals without quotes ("(c_mktsegment#2 = BUILDING)", "(d#3 >= 2000-01-01)").
// An expression that holds an attribute with an id is read that way ("printed"): a bare word
// there is a literal. Without ids (SQL, hand-written plans) a bare word is a column.

// maxXDepth bounds the nesting the parser descends into; deeper expressions are kept as text.
const maxXDepth = 200

// Binding powers of the infix operators, loosest first, as Spark's SQL grammar orders them
// (booleanExpression, then valueExpression); NOT binds between AND and the predicates.
const (
	precOr = iota + 1
	precAnd
	precNot
	precCmp // comparisons, IS, IN, BETWEEN, LIKE
	precBitOr
	precBitXor
	precBitAnd
	precShift
	precAdd // + - ||
	precMul // * / % div
	precUnary
)

// xparser is the state of one parse.
type xparser struct {
	s string
	i int
	// printed is set when the expression carries expression ids: bare words are literals.
	printed bool
	depth   int
	// failed is set when the parse cannot go on; the innermost bracket construct recovers.
	failed bool
	// unclosed marks the quote characters (', ", `) known to have no closing partner left,
	// so that no later quote of the kind scans to the end again.
	unclosed [3]bool
}

// closing returns the index of the quote closing the one at s[i], or -1 (remembered for
// the kind of quote) when none follows.
func (p *xparser) closing(i int) int {
	k := strings.IndexByte("'\"`", p.s[i])
	if p.unclosed[k] {
		return -1
	}
	j := closeQuote(p.s, i)
	if j < 0 {
		p.unclosed[k] = true
	}
	return j
}

// parseX reads s into a tree; printed says whether attributes carry ids. A text that does not
// parse as a whole is one OpOther node with its text.
func parseX(s string, printed bool) *plan.X {
	p := &xparser{s: s, printed: printed}
	x := p.item()
	p.space()
	if p.failed || p.i < len(p.s) || x == nil {
		return p.node(plan.X{Op: plan.OpOther, Raw: strings.TrimSpace(s)})
	}
	return x
}

// node returns a new node holding x.
func (p *xparser) node(x plan.X) *plan.X {
	n := new(plan.X)
	*n = x
	return n
}

// deeper counts one more level of the tree; past maxXDepth the parse fails.
func (p *xparser) deeper() bool {
	p.depth++
	if p.depth > maxXDepth {
		p.failed = true
		return false
	}
	return true
}

// fail stops the parse at the current position.
func (p *xparser) fail() *plan.X {
	p.failed = true
	return nil
}

func (p *xparser) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == '\n' || p.s[p.i] == '\r') {
		p.i++
	}
}

// peekByte returns the byte at the current position after spaces, 0 at the end.
func (p *xparser) peekByte() byte {
	p.space()
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

// raw is the text from start to the current position, without surrounding spaces.
func (p *xparser) raw(start int) string { return strings.TrimSpace(p.s[start:p.i]) }

// wordAt returns the end of the identifier word starting at i (i itself when none).
func (p *xparser) wordAt(i int) int {
	j := i
	for j < len(p.s) && isWordByte(p.s[j]) {
		j++
	}
	if j > i && isDigit(p.s[i]) {
		return i // a number, not a word
	}
	return j
}

func isWordByte(c byte) bool { return isIdentByte(c) || c == '$' || c >= 0x80 }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// keyword reports whether the word at the current position (after spaces) is kw, ignoring
// case, and consumes it when it is.
func (p *xparser) keyword(kw string) bool {
	p.space()
	j := p.wordAt(p.i)
	if j-p.i != len(kw) || !strings.EqualFold(p.s[p.i:j], kw) {
		return false
	}
	p.i = j
	return true
}

// isKeyword reports whether the word at i is kw, ignoring case, without consuming it.
func (p *xparser) isKeyword(i int, kw string) bool {
	j := p.wordAt(i)
	return j-i == len(kw) && strings.EqualFold(p.s[i:j], kw)
}

// expect consumes c (after spaces) or fails.
func (p *xparser) expect(c byte) bool {
	if p.peekByte() != c {
		p.failed = true
		return false
	}
	p.i++
	return true
}

// item reads an expression with what may follow it in a list: an alias ("x#1 AS y#2") and a
// sort direction ("k#1 ASC NULLS FIRST").
func (p *xparser) item() *plan.X {
	start := p.i
	x := p.expr(0)
	if p.failed {
		return nil
	}
	if p.keyword("AS") {
		return p.alias(start, x)
	}
	if p.keyword("ASC") || p.keyword("DESC") {
		dir := strings.ToLower(p.s[p.i-4 : p.i])
		if dir != "desc" {
			dir = "asc"
		}
		o := p.node(plan.X{Op: plan.OpOrder, Name: dir, Args: []*plan.X{x}})
		mark := p.i
		if p.keyword("NULLS") {
			switch {
			case p.keyword("FIRST"):
				o.Value = "nulls first"
			case p.keyword("LAST"):
				o.Value = "nulls last"
			default:
				p.i = mark
			}
		}
		o.Raw = p.raw(start)
		return o
	}
	return x
}

// alias reads the name after AS up to the end of the list element: Spark prints an alias's
// name as it is, spaces and brackets included, then its id ("sum(v) AS total#7L").
func (p *xparser) alias(start int, x *plan.X) *plan.X {
	p.space()
	nameStart := p.i
	p.i = p.skipBalanced(p.i)
	text := strings.TrimSpace(p.s[nameStart:p.i])
	if text == "" {
		return p.fail()
	}
	a := p.node(plan.X{Op: plan.OpAlias, Args: []*plan.X{x}, Name: text})
	if k := strings.LastIndexByte(text, '#'); k > 0 {
		if end, id, long, ok := idAt(text, k); ok && end == len(text) {
			a.Name, a.ID, a.Long = text[:k], id, long
		}
	}
	a.Name = strings.ToLower(a.Name)
	a.Raw = p.raw(start)
	return a
}

// skipBalanced returns the index of the first ',' or closing bracket at depth 0 from i (or
// len(s)), stepping over bracketed text and quoted strings.
func (p *xparser) skipBalanced(i int) int {
	depth := 0
	for ; i < len(p.s); i++ {
		switch c := p.s[i]; c {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth == 0 {
				return i
			}
			depth--
		case ',':
			if depth == 0 {
				return i
			}
		case '\'', '"', '`':
			if j := p.closing(i); j > 0 {
				i = j
			}
		}
	}
	return i
}

// recover ends a failed construct that opened a bracket at start: the text up to its closing
// bracket becomes an OpOther. It stays failed when the bracket is never closed.
func (p *xparser) recover(start int) *plan.X {
	for {
		p.i = p.skipBalanced(p.i)
		if p.i >= len(p.s) {
			p.failed = true
			return nil
		}
		if p.s[p.i] != ',' {
			break
		}
		p.i++
	}
	p.i++ // the closing bracket
	p.failed = false
	return p.node(plan.X{Op: plan.OpOther, Raw: p.raw(start)})
}

// expr reads an expression whose infix operators bind at least as tightly as minPrec.
// Each level of the tree it builds (a nested operand, one more operator of a chain, one more
// postfix) counts towards maxXDepth, so no path of the tree is longer.
func (p *xparser) expr(minPrec int) *plan.X {
	saved := p.depth
	if !p.deeper() {
		p.depth = saved
		return nil
	}
	start := p.i
	left := p.prefix()
	for !p.failed {
		if !p.deeper() {
			p.depth = saved
			return nil
		}
		mark := p.i
		prec, ok := p.infix(start, left, minPrec)
		if !ok {
			p.i = mark
			break
		}
		left = prec
	}
	p.depth = saved
	if p.failed {
		return nil
	}
	return left
}

// infix reads one infix operator or predicate after left, when it binds at least as tightly
// as minPrec, and returns the combined node; ok is false when none follows.
func (p *xparser) infix(start int, left *plan.X, minPrec int) (*plan.X, bool) {
	p.space()
	if p.i >= len(p.s) {
		return nil, false
	}
	if op, prec, n := p.symbol(); n > 0 {
		if prec < minPrec {
			return nil, false
		}
		p.i += n
		right := p.expr(prec + 1)
		return p.binary(start, op, left, right), true
	}
	j := p.wordAt(p.i)
	if j == p.i {
		return nil, false
	}
	word := strings.ToLower(p.s[p.i:j])
	switch word {
	case "and", "or":
		prec := precAnd
		if word == "or" {
			prec = precOr
		}
		if prec < minPrec {
			return nil, false
		}
		p.i = j
		right := p.expr(prec + 1)
		return p.binary(start, word, left, right), true
	case "div":
		if precMul < minPrec {
			return nil, false
		}
		p.i = j
		return p.binary(start, word, left, p.expr(precMul+1)), true
	}
	if precCmp < minPrec {
		return nil, false
	}
	return p.predicate(start, left, word, j)
}

// binary builds an OpBinary node, or nil when the right operand failed.
func (p *xparser) binary(start int, op string, left, right *plan.X) *plan.X {
	if p.failed {
		return nil
	}
	return p.node(plan.X{Op: plan.OpBinary, Name: op, Args: []*plan.X{left, right}, Raw: p.raw(start)})
}

// symbol reads an operator made of symbols at the current position: its canonical name,
// binding power and length; n is 0 when none is there.
func (p *xparser) symbol() (op string, prec, n int) {
	rest := p.s[p.i:]
	two := ""
	if len(rest) >= 2 {
		two = rest[:2]
	}
	switch rest[0] {
	case '<':
		switch {
		case strings.HasPrefix(rest, "<=>"):
			return "<=>", precCmp, 3
		case two == "<=":
			return "<=", precCmp, 2
		case two == "<>":
			return "!=", precCmp, 2
		case two == "<<":
			return "<<", precShift, 2
		}
		return "<", precCmp, 1
	case '>':
		switch {
		case strings.HasPrefix(rest, ">>>"):
			return ">>>", precShift, 3
		case two == ">=":
			return ">=", precCmp, 2
		case two == ">>":
			return ">>", precShift, 2
		}
		return ">", precCmp, 1
	case '=':
		if two == "==" {
			return "=", precCmp, 2
		}
		return "=", precCmp, 1
	case '!':
		if two == "!=" {
			return "!=", precCmp, 2
		}
	case '|':
		if two == "||" {
			return "||", precAdd, 2
		}
		return "|", precBitOr, 1
	case '+', '-':
		return rest[:1], precAdd, 1
	case '*', '/', '%':
		return rest[:1], precMul, 1
	case '&':
		return "&", precBitAnd, 1
	case '^':
		return "^", precBitXor, 1
	}
	return "", 0, 0
}

// predicate reads IS [NOT] NULL, [NOT] IN (…), INSET …, [NOT] BETWEEN … AND …, [NOT]
// LIKE/RLIKE/ILIKE after left; word is the lower-case word at the current position, ending
// at j.
func (p *xparser) predicate(start int, left *plan.X, word string, j int) (*plan.X, bool) {
	negated := false
	if word == "not" {
		k := j
		for k < len(p.s) && p.s[k] == ' ' {
			k++
		}
		e := p.wordAt(k)
		next := strings.ToLower(p.s[k:e])
		switch next {
		case "in", "between", "like", "rlike", "ilike":
			negated, word, j = true, next, e
		default:
			return nil, false
		}
	}
	var x *plan.X
	switch word {
	case "is":
		p.i = j
		x = p.isPredicate(start, left)
	case "in", "inset":
		p.i = j
		x = p.inList(start, left, word == "inset")
	case "between":
		p.i = j
		lo := p.expr(precCmp + 1)
		if p.failed || !p.keyword("AND") {
			return p.fail(), true
		}
		hi := p.expr(precCmp + 1)
		if p.failed {
			return nil, true
		}
		x = p.node(plan.X{Op: plan.OpBetween, Args: []*plan.X{left, lo, hi}})
	case "like", "rlike", "ilike":
		p.i = j
		right := p.expr(precCmp + 1)
		x = p.binary(start, word, left, right)
	default:
		return nil, false
	}
	if p.failed || x == nil {
		return nil, true
	}
	x.Raw = p.raw(start)
	if negated {
		if x.Op == plan.OpBinary {
			return p.node(plan.X{Op: plan.OpUnary, Name: "not", Args: []*plan.X{x}, Raw: x.Raw}), true
		}
		x.Negated = true
	}
	return x, true
}

// isPredicate reads what follows IS: [NOT] NULL, [NOT] TRUE/FALSE/UNKNOWN, [NOT] DISTINCT
// FROM x.
func (p *xparser) isPredicate(start int, left *plan.X) *plan.X {
	not := p.keyword("NOT")
	name := ""
	switch {
	case p.keyword("NULL"):
		name = "isnull"
		if not {
			name = "isnotnull"
		}
	case p.keyword("TRUE"), p.keyword("FALSE"), p.keyword("UNKNOWN"):
		name = "is" + strings.ToLower(p.s[p.wordStart():p.i])
		if not {
			name = "isnot" + name[2:]
		}
	case p.keyword("DISTINCT"):
		if !p.keyword("FROM") {
			return p.fail()
		}
		right := p.expr(precCmp + 1)
		if p.failed {
			return nil
		}
		x := p.node(plan.X{Op: plan.OpBinary, Name: "<=>", Args: []*plan.X{left, right}, Raw: p.raw(start)})
		if not {
			return x
		}
		return p.node(plan.X{Op: plan.OpUnary, Name: "not", Args: []*plan.X{x}})
	default:
		return p.fail()
	}
	return p.node(plan.X{Op: plan.OpUnary, Name: name, Args: []*plan.X{left}})
}

// wordStart returns where the word ending at the current position starts.
func (p *xparser) wordStart() int {
	k := p.i
	for k > 0 && isWordByte(p.s[k-1]) {
		k--
	}
	return k
}

// inList reads the values of IN ("(1,2,3)", as In prints them) or INSET ("1, 2, 3" from
// Spark 3.0, "(1,2,3)" before).
func (p *xparser) inList(start int, left *plan.X, inset bool) *plan.X {
	x := p.node(plan.X{Op: plan.OpIn, Args: []*plan.X{left}})
	if p.peekByte() != '(' {
		if !inset {
			return p.fail()
		}
		for {
			v := p.expr(precCmp + 1)
			if p.failed {
				return nil
			}
			x.Args = append(x.Args, v)
			if p.peekByte() != ',' {
				return x
			}
			p.i++
		}
	}
	open := p.i
	p.i++
	x.Args = p.args(x.Args, ')')
	if p.failed {
		if p.recover(open) == nil {
			return nil
		}
		return p.node(plan.X{Op: plan.OpOther, Args: []*plan.X{left}, Raw: p.raw(start)})
	}
	return x
}

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
	a *arena
	s string
	i int
	// printed is set when the expression carries expression ids: bare words are literals.
	printed bool
	depth   int
	// failed is set when the parse cannot go on; the innermost bracket construct recovers.
	failed bool
	// tooDeep is set when the parse failed at maxXDepth, until the text is kept.
	tooDeep bool
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
	j := plan.ClosingQuote(p.s, i)
	if j < 0 {
		p.unclosed[k] = true
	}
	return j
}

// parseX reads s into a tree; printed says whether attributes carry ids. A text that does not
// parse as a whole is one OpOther node with its text.
func (a *arena) parseX(s string, printed bool) *plan.X {
	p := &xparser{a: a, s: s, printed: printed}
	x := p.item()
	p.space()
	if p.failed || p.i < len(p.s) || x == nil {
		p.i = len(p.s)
		return p.other(0)
	}
	return x
}

// node returns a new node holding x.
func (p *xparser) node(x plan.X) *plan.X { return p.a.node(x) }

// deeper counts one more level of the tree; past maxXDepth the parse fails.
func (p *xparser) deeper() bool {
	p.depth++
	if p.depth > maxXDepth {
		p.failed, p.tooDeep = true, true
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

// keywordOf returns the lower-case form of w when it is one of the words the parser looks
// for between or before operands, and "" for any other word; an ASCII word is lowered
// without allocating.
func keywordOf(w string) string {
	var buf [16]byte
	if len(w) > len(buf) {
		return ""
	}
	k := buf[:len(w)]
	for i := 0; i < len(w); i++ {
		c := w[i]
		if c >= 0x80 {
			return knownKeyword(strings.ToLower(w)) // as Unicode lowers it: "LI\u212aE" is like
		}
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		k[i] = c
	}
	return knownKeyword(string(k))
}

// knownKeyword returns the keyword equal to k, or "".
func knownKeyword(k string) string {
	switch k {
	case "and":
		return "and"
	case "or":
		return "or"
	case "div":
		return "div"
	case "not":
		return "not"
	case "is":
		return "is"
	case "in":
		return "in"
	case "inset":
		return "inset"
	case "between":
		return "between"
	case "like":
		return "like"
	case "rlike":
		return "rlike"
	case "ilike":
		return "ilike"
	case "case":
		return "case"
	case "null":
		return "null"
	case "true":
		return "true"
	case "false":
		return "false"
	case "date":
		return "date"
	case "timestamp":
		return "timestamp"
	case "timestamp_ntz":
		return "timestamp_ntz"
	case "timestamp_ltz":
		return "timestamp_ltz"
	}
	return ""
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
		o := p.node(plan.X{Op: plan.OpOrder, Name: dir, Args: p.a.list(x)})
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
	a := p.node(plan.X{Op: plan.OpAlias, Args: p.a.list(x), Name: text})
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
	return p.other(start)
}

// other is the text from start to the current position kept as an OpOther: named "deep"
// when the parse stopped at maxXDepth.
func (p *xparser) other(start int) *plan.X {
	x := p.node(plan.X{Op: plan.OpOther, Raw: p.raw(start)})
	if p.tooDeep {
		x.Name, p.tooDeep = "deep", false
	}
	return x
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
	word := keywordOf(p.s[p.i:j])
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

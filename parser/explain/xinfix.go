package explain

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// The infix operators and predicates of the expression parser (xparse.go).

// binary builds an OpBinary node, or nil when the right operand failed.
func (p *xparser) binary(start int, op string, left, right *plan.X) *plan.X {
	if p.failed {
		return nil
	}
	return p.node(plan.X{Op: plan.OpBinary, Name: op, Args: p.a.list(left, right), Raw: p.raw(start)})
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
		next := keywordOf(p.s[k:e])
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
		x = p.node(plan.X{Op: plan.OpBetween, Args: p.a.list(left, lo, hi)})
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
			return p.node(plan.X{Op: plan.OpUnary, Name: "not", Args: p.a.list(x), Raw: x.Raw}), true
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
		x := p.node(plan.X{Op: plan.OpBinary, Name: "<=>", Args: p.a.list(left, right), Raw: p.raw(start)})
		if not {
			return x
		}
		return p.node(plan.X{Op: plan.OpUnary, Name: "not", Args: p.a.list(x)})
	default:
		return p.fail()
	}
	return p.node(plan.X{Op: plan.OpUnary, Name: name, Args: p.a.list(left)})
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
	if p.peekByte() != '(' {
		if !inset {
			return p.fail()
		}
		base := p.a.push(left)
		ok := p.insetItems()
		args := p.a.pop(base)
		if !ok {
			return nil
		}
		return p.node(plan.X{Op: plan.OpIn, Args: args})
	}
	open := p.i
	p.i++
	args := p.args(left, ')')
	if p.failed {
		if p.recover(open) == nil {
			return nil
		}
		return p.node(plan.X{Op: plan.OpOther, Args: p.a.list(left), Raw: p.raw(start)})
	}
	return p.node(plan.X{Op: plan.OpIn, Args: args})
}

// insetItems reads INSET's values printed without brackets onto the stack; false when one
// does not parse.
func (p *xparser) insetItems() bool {
	for {
		v := p.expr(precCmp + 1)
		if p.failed {
			return false
		}
		p.a.push(v)
		if p.peekByte() != ',' {
			return true
		}
		p.i++
	}
}

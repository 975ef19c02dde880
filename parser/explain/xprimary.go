package explain

import (
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
		return p.node(plan.X{Op: plan.OpUnary, Name: string(c), Args: p.a.list(x), Raw: p.raw(start)})
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
	if x, ok := p.keywordOperand(start, p.s[p.i:j], j); ok {
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
	word = keywordOf(word)
	switch word {
	case "not":
		p.i = j
		x := p.expr(precNot)
		if p.failed {
			return nil, true
		}
		return p.node(plan.X{Op: plan.OpUnary, Name: "not", Args: p.a.list(x), Raw: p.raw(start)}), true
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

// postfix reads what may follow an operand: an expression id, which makes the operand an
// attribute named by its text ("count(1)#48"), a subscript ("a#1[0]"), a field ("s#1.f"),
// or, after a call and a space, a window specification or a filter (callSuffix).
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
			args := p.args(x, ']')
			if p.failed {
				return p.recover(open)
			}
			x = p.node(plan.X{Op: plan.OpOther, Name: "subscript", Args: args, Raw: p.raw(start)})
		case '.':
			if !p.printed || p.wordAt(p.i+1) == p.i+1 {
				return x
			}
			p.i = p.wordAt(p.i + 1)
			x = p.node(plan.X{Op: plan.OpOther, Name: "field", Args: p.a.list(x), Raw: p.raw(start)})
		case ' ':
			return p.callSuffix(start, x)
		default:
			return x
		}
	}
	return x
}

// callSuffix reads what Spark prints after a call, separated by a space: a window
// specification ("rank(v#2) windowspecdefinition(k#1, v#2 ASC NULLS FIRST,
// specifiedwindowframe(…))"), read into an "over" node of the call, the partition keys, the
// sort keys and the frame call; or an aggregate's filter ("count(k#1) FILTER (WHERE (v#2 >
// 1))"), read into a "filter" node of the call and the condition. Anything else after fn is
// left unread.
func (p *xparser) callSuffix(start int, fn *plan.X) *plan.X {
	mark := p.i
	p.space()
	j := p.wordAt(p.i)
	word := p.s[p.i:j]
	switch {
	case strings.EqualFold(word, "windowspecdefinition") && j < len(p.s) && p.s[j] == '(':
		specStart := p.i
		p.i = j
		spec := p.call(specStart, "windowspecdefinition")
		if p.failed {
			return nil
		}
		args := p.a.list(fn, spec)
		if spec.Op == plan.OpCall {
			base := p.a.push(fn)
			p.a.push(spec.Args...)
			args = p.a.pop(base)
		}
		return p.node(plan.X{Op: plan.OpOther, Name: "over", Args: args, Raw: p.raw(start)})
	case strings.EqualFold(word, "FILTER"):
		p.i = j
		if p.peekByte() != '(' {
			return p.fail()
		}
		open := p.i
		p.i++
		var cond *plan.X
		if p.keyword("WHERE") {
			cond = p.expr(0)
		}
		if p.failed || cond == nil || !p.expect(')') {
			if cond = p.recover(open); cond == nil {
				return nil
			}
		}
		return p.node(plan.X{Op: plan.OpOther, Name: "filter", Args: p.a.list(fn, cond), Raw: p.raw(start)})
	}
	p.i = mark
	return fn
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
	return p.node(plan.X{Op: plan.OpCast, Name: name, Type: plan.CanonicalType(typ), Args: p.a.list(inner), Raw: p.raw(start)})
}

// args reads list items separated by commas up to and including closer, after lead when
// it is not nil. An item that does not parse becomes an OpOther of its text; the list fails
// only when closer never comes.
func (p *xparser) args(lead *plan.X, closer byte) []*plan.X {
	base := len(p.a.stack)
	if lead != nil {
		p.a.push(lead)
	}
	p.argItems(closer)
	return p.a.pop(base)
}

// argItems reads the items of args onto the stack.
func (p *xparser) argItems(closer byte) {
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
				return
			}
			p.failed = false
			x = p.other(itemStart)
		}
		p.a.push(x)
		if p.s[p.i] == closer {
			p.i++
			return
		}
		if p.s[p.i] != ',' {
			p.failed = true
			return
		}
		p.i++
	}
}

// caseExpr reads CASE [operand] WHEN c THEN v … [ELSE e] END after the CASE keyword.
func (p *xparser) caseExpr(start int) *plan.X {
	x := p.node(plan.X{Op: plan.OpCase})
	base := len(p.a.stack)
	ok := p.caseArgs(x)
	x.Args = p.a.pop(base)
	if !ok || p.failed || !p.keyword("END") || len(x.Args) < 2 {
		return p.fail()
	}
	x.Raw = p.raw(start)
	return x
}

// caseArgs reads a CASE's operand, branches and else value onto the stack; false when a
// WHEN has no THEN.
func (p *xparser) caseArgs(x *plan.X) bool {
	p.space()
	if !p.isKeyword(p.i, "WHEN") {
		x.Operand = true
		p.a.push(p.expr(0))
	}
	for !p.failed && p.keyword("WHEN") {
		c := p.expr(0)
		if p.failed || !p.keyword("THEN") {
			return false
		}
		p.a.push(c, p.expr(0))
	}
	if !p.failed && p.keyword("ELSE") {
		x.Else = true
		p.a.push(p.expr(0))
	}
	return true
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

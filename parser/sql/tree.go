package sql

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// maxTreeHeight bounds the height of the expression trees built: a sub-tree that would be
// higher (a chain of a thousand additions) is kept as one OpOther "deep" node with its text,
// so that every consumer can walk a tree recursively without fear for its stack.
const maxTreeHeight = 200

// A trees builds plan.X trees from one statement's expression grammar. Each grammar node
// is converted once (its tree is kept in the node's built field): a key, a filter and the
// WHERE tree share the nodes of one expression.
type trees struct {
	st *state
	c  chunk
	// height holds the height of the built nodes that have arguments; a node missing from
	// it is a leaf (height 1). It is made at the first such node.
	height map[*plan.X]int
	// lambda are the parameters of the lambdas being built, innermost last.
	lambda []string
}

func newTrees(st *state, c chunk) *trees {
	return &trees{st: st, c: c}
}

// mk returns a copy of proto spanning [from, to) of the statement, or an OpOther "deep"
// node when it would be higher than maxTreeHeight.
func (t *trees) mk(proto plan.X, from, to pos) *plan.X {
	x := t.st.nodes.get()
	*x = proto
	x.Raw, x.Span = text(t.c, from, to), t.st.span(t.c, from, to)
	if len(x.Args) == 0 {
		return x
	}
	h := 1
	for _, a := range x.Args {
		h = max(h, t.height[a])
	}
	if h+1 > maxTreeHeight {
		*x = plan.X{Op: plan.OpOther, Name: "deep", Raw: x.Raw, Span: x.Span}
		return x
	}
	if t.height == nil {
		t.height = make(map[*plan.X]int)
	}
	t.height[x] = h + 1
	return x
}

// xChunks allocates the plan.X nodes of a file's expression trees, which live as long as the
// file's model, a chunk at a time: chunks grow from 8 nodes to 128, so that the many short
// texts of a program (its spark.sql strings) take little memory and a long file few
// allocations.
type xChunks struct {
	free []plan.X
	next int
}

func (c *xChunks) get() *plan.X {
	if len(c.free) == 0 {
		c.next = min(max(2*c.next, 8), 128)
		c.free = make([]plan.X, c.next)
	}
	x := &c.free[0]
	c.free = c.free[1:]
	return x
}

// part is a built operand with its extent.
type part struct {
	x        *plan.X
	from, to pos
}

// expr converts an expression; nil for none.
func (t *trees) expr(e *expr) *plan.X {
	if e == nil {
		return nil
	}
	if e.built != nil {
		return e.built
	}
	if len(e.Or) == 1 && len(e.Or[0].And) == 1 {
		// one operand: what balanced returns for one part
		e.built = t.cmp(e.Or[0].And[0])
		return e.built
	}
	ps := make([]part, len(e.Or))
	for i, a := range e.Or {
		ands := make([]part, len(a.And))
		for j, c := range a.And {
			ands[j] = part{t.cmp(c), c.Pos, c.EndPos}
		}
		ps[i] = part{t.balanced("and", ands), a.Pos, a.EndPos}
	}
	e.built = t.balanced("or", ps)
	return e.built
}

// balanced joins operands of an associative operator into a balanced tree, as Spark's
// AstBuilder does for long AND and OR chains, so that its height grows with the logarithm
// of their number.
func (t *trees) balanced(op string, ps []part) *plan.X {
	if len(ps) == 1 {
		return ps[0].x
	}
	mid := len(ps) / 2
	l, r := t.balanced(op, ps[:mid]), t.balanced(op, ps[mid:])
	return t.mk(plan.X{Op: plan.OpBinary, Name: op, Args: []*plan.X{l, r}}, ps[0].from, ps[len(ps)-1].to)
}

// cmp converts [NOT] operand [comparison].
func (t *trees) cmp(c *cmpExpr) *plan.X {
	if c.built != nil {
		return c.built
	}
	x := t.predicate(c)
	if c.Not {
		x = t.mk(plan.X{Op: plan.OpUnary, Name: "not", Args: []*plan.X{x}}, c.Pos, c.EndPos)
	}
	c.built = x
	return x
}

// predicate converts an operand and its comparison or predicate, without a leading NOT.
func (t *trees) predicate(c *cmpExpr) *plan.X {
	left := t.arith(c.Left)
	r := c.RHS
	if r == nil {
		return left
	}
	from, to := c.Left.Pos, c.EndPos
	switch {
	case r.Right != nil:
		op := r.Op
		switch op {
		case "==":
			op = "="
		case "<>":
			op = "!="
		}
		return t.mk(plan.X{Op: plan.OpBinary, Name: op, Args: []*plan.X{left, t.arith(r.Right)}}, from, to)
	case r.Is != nil:
		return t.is(left, r.Is, from, to)
	case r.In != nil:
		args := []*plan.X{left}
		if q := r.In.Query; q != nil {
			args = append(args, t.mk(plan.X{Op: plan.OpOther, Name: "subquery"}, q.Pos, q.EndPos))
		}
		for _, it := range r.In.Items {
			args = append(args, t.expr(it))
		}
		return t.mk(plan.X{Op: plan.OpIn, Negated: r.Not, Args: args}, from, to)
	case r.Between != nil:
		args := []*plan.X{left, t.arith(r.Between.Low), t.arith(r.Between.High)}
		return t.mk(plan.X{Op: plan.OpBetween, Negated: r.Not, Args: args}, from, to)
	case r.Like != nil:
		x := t.like(left, r.Like, from, to)
		if r.Not {
			x = t.mk(plan.X{Op: plan.OpUnary, Name: "not", Args: []*plan.X{x}}, from, to)
		}
		return x
	}
	return left
}

// is converts IS [NOT] NULL|TRUE|FALSE|UNKNOWN and IS [NOT] DISTINCT FROM, which Spark
// reads as NOT (a <=> b) and a <=> b.
func (t *trees) is(left *plan.X, p *isPred, from, to pos) *plan.X {
	if p.Other != nil {
		x := t.mk(plan.X{Op: plan.OpBinary, Name: "<=>", Args: []*plan.X{left, t.arith(p.Other)}}, from, to)
		if !p.Not {
			x = t.mk(plan.X{Op: plan.OpUnary, Name: "not", Args: []*plan.X{x}}, from, to)
		}
		return x
	}
	name := "is"
	if p.Not {
		name += "not"
	}
	name += strings.ToLower(p.What)
	return t.mk(plan.X{Op: plan.OpUnary, Name: name, Args: []*plan.X{left}}, from, to)
}

// like converts LIKE, RLIKE (REGEXP), ILIKE, and their ANY/ALL/SOME forms.
func (t *trees) like(left *plan.X, l *likePred, from, to pos) *plan.X {
	name := strings.ToLower(l.Op)
	if name == "regexp" {
		name = "rlike"
	}
	args := []*plan.X{left, t.arith(l.Pattern)}
	if l.Quant != "" {
		q := strings.ToLower(l.Quant)
		if q == "some" {
			q = "any"
		}
		return t.mk(plan.X{Op: plan.OpOther, Name: name + " " + q, Args: args}, from, to)
	}
	return t.mk(plan.X{Op: plan.OpBinary, Name: name, Args: args}, from, to)
}

// precedence ranks the binary operators of an arithmetic chain as Spark's grammar does:
// * / % DIV over + - ||, over &, over ^, over |.
func precedence(op string) int {
	switch op {
	case "*", "/", "%", "div":
		return 5
	case "+", "-", "||":
		return 4
	case "&":
		return 3
	case "^":
		return 2
	}
	return 1
}

// arith converts an arithmetic chain into a tree with Spark's operator precedence, left
// associative, without recursion over the chain.
func (t *trees) arith(a *arith) *plan.X {
	if a == nil {
		return nil
	}
	if a.built != nil {
		return a.built
	}
	if len(a.Rest) == 0 {
		// one operand, as most are
		a.built = t.unary(a.Left)
		return a.built
	}
	vals := []part{{t.unary(a.Left), a.Left.Pos, a.Left.EndPos}}
	var ops []string
	reduce := func() {
		op := ops[len(ops)-1]
		ops = ops[:len(ops)-1]
		l, r := vals[len(vals)-2], vals[len(vals)-1]
		x := t.mk(plan.X{Op: plan.OpBinary, Name: op, Args: []*plan.X{l.x, r.x}}, l.from, r.to)
		vals = append(vals[:len(vals)-2], part{x, l.from, r.to})
	}
	for _, o := range a.Rest {
		op := strings.ToLower(o.Op)
		for len(ops) > 0 && precedence(ops[len(ops)-1]) >= precedence(op) {
			reduce()
		}
		ops = append(ops, op)
		vals = append(vals, part{t.unary(o.Right), o.Right.Pos, o.Right.EndPos})
	}
	for len(ops) > 0 {
		reduce()
	}
	a.built = vals[0].x
	return vals[0].x
}

// unary converts signs, an operand and its postfix casts, subscripts and fields. A minus
// sign directly before a number is part of the literal, as in Spark's grammar.
func (t *trees) unary(u *unary) *plan.X {
	signs := u.Sign
	p := u.Primary
	from := p.Pos
	var x *plan.X
	if n := len(signs); n > 0 && signs[n-1].Op == "-" && p.Number != "" {
		from = signs[n-1].Pos
		x = t.number(p.Number, true, from, p.EndPos)
		signs = signs[:n-1]
	} else {
		x = t.primary(p)
	}
	for _, pf := range u.Postfix {
		switch {
		case pf.Cast != nil:
			x = t.mk(plan.X{Op: plan.OpCast, Name: "cast", Type: plan.CanonicalType(pf.Cast.render()), Args: []*plan.X{x}}, from, pf.EndPos)
		case pf.Index != nil:
			x = t.mk(plan.X{Op: plan.OpOther, Name: "subscript", Args: []*plan.X{x, t.expr(pf.Index)}}, from, pf.EndPos)
		default:
			x = t.mk(plan.X{Op: plan.OpOther, Name: "field", Args: []*plan.X{x}}, from, pf.EndPos)
		}
	}
	for i := len(signs) - 1; i >= 0; i-- {
		x = t.mk(plan.X{Op: plan.OpUnary, Name: signs[i].Op, Args: []*plan.X{x}}, signs[i].Pos, u.EndPos)
	}
	return x
}

// primary converts an operand.
func (t *trees) primary(p *primary) *plan.X {
	from, to := p.Pos, p.EndPos
	other := func(name string) *plan.X { return t.mk(plan.X{Op: plan.OpOther, Name: name}, from, to) }
	switch {
	case p.Lambda != nil:
		return t.lambdaX(p.Lambda, from, to)
	case p.Cast != nil:
		x := plan.X{Op: plan.OpCast, Name: strings.ToLower(p.Cast.Fn), Type: plan.CanonicalType(p.Cast.Type.render())}
		x.Args = []*plan.X{t.expr(p.Cast.X)}
		return t.mk(x, from, to)
	case p.Case != nil:
		return t.caseX(p.Case, from, to)
	case p.Exists != nil:
		return other("exists")
	case p.Interval != nil:
		x := t.mk(plan.X{Op: plan.OpLiteral, Type: "interval"}, from, to)
		x.Value = strings.TrimSpace(x.Raw[min(len("interval"), len(x.Raw)):])
		return x
	case p.Typed != nil:
		return t.typed(p.Typed, from, to)
	case p.Sub != nil:
		return other("subquery")
	case len(p.Tuple) == 1:
		return t.expr(p.Tuple[0])
	case p.Tuple != nil:
		x := plan.X{Op: plan.OpOther, Name: "tuple"}
		for _, e := range p.Tuple {
			x.Args = append(x.Args, t.expr(e))
		}
		return t.mk(x, from, to)
	case p.Number != "":
		return t.number(p.Number, false, from, to)
	case p.Str != nil:
		var v strings.Builder
		for _, s := range p.Str {
			v.WriteString(unquoteString(s))
		}
		return t.mk(plan.X{Op: plan.OpLiteral, Type: "string", Value: v.String()}, from, to)
	case p.Star:
		return t.mk(plan.X{Op: plan.OpStar}, from, to)
	case p.Func != nil:
		return t.call(p.Func)
	case p.Column != nil:
		return t.column(p.Column, p.AllCols, from, to)
	}
	return other("param")
}

// typed converts DATE '…', TIMESTAMP '…', TIMESTAMP_NTZ '…', TIMESTAMP_LTZ '…' and X'…'.
func (t *trees) typed(words []string, from, to pos) *plan.X {
	typ := plan.CanonicalType(words[0])
	if typ == "x" {
		typ = "binary"
	}
	v := ""
	if len(words) > 1 {
		v = unquoteString(words[1])
	}
	return t.mk(plan.X{Op: plan.OpLiteral, Type: typ, Value: v}, from, to)
}

// column converts a name in an expression: a column, q.*, NULL, TRUE or FALSE, a lambda's
// parameter, or a template.
func (t *trees) column(q *qname, all bool, from, to pos) *plan.X {
	var one [1]string
	parts := q.partsIn(&one)
	if all {
		return t.mk(plan.X{Op: plan.OpStar, Qualifier: modelName(parts)}, from, to)
	}
	for _, raw := range q.Parts {
		if isTemplate(raw) {
			return t.mk(plan.X{Op: plan.OpOther, Name: "template"}, from, to)
		}
	}
	if q.Ident == nil && len(q.Parts) == 1 {
		switch w := strings.ToLower(q.Parts[0]); w {
		case "null":
			return t.mk(plan.X{Op: plan.OpLiteral, Type: "null"}, from, to)
		case "true", "false":
			return t.mk(plan.X{Op: plan.OpLiteral, Type: "boolean", Value: w}, from, to)
		}
		for _, v := range t.lambda {
			if v == parts[0] {
				return t.mk(plan.X{Op: plan.OpOther, Name: "lambdavar"}, from, to)
			}
		}
	}
	x := plan.X{Op: plan.OpColumn, Name: parts[len(parts)-1]}
	if len(parts) > 1 {
		x.Qualifier = modelName(parts[:len(parts)-1])
	}
	return t.mk(x, from, to)
}

// lambdaX converts x -> body or (x, y) -> body: Args are the parameters, then the body, in
// which the parameters are "lambdavar" nodes rather than columns.
func (t *trees) lambdaX(l *lambda, from, to pos) *plan.X {
	x := plan.X{Op: plan.OpOther, Name: "lambda"}
	n := len(t.lambda)
	for _, p := range l.Params {
		x.Args = append(x.Args, t.mk(plan.X{Op: plan.OpOther, Name: "lambdavar"}, p.Pos, p.EndPos))
		t.lambda = append(t.lambda, unquoteIdent(p.Name))
	}
	x.Args = append(x.Args, t.expr(l.Body))
	t.lambda = t.lambda[:n]
	return t.mk(x, from, to)
}

// caseX converts CASE [operand] WHEN … THEN … [ELSE …] END.
func (t *trees) caseX(c *caseExpr, from, to pos) *plan.X {
	x := plan.X{Op: plan.OpCase}
	if c.Subject != nil {
		x.Operand = true
		x.Args = append(x.Args, t.expr(c.Subject))
	}
	for _, w := range c.Whens {
		x.Args = append(x.Args, t.expr(w.When), t.expr(w.Then))
	}
	if c.Else != nil {
		x.Else = true
		x.Args = append(x.Args, t.expr(c.Else))
	}
	return t.mk(x, from, to)
}

// order converts a sort key of a window specification: an OpOrder node.
func (t *trees) order(o *sortItem) *plan.X {
	x := plan.X{Op: plan.OpOrder, Name: "asc", Args: []*plan.X{t.expr(o.Expr)}}
	if strings.EqualFold(o.Dir, "desc") {
		x.Name = "desc"
	}
	if o.Nulls != "" {
		x.Value = "nulls " + strings.ToLower(o.Nulls)
	}
	return t.mk(x, o.Pos, o.EndPos)
}

// call converts a function call with its FILTER and OVER clauses. A call whose arguments
// are not expressions is an OpOther named after the function.
func (t *trees) call(f *funcCall) *plan.X {
	if f.built != nil {
		return f.built
	}
	name, l := f.Name.plain(), f.List
	end := f.EndPos
	if f.Filter != nil || f.Over != nil {
		end = l.EndPos
	}
	var x *plan.X
	if len(l.Raw) > 0 {
		x = t.mk(plan.X{Op: plan.OpOther, Name: name}, f.Pos, end)
	} else {
		c := plan.X{Op: plan.OpCall, Name: name, Star: l.Star != nil, Distinct: strings.EqualFold(l.Quant, "distinct")}
		for _, a := range l.Args {
			c.Args = append(c.Args, t.expr(a))
		}
		x = t.mk(c, f.Pos, end)
	}
	if fl := f.Filter; fl != nil {
		if f.Over == nil {
			end = f.EndPos
		} else {
			end = fl.EndPos
		}
		x = t.mk(plan.X{Op: plan.OpOther, Name: "filter", Args: []*plan.X{x, t.expr(fl.Cond)}}, f.Pos, end)
	}
	if f.Over != nil {
		w := plan.X{Op: plan.OpOther, Name: "over", Args: []*plan.X{x}}
		if s := f.Over.Spec; s != nil {
			for _, e := range s.Partition {
				w.Args = append(w.Args, t.expr(e))
			}
			for _, o := range s.Order {
				w.Args = append(w.Args, t.order(o))
			}
		}
		x = t.mk(w, f.Pos, f.EndPos)
	}
	f.built = x
	return x
}

package simulate

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// bound returns a copy of the query's tree x whose column references are bound to the
// attributes of out they resolve to, as Spark's analyzer binds them: each carries its
// attribute's expression id and relation, its name and text stay as written. A column that
// resolves to none of out is left unbound (the engine then resolves it by name). The query's
// tree is not changed.
func bound(x *plan.X, out []attr) *plan.X {
	return mapColumns(x, func(c *plan.X) {
		a, ok := resolve(out, refOf(c))
		if !ok {
			return
		}
		if id := a.expr.Tree().Uncast(); id != nil && id.Op == plan.OpColumn {
			c.ID, c.Long = id.ID, id.Long
		}
		c.Relation = a.relation
	})
}

// refOf is the key reference of a column tree, placed in the relation name resolution
// gave it when it has one.
func refOf(c *plan.X) plan.ColumnRef {
	r, _ := columnOf(c)
	if c.Relation != "" {
		r.Relation = c.Relation
	}
	return r
}

// unqualified is a copy of x with the qualifier of relation rel (and any database before it)
// removed from its columns, text included, as Spark prints attributes by name:
// "a.status <> 'CLOSED'" on relation a is "status <> 'CLOSED'".
func unqualified(x *plan.X, rel string) *plan.X {
	return mapColumns(x, func(c *plan.X) {
		if c.Qualifier == "" || lastPart(c.Qualifier) != rel {
			return
		}
		c.Qualifier = ""
		if tail := c.Raw[max(len(c.Raw)-len(c.Name), 0):]; strings.EqualFold(tail, c.Name) {
			c.Raw = tail
			return
		}
		c.Raw = c.Name
	})
}

// mapColumns returns a copy of x in which f has changed each column reference (f gets the
// copy). When f changes a column's text, every node above it gets its text rewritten to
// match (plan.X.Rewrite).
func mapColumns(x *plan.X, f func(*plan.X)) *plan.X {
	changed := map[*plan.X]string{}
	var cp func(o *plan.X) *plan.X
	cp = func(o *plan.X) *plan.X {
		if o == nil {
			return nil
		}
		n := *o
		if o.Op == plan.OpColumn {
			f(&n)
			if n.Raw != o.Raw {
				changed[o] = n.Raw
			}
		}
		if len(o.Args) > 0 {
			n.Args = make([]*plan.X, len(o.Args))
			for i, a := range o.Args {
				n.Args[i] = cp(a)
			}
		}
		return &n
	}
	out := cp(x)
	if len(changed) == 0 {
		return out
	}
	text := func(n *plan.X) (string, bool) {
		s, ok := changed[n]
		return s, ok
	}
	var fix func(o, n *plan.X)
	fix = func(o, n *plan.X) {
		if o == nil || o.Op == plan.OpColumn {
			return
		}
		n.Raw = o.Rewrite(text)
		for i := range o.Args {
			fix(o.Args[i], n.Args[i])
		}
	}
	fix(x, out)
	return out
}

// andOf is the conjunction of xs as Spark prints a combined condition, "a AND b AND c", a
// left-deep tree of "and" nodes; nil for none.
func andOf(xs []*plan.X) *plan.X {
	if len(xs) == 0 {
		return nil
	}
	c := xs[0]
	for _, x := range xs[1:] {
		c = &plan.X{Op: plan.OpBinary, Name: "and", Args: []*plan.X{c, x}, Raw: c.Raw + " AND " + x.Raw}
	}
	return c
}

// boundAnd is the conjunction of xs, each bound to the attributes of out.
func boundAnd(xs []*plan.X, out []attr) *plan.X {
	bx := make([]*plan.X, len(xs))
	for i, x := range xs {
		bx[i] = bound(x, out)
	}
	return andOf(bx)
}

// condition is an expression the simulator prints as the query wrote it: its text and its
// tree.
func condition(x *plan.X) plan.Expr {
	return plan.NewExpr(x.Raw, x.Raw, nil, x)
}

// conditions are the expressions of trees.
func conditions(xs []*plan.X) []plan.Expr {
	if len(xs) == 0 {
		return nil
	}
	out := make([]plan.Expr, len(xs))
	for i, x := range xs {
		out[i] = condition(x)
	}
	return out
}

package simulate

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// relation plans one relation of the query tree into physical operators (SparkPlanner's
// strategies over the optimised logical plan, Spark 3.0–4.x).
func (s *sim) relation(r *plan.Relation, hints []plan.Hint) (*node, error) {
	switch r.Kind {
	case plan.TableRel:
		name := strings.ToLower(r.Table)
		if cte := s.ctes[name]; cte != nil && !s.expanding[name] {
			// Spark inlines non-recursive CTEs (InlineCTE) before planning. Inside its own
			// definition the name refers to the table, not the CTE.
			s.expanding[name] = true
			n, err := s.relation(cte, nil)
			delete(s.expanding, name)
			if err != nil {
				return nil, err
			}
			n = s.requalify(n, r.Name())
			if len(r.ColumnAliases) > 0 {
				return s.renameColumns(n, r.ColumnAliases), nil
			}
			return s.renameColumns(n, s.cteColumns[name]), nil
		}
		return s.scan(r), nil
	case plan.JoinRel:
		return s.joinRel(r.Join, hints)
	case plan.SelectRel:
		n, err := s.selectBlock(r.Select)
		if err != nil {
			return nil, err
		}
		if r.Alias != "" {
			n = s.requalify(n, r.Alias)
		}
		return s.renameColumns(n, r.ColumnAliases), nil
	case plan.SetRel:
		return s.setOp(r)
	}
	s.note("relation %q is not modelled (%s); treated as an unbucketed input of unknown size", r.Text, r.Kind)
	g := &plan.Generic{OpInfo: info("Scan")}
	g.Args = r.Text
	return newNode(g, nil, -1), nil
}

// requalify gives a subquery's output columns the subquery's alias, as SubqueryAlias does.
func (s *sim) requalify(n *node, alias string) *node {
	out := make([]attr, len(n.out))
	for i, a := range n.out {
		a.relation = alias
		out[i] = a
	}
	c := *n
	c.out = out
	c.rel = alias
	return &c
}

// renameColumns gives a relation's output columns the names of a column alias list ("AS
// x (a, b)", a CTE's or a view's column list), in order, as the Project of Aliases Spark puts
// under the SubqueryAlias does; an aliased column keeps its partitioning
// (AliasAwareOutputPartitioning). Without names the node is returned as it is.
func (s *sim) renameColumns(n *node, names []string) *node {
	if len(names) == 0 {
		return n
	}
	out := make([]attr, len(n.out))
	for i, a := range n.out {
		if i < len(names) && names[i] != "" && !strings.EqualFold(a.name, names[i]) {
			a.expr = renamed(a.expr, strings.ToLower(names[i]))
			a.name = strings.ToLower(names[i])
		}
		out[i] = a
	}
	c := *n
	c.out = out
	return &c
}

// resolve finds the column a key refers to among a node's output.
func resolve(out []attr, ref plan.ColumnRef) (attr, bool) {
	col := strings.ToLower(ref.Column)
	if col == "" {
		return attr{}, false
	}
	for _, q := range []string{strings.ToLower(ref.Relation), strings.ToLower(ref.Qualifier)} {
		if q == "" {
			continue
		}
		known := false
		for _, a := range out {
			if a.relation == q && a.name == col {
				return a, true
			}
			known = known || a.relation == q
		}
		if known {
			// The qualifier names a relation in scope that has no such column.
			return attr{}, false
		}
	}
	for _, a := range out {
		if a.name == col {
			return a, true
		}
	}
	return attr{}, false
}

// keyExpr resolves a key, applying its explicit cast.
func (s *sim) keyExpr(out []attr, ref plan.ColumnRef) (attr, bool) {
	a, ok := resolve(out, ref)
	if !ok {
		return attr{}, false
	}
	if ref.Cast != "" && ref.Cast != a.typ {
		a.expr = castExpr(a.expr, ref.Cast)
		a.typ = ref.Cast
	}
	return a, true
}

func (s *sim) keys(n *node, refs []plan.ColumnRef, what string) []plan.Expr {
	var out []plan.Expr
	for _, r := range refs {
		a, ok := s.keyExpr(n.out, r)
		if !ok {
			s.note("%s key %q could not be resolved to a column; left out", what, r.Text)
			continue
		}
		out = append(out, a.expr)
	}
	return out
}

// rowSize is EstimationUtils.getSizePerRow: 8 bytes plus each column's default size.
func rowSize(out []attr) int64 {
	n := int64(8)
	for _, a := range out {
		n += defaultSize(a.typ)
	}
	return n
}

// scaled is SizeInBytesOnlyStatsPlanVisitor.visitUnaryNode: the child's size scaled by the
// ratio of output to input row sizes.
func scaled(size int64, in, out []attr) int64 {
	if size < 0 {
		return -1
	}
	r := size / rowSize(in) * rowSize(out)
	if r <= 0 {
		r = 1
	}
	return r
}

// projectNode adds ProjectExec when the output differs from the child's. defs[i], when set,
// is the expression computing out[i] (see selectItems).
func projectNode(child *node, out []attr, defs []*plan.X) *node {
	if len(out) == len(child.out) {
		same := true
		for i := range out {
			if !sameExpr(out[i].expr, child.out[i].expr) || out[i].name != child.out[i].name {
				same = false
				break
			}
		}
		if same {
			return child
		}
	}
	p := &plan.ProjectExec{OpInfo: info("Project")}
	for i, a := range out {
		e := a.expr
		switch {
		case i < len(defs) && defs[i] != nil:
			e = computedExpr(e, defs[i])
		case e.Text() != a.name:
			e = aliasExpr(e, a.name)
		}
		p.Exprs = append(p.Exprs, e)
	}
	n := newNode(p, out, scaled(child.size, child.out, out), child)
	n.rel = child.rel
	return n
}

// filterNode adds FilterExec with the condition cond.
func filterNode(child *node, cond *plan.X) *node {
	f := &plan.Filter{OpInfo: info("Filter"), Condition: condition(cond)}
	n := newNode(f, child.out, child.size, child)
	n.rel = child.rel
	return n
}

// aliasExpr is e shown under name, as Spark's Alias prints: "x#3 AS y".
func aliasExpr(e plan.Expr, name string) plan.Expr {
	raw := e.Raw + " AS " + name
	var x *plan.X
	if ex := e.Tree(); ex != nil {
		x = &plan.X{Op: plan.OpAlias, Name: strings.ToLower(name), Args: []*plan.X{ex}, Raw: raw}
	}
	return plan.NewExpr(raw, e.Text()+" AS "+name, e.Refs(), x)
}

// computedExpr is the attribute e that a projection computes as def. It prints as the
// attribute ("total#7"); its tree is the alias of def that defines it.
func computedExpr(e plan.Expr, def *plan.X) plan.Expr {
	x := &plan.X{Op: plan.OpAlias, Args: []*plan.X{def}, Raw: e.Raw}
	if c := e.Tree(); c != nil {
		x.Name, x.ID, x.Long = c.Name, c.ID, c.Long
	}
	return e.WithX(x)
}

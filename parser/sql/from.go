package sql

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// from converts a FROM clause that is a relation of another (a nested FROM): LATERAL VIEWs
// not under a PIVOT make it a SELECT * block with those generators.
func (b *queryBuilder) from(f *fromClause) *plan.Relation {
	rel, gens := b.fromClause(f)
	if len(gens) == 0 {
		return rel
	}
	sel := &plan.Select{Span: rel.Span, From: rel, Generators: gens, Items: []string{"*"}, ItemsX: []*plan.X{{Op: plan.OpStar, Raw: "*"}}, ItemAliases: []string{""}}
	return &plan.Relation{Kind: plan.SelectRel, Span: rel.Span, Text: rel.Text, Select: sel}
}

// fromClause converts a FROM clause into a left-deep tree: each JOIN nests the relation so
// far on its left, and each comma is an inner join without an ON condition; a PIVOT makes
// the tree its input. It returns the LATERAL VIEWs left to apply, those of a clause without
// PIVOT.
func (b *queryBuilder) fromClause(f *fromClause) (*plan.Relation, []plan.Generator) {
	rel := b.joins(f)
	return b.pivoted(rel, b.generators(f.Lateral), f.pivot)
}

// joins converts the relations of a FROM clause and their joins.
func (b *queryBuilder) joins(f *fromClause) *plan.Relation {
	rel := b.chain(f.First)
	for _, ch := range f.More {
		right := b.chain(ch)
		rel = &plan.Relation{
			Kind: plan.JoinRel,
			Span: plan.Span{Start: rel.Span.Start, End: right.Span.End},
			Join: &plan.JoinSpec{Type: "Inner", Comma: true, Left: rel, Right: right},
		}
	}
	return rel
}

func (b *queryBuilder) chain(ch *joinChain) *plan.Relation {
	rel := b.factor(ch.Left)
	for _, jp := range ch.Joins {
		right := b.factor(jp.Right)
		j := &plan.JoinSpec{Type: joinType(jp.Type), Natural: jp.Natural, Left: rel, Right: right, Span: b.st.span(b.c, jp.Pos, jp.EndPos)}
		for _, u := range jp.Using {
			j.Using = append(j.Using, unquoteIdent(u.Name))
		}
		if jp.On != nil {
			j.Condition = text(b.c, jp.On.Pos, jp.On.EndPos)
			j.ConditionX = b.t.expr(jp.On)
			b.onKeys(j, jp.On)
		}
		rel = &plan.Relation{Kind: plan.JoinRel, Span: plan.Span{Start: rel.Span.Start, End: right.Span.End}, Join: j}
	}
	return rel
}

// joinType maps the written join type to Spark's JoinType name.
func joinType(words []string) string {
	w := strings.ToUpper(strings.Join(words, " "))
	switch w {
	case "", "INNER":
		return "Inner"
	case "CROSS":
		return "Cross"
	case "LEFT", "LEFT OUTER":
		return "LeftOuter"
	case "RIGHT", "RIGHT OUTER":
		return "RightOuter"
	case "FULL", "FULL OUTER":
		return "FullOuter"
	case "LEFT SEMI", "SEMI":
		return "LeftSemi"
	case "LEFT ANTI", "ANTI":
		return "LeftAnti"
	}
	return w
}

// factor converts one FROM item.
func (b *queryBuilder) factor(t *tableFactor) *plan.Relation {
	span, txt := b.st.span(b.c, t.Pos, t.EndPos), text(b.c, t.Pos, t.EndPos)
	var r *plan.Relation
	switch {
	case t.Sub != nil:
		r = b.stmt(t.Sub)
		r.Span, r.Text = span, txt
	case t.Nested != nil:
		r = b.from(t.Nested)
	case t.Name != nil:
		r = b.tableRel(t.Name, span, txt)
	default:
		r = &plan.Relation{Kind: plan.OtherRel, Span: span, Text: txt}
	}
	switch {
	case t.As != "":
		r.Alias = plan.QuoteNamePart(unquoteIdent(t.As))
	case t.Alias != nil:
		r.Alias = plan.QuoteNamePart(unquoteIdent(string(*t.Alias)))
	}
	for _, c := range t.ColAlias {
		r.ColumnAliases = append(r.ColumnAliases, unquoteIdent(c.Name))
	}
	if len(t.pivot) > 0 {
		r, _ = b.pivoted(r, nil, t.pivot)
	}
	return r
}

// onKeys splits an ON condition into equi-join keys, oriented to the join's sides, and the
// residual conjuncts.
func (b *queryBuilder) onKeys(j *plan.JoinSpec, on *expr) {
	left, right := newScope(j.Left), newScope(j.Right)
	both := newScope(&plan.Relation{Kind: plan.JoinRel, Join: j})
	for _, cj := range conjuncts(on) {
		l, r, ok := equality(cj)
		if ok {
			lk, rk := b.arithKey(l, both), b.arithKey(r, both)
			if lk.IsColumn() && rk.IsColumn() {
				switch {
				case left.has(lk) && right.has(rk):
					j.LeftKeys, j.RightKeys = append(j.LeftKeys, lk), append(j.RightKeys, rk)
					continue
				case left.has(rk) && right.has(lk):
					j.LeftKeys, j.RightKeys = append(j.LeftKeys, rk), append(j.RightKeys, lk)
					continue
				case lk.Relation == "" || rk.Relation == "":
					// Unplaced columns: keep the written order; name resolution (workload.Resolve) orients them.
					j.LeftKeys, j.RightKeys = append(j.LeftKeys, lk), append(j.RightKeys, rk)
					continue
				}
			}
		}
		j.Residual = append(j.Residual, text(b.c, cj.Pos, cj.EndPos))
		j.ResidualX = append(j.ResidualX, b.t.cmp(cj))
	}
}

// commaKeys gives comma joins the WHERE equalities between their two sides as keys, as
// Spark's optimizer turns such a filter over a cross product into an inner equi-join.
func (b *queryBuilder) commaKeys(rel *plan.Relation, where *expr, sc *scope) {
	if rel == nil || rel.Kind != plan.JoinRel {
		return
	}
	b.commaKeys(rel.Join.Left, where, sc)
	b.commaKeys(rel.Join.Right, where, sc)
	if !rel.Join.Comma {
		return
	}
	left, right := newScope(rel.Join.Left), newScope(rel.Join.Right)
	for _, cj := range conjuncts(where) {
		l, r, ok := equality(cj)
		if !ok {
			continue
		}
		lk, rk := b.arithKey(l, sc), b.arithKey(r, sc)
		switch {
		case !lk.IsColumn() || !rk.IsColumn():
		case left.has(lk) && right.has(rk):
			rel.Join.LeftKeys, rel.Join.RightKeys = append(rel.Join.LeftKeys, lk), append(rel.Join.RightKeys, rk)
		case left.has(rk) && right.has(lk):
			rel.Join.LeftKeys, rel.Join.RightKeys = append(rel.Join.LeftKeys, rk), append(rel.Join.RightKeys, lk)
		}
	}
}

// equalities returns the WHERE conjuncts equating two columns.
func (b *queryBuilder) equalities(where *expr, sc *scope) []plan.ColumnPair {
	var out []plan.ColumnPair
	for _, cj := range conjuncts(where) {
		if l, r, ok := equality(cj); ok {
			lk, rk := b.arithKey(l, sc), b.arithKey(r, sc)
			if lk.IsColumn() && rk.IsColumn() {
				out = append(out, plan.ColumnPair{Left: lk, Right: rk})
			}
		}
	}
	return out
}

// conjuncts returns the top-level AND terms of e.
func conjuncts(e *expr) []*cmpExpr {
	var out []*cmpExpr
	if e == nil || len(e.Or) != 1 {
		return out
	}
	for _, n := range e.Or[0].And {
		if n.Not {
			continue
		}
		if inner := parenExpr(n); inner != nil {
			out = append(out, conjuncts(inner)...)
			continue
		}
		out = append(out, n)
	}
	return out
}

// parenExpr returns the expression inside a parenthesised comparison operand "(…)", nil
// when c is anything else.
func parenExpr(c *cmpExpr) *expr {
	if c.RHS != nil || len(c.Left.Rest) != 0 {
		return nil
	}
	u := c.Left.Left
	if len(u.Sign) != 0 || len(u.Postfix) != 0 || len(u.Primary.Tuple) != 1 {
		return nil
	}
	return u.Primary.Tuple[0]
}

// equality returns the operands of an equality (=, ==, <=>).
func equality(c *cmpExpr) (l, r *arith, ok bool) {
	if c.RHS == nil || c.RHS.Right == nil {
		return nil, nil, false
	}
	switch c.RHS.Op {
	case "=", "==", "<=>":
		return c.Left, c.RHS.Right, true
	}
	return nil, nil, false
}

package sql

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// LATERAL VIEW and PIVOT as the plan has them (SqlBaseParser.g4's lateralView and
// pivotClause, the analyzer's Generate and ResolvePivot): a LATERAL VIEW is a Generator of
// the SELECT block whose FROM it follows; a PIVOT is a SELECT block of its own over the
// relation before it (with that relation's LATERAL VIEWs), aggregating by the input's other
// columns, which name resolution finds. UNPIVOT keeps the relation before it (its column
// changes are not modelled).

// generators converts the LATERAL VIEWs of a FROM clause.
func (b *queryBuilder) generators(vs []*lateralView) []plan.Generator {
	if len(vs) == 0 {
		return nil
	}
	out := make([]plan.Generator, 0, len(vs))
	for _, v := range vs {
		g := plan.Generator{X: b.t.call(v.Func), Function: strings.ToLower(v.Func.Name.plain()), Outer: v.Outer, Span: b.st.span(b.c, v.Pos, v.EndPos)}
		if v.Table != "" {
			g.Alias = plan.QuoteNamePart(unquoteIdent(v.Table))
		}
		for _, c := range v.Cols {
			g.Columns = append(g.Columns, strings.ToLower(unquoteIdent(c.Name)))
		}
		out = append(out, g)
	}
	return out
}

// pivoted applies the PIVOT clauses cs to rel, whose LATERAL VIEWs gens go into the first
// PIVOT's block; it returns the relation and the generators still to apply (all of them when
// no PIVOT applies).
func (b *queryBuilder) pivoted(rel *plan.Relation, gens []plan.Generator, cs []*pivotClause) (*plan.Relation, []plan.Generator) {
	for _, c := range cs {
		if c.Unpivot {
			continue
		}
		rel = b.pivot(rel, gens, c)
		gens = nil
	}
	return rel, gens
}

// pivot is one PIVOT clause over rel: a SELECT block whose items are the aggregates.
func (b *queryBuilder) pivot(rel *plan.Relation, gens []plan.Generator, c *pivotClause) *plan.Relation {
	span := plan.Span{Start: rel.Span.Start, End: b.st.span(b.c, c.Pos, c.EndPos).End}
	sel := &plan.Select{Span: span, From: rel, Generators: gens, Aggregate: true, Pivot: &plan.Pivot{}}
	sc := newScope(rel)
	for _, g := range gens {
		sc.rels = append(sc.rels, &plan.Relation{Kind: plan.OtherRel, Alias: g.Alias})
	}
	for _, it := range c.Aggs {
		sel.Items = append(sel.Items, text(b.c, it.Pos, it.EndPos))
		sel.ItemsX = append(sel.ItemsX, b.t.expr(it.Expr))
		sel.ItemAliases = append(sel.ItemAliases, it.alias())
	}
	for _, id := range c.For {
		name := strings.ToLower(unquoteIdent(id.Name))
		from, end := pos{Offset: id.Pos.Offset}, pos{Offset: id.Pos.Offset + len(id.Name)}
		k := b.column([]string{name}, sc)
		k.Text, k.Pos = text(b.c, from, end), b.st.at(b.c, from)
		k.X = b.t.mk(plan.X{Op: plan.OpColumn, Name: name}, from, end)
		sel.Pivot.Columns = append(sel.Pivot.Columns, k)
	}
	var values []string
	for _, v := range c.Values {
		sel.Pivot.Values = append(sel.Pivot.Values, text(b.c, v.Pos, v.EndPos))
		values = append(values, b.valueName(v))
	}
	// ResolvePivot's outputName: the value, then the aggregate after "_" when there are
	// several, for each value, each aggregate.
	for _, v := range values {
		for i := range sel.Items {
			if len(sel.Items) == 1 {
				sel.Pivot.Names = append(sel.Pivot.Names, v)
				continue
			}
			agg := sel.ItemAliases[i]
			if agg == "" {
				agg = strings.ToLower(text(b.c, c.Aggs[i].Pos, c.Aggs[i].EndPos))
			}
			sel.Pivot.Names = append(sel.Pivot.Names, v+"_"+strings.ToLower(agg))
		}
	}
	out := &plan.Relation{Kind: plan.SelectRel, Span: span, Text: text(b.c, c.Pos, c.EndPos), Select: sel}
	switch a := &c.alias; {
	case a.As != "":
		out.Alias = plan.QuoteNamePart(unquoteIdent(a.As))
	case a.Alias != nil:
		out.Alias = plan.QuoteNamePart(unquoteIdent(string(*a.Alias)))
	}
	for _, col := range c.alias.ColAlias {
		out.ColumnAliases = append(out.ColumnAliases, unquoteIdent(col.Name))
	}
	return out
}

// valueName is the name a PIVOT value gives its columns: its alias, else the literal as a
// string (Spark casts the value to a string), else its text.
func (b *queryBuilder) valueName(v *selectItem) string {
	if a := v.alias(); a != "" {
		return strings.ToLower(a)
	}
	x := b.t.expr(v.Expr)
	switch {
	case x != nil && x.Op == plan.OpLiteral && x.Type == "null":
		return "null"
	case x != nil && x.Op == plan.OpLiteral && x.Value != "":
		return strings.ToLower(x.Value)
	}
	return strings.ToLower(text(b.c, v.Pos, v.EndPos))
}

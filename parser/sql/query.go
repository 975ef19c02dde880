package sql

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// A queryBuilder turns one statement's query grammar into a plan.Query.
type queryBuilder struct {
	st *state
	c  chunk
	q  *plan.Query
	// ctes are the names of the statement's CTEs, made at the first one.
	ctes map[string]bool
	t    *trees
	// trees is the memory of t, allocated with the builder.
	trees trees
}

// buildQuery converts a query statement (with its WITH and INSERT parts).
func (st *state) buildQuery(ast *queryStmt, c chunk) *plan.Query {
	q := &plan.Query{
		Span: plan.Span{Start: st.lines.pos(c.offset + leadingSpace(c.text)), End: st.lines.pos(c.offset + len(strings.TrimRight(c.text, " \t\r\n")))},
		Text: strings.TrimSpace(c.text),
	}
	q.Weight = weightOf(c.raw)
	b := &queryBuilder{st: st, c: c, q: q, trees: trees{st: st, c: c}}
	b.t = &b.trees
	if ast.Insert != nil {
		q.Target, q.Overwrite = st.name(ast.Insert.Table), ast.Insert.Overwrite
		q.Hints = b.hints(ast.Insert.Hints, ast.Pos.Offset)
	}
	q.Root = b.stmt(ast)
	return q
}

// stmt converts a (possibly nested) query statement, registering its CTEs.
func (b *queryBuilder) stmt(s *queryStmt) *plan.Relation {
	for _, w := range s.With {
		name := unquoteIdent(w.Name)
		def := &plan.CTE{Name: plan.QuoteNamePart(name), Span: b.st.span(b.c, w.Pos, w.EndPos)}
		for _, c := range w.Cols {
			def.Columns = append(def.Columns, unquoteIdent(c.Name))
		}
		def.Root = b.stmt(w.Query)
		if b.ctes == nil {
			b.ctes = map[string]bool{}
		}
		b.ctes[name] = true
		b.q.CTEs = append(b.q.CTEs, def)
	}
	return b.set(s.Body)
}

func (b *queryBuilder) set(s *setExpr) *plan.Relation {
	left := b.term(s.Left)
	if len(s.Ops) == 0 {
		return left
	}
	r := &plan.Relation{Kind: plan.SetRel, Span: b.st.span(b.c, s.Pos, s.EndPos), Text: text(b.c, s.Pos, s.EndPos), Inputs: []*plan.Relation{left}}
	op := strings.ToUpper(s.Ops[0].Op)
	if s.Ops[0].Quant != "" {
		op += " " + strings.ToUpper(s.Ops[0].Quant)
	}
	r.SetOp = op
	for _, o := range s.Ops {
		r.Inputs = append(r.Inputs, b.term(o.Right))
	}
	return r
}

func (b *queryBuilder) term(t *queryTerm) *plan.Relation {
	switch {
	case t.Select != nil:
		return &plan.Relation{Kind: plan.SelectRel, Span: b.st.span(b.c, t.Pos, t.EndPos), Text: text(b.c, t.Pos, t.EndPos), Select: b.selectBlock(t.Select)}
	case t.Paren != nil:
		return b.stmt(t.Paren)
	case t.Table != nil:
		return b.tableRel(t.Table, b.st.span(b.c, t.Pos, t.EndPos), text(b.c, t.Pos, t.EndPos))
	}
	return &plan.Relation{Kind: plan.OtherRel, Span: b.st.span(b.c, t.Pos, t.EndPos), Text: text(b.c, t.Pos, t.EndPos)}
}

// tableRel is a scan of a table or of a CTE of the statement.
func (b *queryBuilder) tableRel(q *qname, span plan.Span, txt string) *plan.Relation {
	r := &plan.Relation{Kind: plan.TableRel, Span: span, Text: txt, NameSpan: b.st.span(b.c, q.Pos, q.EndPos)}
	var one [1]string
	parts := q.partsIn(&one)
	if len(parts) == 1 && b.ctes[parts[0]] {
		r.Table, r.CTE = plan.QuoteNamePart(parts[0]), true
		return r
	}
	r.Table = b.st.name(q)
	return r
}

// selectBlock converts one SELECT block.
func (b *queryBuilder) selectBlock(s *selectBlock) *plan.Select {
	out := &plan.Select{Span: b.st.span(b.c, s.Pos, s.EndPos), Distinct: strings.EqualFold(s.Quant, "distinct")}
	// The block's grammar starts with the SELECT keyword, six bytes.
	out.HintAt = b.st.span(b.c, s.Pos, pos{Offset: s.Pos.Offset + len("select")}).End
	out.Hints = b.hints(s.Hints, s.Pos.Offset)
	if n := len(s.Items); n > 0 {
		// the texts and the aliases share one array, each its half (capped: an append past
		// it copies)
		texts := make([]string, 2*(n+1))
		out.Items, out.ItemsX, out.ItemAliases = texts[:0:n+1], make([]*plan.X, 0, n+1), texts[n+1:n+1]
	}
	if s.pipeStar {
		out.Items, out.ItemsX, out.ItemAliases = append(out.Items, "*"), append(out.ItemsX, &plan.X{Op: plan.OpStar, Raw: "*"}), append(out.ItemAliases, "")
	}
	for _, it := range s.Items {
		out.Items = append(out.Items, text(b.c, it.Pos, it.EndPos))
		out.ItemsX = append(out.ItemsX, b.t.expr(it.Expr))
		out.ItemAliases = append(out.ItemAliases, it.alias())
	}
	var sc *scope
	if s.From != nil {
		out.From, out.Generators = b.fromClause(s.From)
		sc = newScope(out.From)
		for _, g := range out.Generators {
			// The generator's columns are in scope: an unqualified name is no longer the
			// only relation's.
			sc.rels = append(sc.rels, &plan.Relation{Kind: plan.OtherRel, Alias: g.Alias})
		}
	} else {
		sc = &scope{}
	}
	if s.Where != nil {
		out.Where = text(b.c, s.Where.Pos, s.Where.EndPos)
		out.WhereX = b.t.expr(s.Where)
		out.Filters = b.filters(s.Where, sc)
		out.Equalities = b.equalities(s.Where, sc)
		b.commaKeys(out.From, s.Where, sc)
	}
	if s.GroupBy != nil {
		out.Aggregate = true
		for _, e := range s.GroupBy.Items {
			out.GroupBy = append(out.GroupBy, b.key(e, sc))
		}
	}
	if s.Having != nil {
		out.Having = text(b.c, s.Having.Pos, s.Having.EndPos)
		out.HavingX = b.t.expr(s.Having)
	}
	b.windows(out, s, sc)
	for _, e := range s.ClusterBy {
		k := b.key(e, sc)
		out.DistributeBy = append(out.DistributeBy, k)
		out.SortBy = append(out.SortBy, k)
	}
	for _, e := range s.DistributeBy {
		out.DistributeBy = append(out.DistributeBy, b.key(e, sc))
	}
	out.SortBy = append(out.SortBy, b.sortKeys(s.SortBy, sc)...)
	out.OrderBy = b.sortKeys(s.OrderBy, sc)
	if s.Limit != nil {
		out.Limit = text(b.c, s.Limit.Pos, s.Limit.EndPos)
	}
	if out.Distinct {
		out.Aggregate = true
	}
	return out
}

func (b *queryBuilder) sortKeys(items []*sortItem, sc *scope) []plan.ColumnRef {
	var out []plan.ColumnRef
	for _, it := range items {
		k := b.key(it.Expr, sc)
		k.Desc = strings.EqualFold(it.Dir, "desc")
		k.Nulls = strings.ToUpper(it.Nulls)
		out = append(out, k)
	}
	return out
}

// alias returns the item's alias, lower case and unquoted; "" when none is given. The
// several names of AS (a, b), which name a generator's columns, are joined by commas.
func (it *selectItem) alias() string {
	if it.Alias != nil {
		return unquoteIdent(string(*it.Alias))
	}
	names := make([]string, len(it.As))
	for i, a := range it.As {
		names[i] = unquoteIdent(a)
	}
	return strings.Join(names, ",")
}

package simulate

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// selectBlock plans one SELECT: FROM (scans and joins), WHERE, aggregation (Aggregation
// strategy: a partial and a final HashAggregateExec), windows (WindowExec), DISTRIBUTE BY
// (RepartitionByExpression), SORT BY and ORDER BY, and the select list.
func (s *sim) selectBlock(sel *plan.Select) (*node, error) {
	s.depth++
	defer func() { s.depth-- }()
	if sel.Pivot != nil {
		return s.pivotBlock(sel)
	}
	saved, savedWhere := s.filters, s.where
	s.filters, s.where = sel.Filters, nil
	var n *node
	var err error
	var above []*plan.X
	var inferred []plan.KeyFilter
	if sel.From == nil {
		lt := &plan.LocalTableScan{OpInfo: info("LocalTableScan")}
		n = newNode(lt, nil, 8)
	} else {
		from := sel.From
		conjuncts := sel.WhereX.Conjuncts()
		if len(conjuncts) > 0 && from.Kind == plan.JoinRel {
			// WHERE equalities between joined relations become join keys.
			from, conjuncts = s.pushEqualities(from, conjuncts)
			from, conjuncts = s.pushPlaced(from, conjuncts)
			from = s.eliminateOuter(from, nullRejecting(sel.Filters))
			// Filters inferred through the join keys prune the other side's buckets too.
			inferred = s.inferredFilters(from, sel.Filters)
			s.filters = append(append([]plan.KeyFilter(nil), sel.Filters...), inferred...)
		}
		// Conjuncts on one relation go to its scan, the rest stay above the joins.
		s.where, above = s.placeWhere(from, conjuncts)
		s.where = withInferred(s.where, inferred)
		if from.Kind == plan.JoinRel {
			s.where = s.inferredDisjunctions(from, s.where)
		}
		n, err = s.relation(from, sel.Hints)
	}
	s.filters, s.where = saved, savedWhere
	if err != nil {
		return nil, err
	}
	n = s.generate(n, sel.Generators)
	if hasSubquery(sel.WhereX) {
		s.note("a subquery in WHERE (%s) is planned by Spark as a semi or anti join or a subquery expression (RewritePredicateSubquery); its shuffles are not modelled", sel.Where)
	}
	if len(above) > 0 {
		n = filterNode(n, boundAnd(above, n.out))
	}
	for _, h := range sel.Hints {
		switch h.Name {
		case "BROADCAST", "BROADCASTJOIN", "MAPJOIN", "MERGE", "SHUFFLE_MERGE", "MERGEJOIN", "SHUFFLE_HASH", "SHUFFLE_REPLICATE_NL",
			"REPARTITION", "REPARTITION_BY_RANGE", "REBALANCE", "COALESCE":
		default:
			s.note("hint %s is not modelled", h.Name)
		}
	}
	items, pos, defs := s.selectItems(sel, n)
	switch {
	case sel.Distinct && len(sel.GroupBy) == 0 && len(aggregateCalls(sel.ItemsX)) == 0:
		n = projectNode(n, items, defs)
		n = s.aggregate(n, exprsOf(items), items, &plan.Select{})
	case sel.Aggregate || len(sel.GroupBy) > 0:
		keys := []plan.Expr(nil)
		if ex, k, ok := s.groupingSets(n, sel.GroupBy); ok {
			n, keys = ex, k
		} else {
			keys = s.groupKeys(n, sel.GroupBy, items)
		}
		n = s.aggregate(n, keys, items, sel)
		if sel.HavingX != nil {
			n = filterNode(n, bound(sel.HavingX, n.out))
		}
	}
	if len(sel.Windows) > 0 {
		n = s.windows(n, sel.Windows, items, pos)
	}
	if !sel.Aggregate && len(sel.GroupBy) == 0 && !sel.Distinct {
		n = projectNode(n, items, defs)
	}
	n = s.partitionHints(n, sel.Hints)
	if len(sel.DistributeBy) > 0 {
		keys := s.keys(n, sel.DistributeBy, "DISTRIBUTE BY")
		ex := &plan.Exchange{
			OpInfo: info("Exchange"), Origin: "REPARTITION_BY_COL",
			Partitioning: plan.Partitioning{Kind: plan.HashPartitioning, Keys: keys, NumPartitions: s.opt.NewShufflePartitions()},
		}
		n = newNode(ex, n.out, n.size, n)
	}
	if len(sel.SortBy) > 0 {
		st := &plan.Sort{OpInfo: info("Sort"), Orders: s.orders(n, sel.SortBy)}
		n = newNode(st, n.out, n.size, n)
	}
	switch {
	case len(sel.OrderBy) > 0 && sel.Limit != "":
		g := &plan.Generic{OpInfo: info("TakeOrderedAndProject")}
		g.Args = "limit=" + sel.Limit + ", orderBy=[" + strings.Join(plan.OrderTexts(s.orders(n, sel.OrderBy)), ", ") + "]"
		n = newNode(g, n.out, n.size, n)
	case len(sel.OrderBy) > 0:
		st := &plan.Sort{OpInfo: info("Sort"), Orders: s.orders(n, sel.OrderBy), Global: true}
		n = newNode(st, n.out, n.size, n)
	case sel.Limit != "" && s.depth == 1:
		g := &plan.Generic{OpInfo: info("CollectLimit")}
		g.Args = sel.Limit
		n = newNode(g, n.out, n.size, n)
	case sel.Limit != "":
		g := &plan.Generic{OpInfo: info("GlobalLimit")}
		g.Args = sel.Limit
		n = newNode(g, n.out, n.size, n)
	}
	return n, nil
}

// groupKeys resolves GROUP BY keys: a column, a select-list alias, or an expression (a new
// attribute no partitioning matches, as Spark's grouping on a + 1 is).
func (s *sim) groupKeys(n *node, refs []plan.ColumnRef, items []attr) []plan.Expr {
	var out []plan.Expr
	for _, r := range refs {
		if a, ok := s.keyExpr(n.out, r); ok {
			out = append(out, a.expr)
			continue
		}
		if a, ok := findAttr(items, strings.ToLower(r.Text)); ok {
			out = append(out, a.expr)
			continue
		}
		out = append(out, s.ids.newAttr(strings.ToLower(r.Text), "", "string").expr)
	}
	return out
}

func (s *sim) orders(n *node, refs []plan.ColumnRef) []plan.SortOrder {
	var out []plan.SortOrder
	for _, r := range refs {
		a, ok := s.keyExpr(n.out, r)
		if !ok {
			s.note("sort key %q could not be resolved to a column; left out", r.Text)
			continue
		}
		nullsFirst := !r.Desc
		if r.Nulls != "" {
			nullsFirst = r.Nulls == "FIRST"
		}
		out = append(out, plan.SortOrder{Expr: a.expr, Desc: r.Desc, NullsFirst: nullsFirst})
	}
	return out
}

// selectItems resolves the select list's trees against the input's columns: "*", "t.*",
// columns (possibly aliased, which keeps the attribute for partitioning as
// AliasAwareOutputPartitioning does) and other expressions (new attributes). pos[i] is the
// position in the result of item i, -1 for a star; defs[j] is the expression computing
// result column j, bound to the input's attributes, when a projection computes it (nil for
// columns and window functions).
func (s *sim) selectItems(sel *plan.Select, in *node) (out []attr, pos []int, defs []*plan.X) {
	pos = make([]int, len(sel.ItemsX))
	for i, x := range sel.ItemsX {
		pos[i] = len(out)
		if x.Op == plan.OpStar {
			pos[i] = -1
			q := lastPart(x.Qualifier)
			cols := in.out
			if q == "" {
				cols = s.starColumns(sel.From, in.out)
			}
			for _, a := range cols {
				if q == "" || a.relation == q {
					out = append(out, a)
					defs = append(defs, nil)
				}
			}
			continue
		}
		alias := ""
		if i < len(sel.ItemAliases) {
			alias = sel.ItemAliases[i]
		}
		if r, ok := columnOf(x); ok {
			if a, ok := resolve(in.out, r); ok {
				if alias != "" {
					a.expr = renamed(a.expr, alias)
					a.name = alias
				}
				out = append(out, a)
				defs = append(defs, nil)
				continue
			}
		}
		name := alias
		if name == "" {
			name = strings.ToLower(x.Raw)
		}
		out = append(out, s.ids.newAttr(name, "", exprType(x, in.out)))
		var def *plan.X
		if x.Op != plan.OpOther || x.Name != "over" {
			def = bound(x, in.out)
		}
		defs = append(defs, def)
	}
	return out, pos, defs
}

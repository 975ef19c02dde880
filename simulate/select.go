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
	saved, savedWhere := s.filters, s.where
	s.filters, s.where = sel.Filters, nil
	var n *node
	var err error
	var above []*plan.X
	if sel.From == nil {
		lt := &plan.LocalTableScan{OpInfo: info("LocalTableScan")}
		n = newNode(lt, nil, 8)
	} else {
		from := sel.From
		conjuncts := sel.WhereX.Conjuncts()
		if len(conjuncts) > 0 && from.Kind == plan.JoinRel {
			// WHERE equalities between joined relations become join keys.
			from, conjuncts = pushEqualities(from, conjuncts)
			from = eliminateOuter(from, nullRejecting(sel.Filters))
		}
		// Conjuncts on one relation go to its scan, the rest stay above the joins.
		s.where, above = s.placeWhere(from, conjuncts)
		n, err = s.relation(from, sel.Hints)
	}
	s.filters, s.where = saved, savedWhere
	if err != nil {
		return nil, err
	}
	if hasSubquery(sel.WhereX) {
		s.note("a subquery in WHERE (%s) is planned by Spark as a semi or anti join or a subquery expression (RewritePredicateSubquery); its shuffles are not modelled", sel.Where)
	}
	if len(above) > 0 {
		n = filterNode(n, strings.Join(raws(above), " AND "))
	}
	for _, h := range sel.Hints {
		switch h.Name {
		case "BROADCAST", "BROADCASTJOIN", "MAPJOIN", "MERGE", "SHUFFLE_MERGE", "MERGEJOIN", "SHUFFLE_HASH", "SHUFFLE_REPLICATE_NL",
			"REPARTITION", "REPARTITION_BY_RANGE", "REBALANCE", "COALESCE":
		default:
			s.note("hint %s is not modelled", h.Name)
		}
	}
	items, pos := s.selectItems(sel, n)
	switch {
	case sel.Distinct && len(sel.GroupBy) == 0 && !hasAggregateItem(sel.Items):
		n = projectNode(n, items)
		n = s.aggregate(n, exprsOf(items), items, &plan.Select{})
	case sel.Aggregate || len(sel.GroupBy) > 0:
		keys := []plan.Expr(nil)
		if ex, k, ok := s.groupingSets(n, sel.GroupBy); ok {
			n, keys = ex, k
		} else {
			keys = s.groupKeys(n, sel.GroupBy, items)
		}
		n = s.aggregate(n, keys, items, sel)
		if sel.Having != "" {
			n = filterNode(n, sel.Having)
		}
	}
	if len(sel.Windows) > 0 {
		n = s.windows(n, sel.Windows, items, pos)
	}
	if !sel.Aggregate && len(sel.GroupBy) == 0 && !sel.Distinct {
		n = projectNode(n, items)
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

func hasAggregateItem(items []string) bool {
	for _, it := range items {
		e, _ := splitAlias(strings.TrimSpace(it))
		if isAggregateFunc(funcName(e)) {
			return true
		}
	}
	return false
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

// selectItems resolves the select list against the input's columns: "*", "t.*", columns
// (possibly aliased, which keeps the attribute for partitioning as AliasAwareOutputPartitioning
// does) and other expressions (new attributes). pos[i] is the position in the result of
// sel.Items[i], -1 for a star.
func (s *sim) selectItems(sel *plan.Select, in *node) (out []attr, pos []int) {
	pos = make([]int, len(sel.Items))
	for i, raw := range sel.Items {
		it := strings.TrimSpace(raw)
		low := strings.ToLower(it)
		pos[i] = len(out)
		switch {
		case low == "*":
			pos[i] = -1
			out = append(out, in.out...)
			continue
		case strings.HasSuffix(low, ".*"):
			pos[i] = -1
			q := strings.TrimSuffix(low, ".*")
			q = q[strings.LastIndexByte(q, '.')+1:]
			for _, a := range in.out {
				if a.relation == q {
					out = append(out, a)
				}
			}
			continue
		}
		expr, alias := splitAlias(it)
		if a, ok := resolve(in.out, columnRef(expr)); ok {
			if alias != "" {
				a.expr = renamed(a.expr, alias)
				a.name = alias
			}
			out = append(out, a)
			continue
		}
		name := alias
		if name == "" {
			name = strings.ToLower(expr)
		}
		out = append(out, s.ids.newAttr(name, "", exprType(expr, in.out)))
	}
	return out, pos
}

// splitAlias splits "expr AS name" (or "expr name" after a closing parenthesis).
func splitAlias(it string) (expr, alias string) {
	low := strings.ToLower(it)
	if i := strings.LastIndex(low, " as "); i > 0 && !strings.ContainsAny(it[i+4:], "() ") {
		return strings.TrimSpace(it[:i]), strings.ToLower(strings.Trim(strings.TrimSpace(it[i+4:]), "`"))
	}
	if i := strings.LastIndexByte(it, ' '); i > 0 && !strings.ContainsAny(it[i+1:], "()'.") && strings.HasSuffix(strings.TrimSpace(it[:i]), ")") {
		return strings.TrimSpace(it[:i]), strings.ToLower(it[i+1:])
	}
	return it, ""
}

// columnRef reads "col" or "q.col" as a key reference.
func columnRef(expr string) plan.ColumnRef {
	e := strings.ToLower(strings.ReplaceAll(strings.TrimSpace(expr), "`", ""))
	for _, c := range e {
		if c != '_' && c != '.' && (c < 'a' || c > 'z') && (c < '0' || c > '9') {
			return plan.ColumnRef{Text: expr}
		}
	}
	r := plan.ColumnRef{Text: expr, Column: e}
	if i := strings.LastIndexByte(e, '.'); i >= 0 {
		q := e[:i]
		r.Qualifier = q[strings.LastIndexByte(q, '.')+1:]
		r.Column = e[i+1:]
	}
	return r
}

// exprType guesses an expression's type: counts are bigint, sums and averages double, ranks
// int, coalesce-like functions and arithmetic take their first column's type; "" when
// unknown (unknown types are never coerced).
func exprType(expr string, in []attr) string {
	low := strings.ToLower(strings.TrimSpace(expr))
	switch {
	case strings.HasPrefix(low, "count("):
		return "bigint"
	case strings.HasPrefix(low, "sum("), strings.HasPrefix(low, "avg("):
		return "double"
	case strings.HasPrefix(low, "row_number("), strings.HasPrefix(low, "rank("), strings.HasPrefix(low, "dense_rank("), strings.HasPrefix(low, "ntile("):
		return "int"
	case strings.HasPrefix(low, "percent_rank("), strings.HasPrefix(low, "cume_dist("):
		return "double"
	case strings.HasPrefix(low, "concat"), strings.HasPrefix(low, "upper("), strings.HasPrefix(low, "lower("), strings.HasPrefix(low, "'"):
		return "string"
	}
	for _, tok := range identifiers(low) {
		if a, ok := resolve(in, columnRef(tok)); ok {
			return a.typ
		}
	}
	return ""
}

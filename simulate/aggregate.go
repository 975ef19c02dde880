package simulate

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// aggregate plans Spark's Aggregation strategy (AggUtils, 3.0–4.x). Without DISTINCT
// functions (planAggregateWithoutDistinct): a partial aggregate (no requirement) under a final
// one requiring ClusteredDistribution(grouping keys), or AllTuples without keys. With one
// DISTINCT column set (planAggregateWithOneDistinct): four aggregates, the inner pair grouped
// by the keys plus the distinct columns; with several, Expand and two aggregations
// (expandDistinct). The operator is HashAggregateExec when every buffer is
// mutable, ObjectHashAggregateExec for typed imperative functions (collect_list, percentile, …)
// when spark.sql.execution.useObjectHashAggregateExec, else SortAggregateExec, which requires
// its input sorted by the keys.
func (s *sim) aggregate(in *node, keys []plan.Expr, items []attr, sel *plan.Select) *node {
	var funcs []plan.Expr
	var distinct []plan.Expr
	for _, x := range aggregateCalls(sel.ItemsX) {
		b := bound(x, in.out)
		funcs = append(funcs, plan.NewExpr(b.Raw, b.Raw, nil, b))
		call := aggCall(x)
		if !call.Distinct {
			continue
		}
		for _, arg := range call.Args {
			if r, ok := columnOf(arg); ok {
				if a, ok := resolve(in.out, r); ok {
					if !containsExpr(distinct, a.expr) {
						distinct = append(distinct, a.expr)
					}
					continue
				}
			}
			s.note("DISTINCT argument %q is not a column; the distinct aggregation is planned on a new expression", arg.Raw)
			distinct = append(distinct, s.ids.newAttr(strings.ToLower(arg.Raw), "", "string").expr)
		}
	}
	kind := s.aggregateKind(in, funcs)
	size := scaled(in.size, in.out, items)
	if len(keys) == 0 {
		size = rowSize(items)
	}
	mk := func(child *node, k []plan.Expr, fs []plan.Expr, mode plan.AggregateMode, out []attr, sz int64) *node {
		ag := plan.Aggregate{Keys: k, Functions: fs, Mode: mode}
		var op plan.Node
		switch kind {
		case "SortAggregate":
			op = &plan.SortAggregate{OpInfo: info("SortAggregate"), Aggregate: ag}
		case "ObjectHashAggregate":
			op = &plan.ObjectHashAggregate{OpInfo: info("ObjectHashAggregate"), Aggregate: ag}
		default:
			op = &plan.HashAggregate{OpInfo: info("HashAggregate"), Aggregate: ag}
		}
		return newNode(op, out, sz, child)
	}
	partialFuncs := make([]plan.Expr, len(funcs))
	for i, f := range funcs {
		x := partial(f.Tree())
		partialFuncs[i] = plan.NewExpr(x.Raw, x.Raw, nil, x)
	}
	if groups := distinctGroups(aggregateCalls(sel.ItemsX), in.out); len(groups) > 1 {
		return s.expandDistinct(in, keys, groups, mk, funcs, partialFuncs, items, size)
	}
	if len(distinct) > 0 {
		inner := append(append([]plan.Expr{}, keys...), distinct...)
		p1 := mk(in, inner, nil, plan.PartialAggregate, in.out, in.size)
		m1 := mk(p1, inner, nil, plan.PartialMerge, in.out, in.size)
		p2 := mk(m1, keys, partialFuncs, plan.PartialAggregate, in.out, in.size)
		return mk(p2, keys, funcs, plan.FinalAggregate, items, size)
	}
	pn := mk(in, keys, partialFuncs, plan.PartialAggregate, in.out, in.size)
	return mk(pn, keys, funcs, plan.FinalAggregate, items, size)
}

// aggregateKind is the choice of AggUtils.createAggregate.
func (s *sim) aggregateKind(in *node, funcs []plan.Expr) string {
	kind := "HashAggregate"
	for _, f := range funcs {
		call := aggCall(f.Tree())
		switch call.Name {
		case "collect_list", "collect_set", "percentile", "approx_percentile", "percentile_approx", "histogram_numeric", "count_min_sketch", "bloom_filter_agg", "mode", "median":
			if !s.opt.boolConf("spark.sql.execution.useObjectHashAggregateExec", true) {
				return "SortAggregate"
			}
			kind = "ObjectHashAggregate"
		case "max", "min", "first", "last", "first_value", "last_value", "any_value", "max_by", "min_by":
			if len(call.Args) == 1 && stringValued(call.Args[0], in.out) {
				return "SortAggregate"
			}
		}
	}
	return kind
}

// stringValued tells whether an aggregate argument is a string (an immutable buffer type): a
// string column, a cast to string, or a call of a string function.
func stringValued(x *plan.X, in []attr) bool {
	switch x.Op {
	case plan.OpColumn:
		if a, ok := resolve(in, refOf(x)); ok {
			return a.typ == "string" || strings.HasPrefix(a.typ, "varchar") || strings.HasPrefix(a.typ, "char") || a.typ == "binary"
		}
	case plan.OpCast:
		return x.Type == "string"
	case plan.OpCall:
		switch x.Name {
		case "concat", "concat_ws", "substr", "substring", "upper", "lower", "trim", "format_string", "lpad", "rpad":
			return true
		}
	}
	return false
}

func isAggregateFunc(name string) bool {
	switch name {
	case "count", "sum", "avg", "mean", "min", "max", "first", "last", "first_value", "last_value", "any_value",
		"collect_list", "collect_set", "percentile", "approx_percentile", "percentile_approx", "stddev",
		"stddev_pop", "stddev_samp", "variance", "var_pop", "var_samp", "corr", "covar_pop", "covar_samp",
		"approx_count_distinct", "count_if", "bool_and", "bool_or", "every", "some", "any", "max_by", "min_by",
		"histogram_numeric", "count_min_sketch", "bloom_filter_agg", "mode", "median", "kurtosis", "skewness",
		"bit_and", "bit_or", "bit_xor", "array_agg", "listagg", "string_agg",
		"pivotfirst": // ResolvePivot's second aggregation; SQL cannot call it

		return true
	}
	return false
}

// groupingSets plans GROUP BY CUBE / ROLLUP / GROUPING SETS: an ExpandExec producing new
// grouping attributes and spark_grouping_id; the aggregation groups by those, so no table
// partitioning ever satisfies it. It returns the Expand node and the grouping keys.
func (s *sim) groupingSets(in *node, refs []plan.ColumnRef) (*node, []plan.Expr, bool) {
	var cols []plan.ColumnRef
	found := false
	for _, r := range refs {
		if x := r.X; x != nil && x.Op == plan.OpCall && (x.Name == "cube" || x.Name == "rollup") {
			found = true
			for _, c := range x.Columns() {
				cols = append(cols, refOf(c))
			}
			continue
		}
		if r.Column != "" {
			cols = append(cols, plan.ColumnRef{Column: strings.ToLower(r.Column)})
		}
	}
	if !found {
		return nil, nil, false
	}
	var out []attr
	var keys []plan.Expr
	seen := map[string]bool{}
	for _, c := range cols {
		if seen[c.Column] {
			continue
		}
		seen[c.Column] = true
		typ := "string"
		if a, ok := resolve(in.out, c); ok {
			typ = a.typ
		}
		a := s.ids.newAttr(c.Column, "", typ)
		out = append(out, a)
		keys = append(keys, a.expr)
	}
	gid := s.ids.newAttr("spark_grouping_id", "", "bigint")
	out = append(out, gid)
	keys = append(keys, gid.expr)
	ex := &plan.Generic{OpInfo: info("Expand")}
	ex.Args = "[" + exprsText(keys) + "]"
	all := append(append([]attr{}, in.out...), out...)
	return newNode(ex, all, in.size, in), keys, true
}

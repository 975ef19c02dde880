package simulate

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// aggregate plans Spark's Aggregation strategy (AggUtils, 3.0–4.x). Without DISTINCT
// functions (planAggregateWithoutDistinct): a partial aggregate (no requirement) under a final
// one requiring ClusteredDistribution(grouping keys), or AllTuples without keys. With one
// DISTINCT column set (planAggregateWithOneDistinct): four aggregates, the inner pair grouped
// by the keys plus the distinct columns. The operator is HashAggregateExec when every buffer is
// mutable, ObjectHashAggregateExec for typed imperative functions (collect_list, percentile, …)
// when spark.sql.execution.useObjectHashAggregateExec, else SortAggregateExec, which requires
// its input sorted by the keys.
func (s *sim) aggregate(in *node, keys []plan.Expr, items []attr, sel *plan.Select) *node {
	var funcs []plan.Expr
	var distinct []plan.Expr
	for _, it := range sel.Items {
		e, _ := splitAlias(strings.TrimSpace(it))
		name := funcName(e)
		if !isAggregateFunc(name) {
			continue
		}
		funcs = append(funcs, plan.Expr{Raw: e, Text: e})
		if arg, ok := distinctArg(e); ok {
			if a, ok := resolve(in.out, columnRef(arg)); ok {
				if !containsExpr(distinct, a.expr) {
					distinct = append(distinct, a.expr)
				}
			} else {
				s.note("DISTINCT argument %q is not a column; the distinct aggregation is planned on a new expression", arg)
				distinct = append(distinct, s.ids.newAttr(strings.ToLower(arg), "", "string").expr)
			}
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
		partialFuncs[i] = plan.Expr{Raw: "partial_" + f.Raw, Text: "partial_" + f.Text}
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
		name := funcName(f.Text)
		switch name {
		case "collect_list", "collect_set", "percentile", "approx_percentile", "percentile_approx", "histogram_numeric", "count_min_sketch", "bloom_filter_agg", "mode", "median":
			if !s.opt.boolConf("spark.sql.execution.useObjectHashAggregateExec", true) {
				return "SortAggregate"
			}
			kind = "ObjectHashAggregate"
		case "max", "min", "first", "last", "first_value", "last_value", "any_value", "max_by", "min_by":
			if stringValued(argOf(f.Text), in.out) {
				return "SortAggregate"
			}
		}
	}
	return kind
}

// stringValued guesses whether an aggregate argument is a string (an immutable buffer type).
func stringValued(arg string, in []attr) bool {
	low := strings.ToLower(strings.TrimSpace(arg))
	if a, ok := resolve(in, columnRef(low)); ok {
		return a.typ == "string" || strings.HasPrefix(a.typ, "varchar") || strings.HasPrefix(a.typ, "char") || a.typ == "binary"
	}
	for _, p := range []string{"concat(", "concat_ws(", "substr(", "substring(", "upper(", "lower(", "trim(", "format_string(", "lpad(", "rpad("} {
		if strings.HasPrefix(low, p) {
			return true
		}
	}
	return strings.HasSuffix(low, "as string)")
}

func funcName(e string) string {
	i := strings.IndexByte(e, '(')
	if i <= 0 {
		return ""
	}
	return strings.ToLower(strings.TrimSpace(e[:i]))
}

func argOf(e string) string {
	i, j := strings.IndexByte(e, '('), strings.LastIndexByte(e, ')')
	if i < 0 || j <= i {
		return ""
	}
	return e[i+1 : j]
}

func distinctArg(e string) (string, bool) {
	arg := strings.TrimSpace(argOf(e))
	if len(arg) > 9 && strings.EqualFold(arg[:9], "distinct ") {
		return strings.TrimSpace(arg[9:]), true
	}
	return "", false
}

func isAggregateFunc(name string) bool {
	switch name {
	case "count", "sum", "avg", "mean", "min", "max", "first", "last", "first_value", "last_value", "any_value",
		"collect_list", "collect_set", "percentile", "approx_percentile", "percentile_approx", "stddev",
		"stddev_pop", "stddev_samp", "variance", "var_pop", "var_samp", "corr", "covar_pop", "covar_samp",
		"approx_count_distinct", "count_if", "bool_and", "bool_or", "every", "some", "any", "max_by", "min_by",
		"histogram_numeric", "count_min_sketch", "bloom_filter_agg", "mode", "median", "kurtosis", "skewness",
		"bit_and", "bit_or", "bit_xor", "array_agg", "listagg", "string_agg":
		return true
	}
	return false
}

// groupingSets plans GROUP BY CUBE / ROLLUP / GROUPING SETS: an ExpandExec producing new
// grouping attributes and spark_grouping_id; the aggregation groups by those, so no table
// partitioning ever satisfies it. It returns the Expand node and the grouping keys.
func (s *sim) groupingSets(in *node, refs []plan.ColumnRef) (*node, []plan.Expr, bool) {
	var cols []string
	found := false
	for _, r := range refs {
		low := strings.ToLower(strings.TrimSpace(r.Text))
		if strings.HasPrefix(low, "cube") || strings.HasPrefix(low, "rollup") || strings.HasPrefix(low, "grouping sets") {
			found = true
			for _, id := range identifiers(low) {
				if id != "cube" && id != "rollup" && id != "grouping" && id != "sets" {
					cols = append(cols, id)
				}
			}
			continue
		}
		if r.Column != "" {
			cols = append(cols, strings.ToLower(r.Column))
		}
	}
	if !found {
		return nil, nil, false
	}
	var out []attr
	var keys []plan.Expr
	seen := map[string]bool{}
	for _, c := range cols {
		if seen[c] {
			continue
		}
		seen[c] = true
		typ := "string"
		if a, ok := resolve(in.out, columnRef(c)); ok {
			typ = a.typ
		}
		a := s.ids.newAttr(c, "", typ)
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

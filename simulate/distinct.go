package simulate

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// distinctGroups splits the DISTINCT aggregate calls of a select into Spark's distinct
// groups: calls whose non-constant arguments form the same set share one
// (RewriteDistinctAggregates groups them by aggregateFunction.children). It returns each
// group's columns, first seen first.
func distinctGroups(calls []*plan.X, in []attr) [][]plan.Expr {
	var groups [][]plan.Expr
	seen := map[string]bool{}
	for _, x := range calls {
		call := aggCall(x)
		if !call.Distinct {
			continue
		}
		var cols []plan.Expr
		var names []string
		for _, arg := range call.Args {
			if arg.Op == plan.OpLiteral {
				continue
			}
			if r, ok := columnOf(arg); ok {
				if a, ok := resolve(in, r); ok && !containsExpr(cols, a.expr) {
					cols = append(cols, a.expr)
					names = append(names, a.expr.Raw)
				}
				continue
			}
			names = append(names, arg.Raw)
		}
		key := strings.Join(sortedCopy(names), "\x00")
		if seen[key] {
			continue
		}
		seen[key] = true
		groups = append(groups, cols)
	}
	return groups
}

func sortedCopy(s []string) []string {
	out := append([]string(nil), s...)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// expandDistinct plans an aggregation with two or more distinct groups as Spark's
// RewriteDistinctAggregates rewrites it (3.0–4.x): an ExpandExec emits each row once per
// group, tagged by a group id (gid), the keys as they are and the other groups' columns null;
// a first aggregation
// groups by the keys, every distinct column and gid (so it is shuffled on all of them), a
// second groups by the keys alone (shuffled again, or gathered into one partition without
// keys) and computes each function over its group's rows. ExpandExec reports no
// partitioning, so no table layout saves either shuffle. Recorded with Spark 3.5.9 and 4.3.0
// (fixtures/spark/<series>/aggregates/two_distinct_*).
func (s *sim) expandDistinct(in *node, keys []plan.Expr, groups [][]plan.Expr, mk func(*node, []plan.Expr, []plan.Expr, plan.AggregateMode, []attr, int64) *node,
	funcs, partialFuncs []plan.Expr, items []attr, size int64,
) *node {
	// The grouping keys pass through Expand as they are; each distinct column becomes a new
	// attribute (null in the other groups' rows).
	var out []attr
	inner := append([]plan.Expr{}, keys...)
	var cols []plan.Expr
	for _, g := range groups {
		for _, c := range g {
			if containsExpr(cols, c) {
				continue
			}
			cols = append(cols, c)
			typ := ""
			if a, ok := attrOf(in.out, c); ok {
				typ = a.typ
			}
			a := s.ids.newAttr(strings.ToLower(c.Text()), "", typ)
			out = append(out, a)
			inner = append(inner, a.expr)
		}
	}
	gid := s.ids.newAttr("gid", "", "int")
	out = append(out, gid)
	inner = append(inner, gid.expr)
	ex := &plan.Generic{OpInfo: info("Expand")}
	ex.Args = "[" + exprsText(inner) + "]"
	en := newNode(ex, append(append([]attr{}, in.out...), out...), in.size, in)
	a1p := mk(en, inner, nil, plan.PartialAggregate, en.out, in.size)
	a1f := mk(a1p, inner, nil, plan.FinalAggregate, en.out, in.size)
	a2p := mk(a1f, keys, partialFuncs, plan.PartialAggregate, in.out, in.size)
	return mk(a2p, keys, funcs, plan.FinalAggregate, items, size)
}

// attrOf finds the attribute of out an expression is.
func attrOf(out []attr, e plan.Expr) (attr, bool) {
	for _, a := range out {
		if sameExpr(a.expr, e) {
			return a, true
		}
	}
	return attr{}, false
}

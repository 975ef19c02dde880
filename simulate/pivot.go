package simulate

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// generate plans a block's LATERAL VIEWs: one GenerateExec each, which adds the generator's
// columns to its input's and keeps its input's partitioning (GenerateExec.outputPartitioning
// is its child's).
func (s *sim) generate(n *node, gens []plan.Generator) *node {
	for _, g := range gens {
		out := append([]attr(nil), n.out...)
		types := generatedTypes(g, n.out)
		for i, c := range g.Columns {
			out = append(out, s.ids.newAttr(c, g.Alias, types[min(i, len(types)-1)]))
		}
		op := &plan.Generic{OpInfo: info("Generate")}
		op.Args = g.X.Raw
		if g.Outer {
			op.Args += ", true"
		}
		m := newNode(op, out, scaled(n.size, n.out, out), n)
		m.rel = n.rel
		n = m
	}
	return n
}

// generatedTypes returns the types of a generator's columns as far as its argument says:
// explode and posexplode of array(c, …) or of an array or map column; "" where unknown.
func generatedTypes(g plan.Generator, in []attr) []string {
	unknown := []string{""}
	if g.X == nil || len(g.X.Args) != 1 {
		return unknown
	}
	elem := []string{""}
	switch arg := g.X.Args[0]; {
	case arg.Op == plan.OpCall && arg.Name == "array" && len(arg.Args) > 0:
		if a, ok := resolve(in, refOf(arg.Args[0])); ok && arg.Args[0].Op == plan.OpColumn {
			elem = []string{a.typ}
		}
	case arg.Op == plan.OpColumn:
		a, ok := resolve(in, refOf(arg))
		switch {
		case !ok:
		case strings.HasPrefix(a.typ, "array<") && strings.HasSuffix(a.typ, ">"):
			elem = []string{a.typ[len("array<") : len(a.typ)-1]}
		case strings.HasPrefix(a.typ, "map<") && strings.HasSuffix(a.typ, ">"):
			if k, v, ok := strings.Cut(a.typ[len("map<"):len(a.typ)-1], ","); ok && !strings.Contains(k, "<") {
				elem = []string{strings.TrimSpace(k), strings.TrimSpace(v)}
			}
		}
	}
	switch g.Function {
	case "explode", "explode_outer":
		return elem
	case "posexplode", "posexplode_outer":
		return append([]string{"int"}, elem...)
	}
	return unknown
}

// pivotBlock plans a PIVOT as ResolvePivot builds it: when PivotFirst takes the type of
// every aggregate, an aggregation grouped by the grouping columns and the pivot columns,
// then one grouped by the grouping columns alone that arranges the values (two
// aggregations, each a partial and a final one); otherwise one aggregation grouped by the
// grouping columns, of each aggregate for each value. Its output is the grouping columns,
// then a column for each value and aggregate.
func (s *sim) pivotBlock(sel *plan.Select) (*node, error) {
	saved, savedWhere := s.filters, s.where
	s.filters, s.where = nil, nil
	n, err := s.relation(sel.From, sel.Hints)
	s.filters, s.where = saved, savedWhere
	if err != nil {
		return nil, err
	}
	n = s.generate(n, sel.Generators)
	pv := sel.Pivot
	if !pv.Grouped {
		s.note("PIVOT … IN (%s): the columns it groups by, those of its input neither pivoted nor aggregated, are not known; its aggregation is not modelled", strings.Join(pv.Values, ", "))
		return n, nil
	}
	group := s.attrs(n, sel.GroupBy, "PIVOT grouping")
	pivots := s.attrs(n, pv.Columns, "PIVOT")
	var outs []attr
	types := make([]string, len(sel.ItemsX))
	for i, x := range sel.ItemsX {
		types[i] = aggregateType(x, n.out)
	}
	for i, name := range pv.Names {
		outs = append(outs, s.ids.newAttr(name, "", types[i%max(len(types), 1)]))
	}
	if !pivotFirstTakes(types) {
		n = s.aggregate(n, exprsOf(group), append(append([]attr(nil), group...), outs...), &plan.Select{ItemsX: sel.ItemsX})
		return projectNode(n, append(group, outs...), nil), nil
	}
	first := append(append([]attr(nil), group...), pivots...)
	var firsts []*plan.X
	var arrays []attr
	for i, x := range sel.ItemsX {
		a := s.ids.newAttr(strings.ToLower(x.Raw), "", types[i])
		first = append(first, a)
		if len(pivots) > 0 {
			raw := "pivotfirst(" + pivots[0].expr.Raw + ", " + a.expr.Raw + ")"
			firsts = append(firsts, &plan.X{Op: plan.OpCall, Name: "pivotfirst", Args: []*plan.X{pivots[0].expr.Tree(), a.expr.Tree()}, Raw: raw})
		}
		arrays = append(arrays, s.ids.newAttr("__pivot_"+strings.ToLower(x.Raw), "", "array<"+types[i]+">"))
	}
	n = s.aggregate(n, exprsOf(first[:len(group)+len(pivots)]), first, &plan.Select{ItemsX: sel.ItemsX})
	n = s.aggregate(n, exprsOf(group), append(append([]attr(nil), group...), arrays...), &plan.Select{ItemsX: firsts})
	return projectNode(n, append(group, outs...), nil), nil
}

// attrs resolves keys to the input's columns, leaving out (with a note) those that do not
// resolve.
func (s *sim) attrs(n *node, refs []plan.ColumnRef, what string) []attr {
	var out []attr
	for _, r := range refs {
		a, ok := s.keyExpr(n.out, r)
		if !ok {
			s.note("%s key %q could not be resolved to a column; left out", what, r.Text)
			continue
		}
		out = append(out, a)
	}
	return out
}

// aggregateType is the type of an aggregate's result, "" when unknown.
func aggregateType(x *plan.X, in []attr) string {
	c := aggCall(x)
	arg := ""
	if len(c.Args) > 0 {
		if a, ok := resolve(in, refOf(c.Args[0])); ok && c.Args[0].Op == plan.OpColumn {
			arg = a.typ
		}
	}
	switch c.Name {
	case "count", "count_if", "approx_count_distinct":
		return "bigint"
	case "sum":
		switch {
		case strings.HasPrefix(arg, "decimal"):
			return arg
		case arg == "tinyint" || arg == "smallint" || arg == "int" || arg == "bigint":
			return "bigint"
		}
		return "double"
	case "avg", "mean", "stddev", "stddev_pop", "stddev_samp", "variance", "var_pop", "var_samp", "corr",
		"covar_pop", "covar_samp", "kurtosis", "skewness", "percentile", "median":
		if strings.HasPrefix(arg, "decimal") && (c.Name == "avg" || c.Name == "mean") {
			return arg
		}
		return "double"
	case "bool_and", "bool_or", "every", "some", "any":
		return "boolean"
	case "collect_list", "collect_set", "array_agg":
		return "array<" + arg + ">"
	case "listagg", "string_agg":
		return "string"
	}
	return arg
}

// pivotFirstTakes reports whether PivotFirst.supportsDataType holds for every type: the
// numeric types and boolean. An unknown type ("") is taken to be one.
func pivotFirstTakes(types []string) bool {
	for _, t := range types {
		switch {
		case t == "", t == "tinyint", t == "smallint", t == "int", t == "bigint", t == "float", t == "double",
			t == "boolean", strings.HasPrefix(t, "decimal"):
		default:
			return false
		}
	}
	return true
}

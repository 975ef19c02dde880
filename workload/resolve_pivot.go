package workload

import (
	"maps"
	"slices"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// selectScope returns the relations a SELECT block's expressions can name: its FROM tree's
// and its LATERAL VIEWs' (Generate adds the generator's columns, qualified by its alias, to
// its input's).
func (r *resolver) selectScope(sel *plan.Select) *scope {
	sc := r.newScope(sel.From, false)
	for _, g := range sel.Generators {
		cols := columns{names: g.Columns, known: len(g.Columns) > 0}
		sc.leaves = append(sc.leaves, &leaf{rel: &plan.Relation{Kind: plan.OtherRel, Alias: g.Alias}, cols: cols})
	}
	return sc
}

// pivotBlock resolves a PIVOT's block: its input, its pivot columns and aggregates, and its
// grouping, the input's columns that are neither pivoted nor referenced by an aggregate
// (ResolvePivot), when the input's columns are known.
func (r *resolver) pivotBlock(sel *plan.Select) {
	r.from(sel.From)
	sc := r.selectScope(sel)
	for i := range sel.Pivot.Columns {
		r.key(sc, &sel.Pivot.Columns[i])
	}
	for _, x := range sel.ItemsX {
		r.tree(sc, x, nil)
	}
	sel.GroupBy, sel.Pivot.Grouped = pivotGroup(sel, sc)
}

// pivotGroup returns a PIVOT's grouping columns, placed on the relations of sc they come
// from, and whether the input's columns are known.
func pivotGroup(sel *plan.Select, sc *scope) ([]plan.ColumnRef, bool) {
	used := map[string]bool{}
	for _, k := range sel.Pivot.Columns {
		used[strings.ToLower(k.Column)] = true
	}
	for _, x := range sel.ItemsX {
		for _, c := range x.Columns() {
			used[strings.ToLower(c.Name)] = true
		}
	}
	var out []plan.ColumnRef
	add := func(name, rel, table string) {
		x := &plan.X{Op: plan.OpColumn, Name: name, Relation: rel, Table: table, Raw: name}
		out = append(out, plan.ColumnRef{Text: name, Column: name, Relation: rel, Table: table, X: x})
	}
	for _, c := range slices.Sorted(maps.Keys(sc.coalesced)) {
		if !used[c] {
			add(c, "", "")
		}
	}
	for _, lf := range sc.leaves {
		if !lf.cols.known || lf.cols.unnamed {
			return nil, false
		}
		for _, n := range lf.cols.names {
			if !used[n] && !sc.hidden[lf][n] {
				add(n, lf.name(), lf.table())
			}
		}
	}
	return out, true
}

// pivotOutput returns the columns of a PIVOT's block: its grouping columns, then the
// columns it makes of each value and aggregate.
func (r *resolver) pivotOutput(sel *plan.Select) columns {
	group, ok := sel.GroupBy, sel.Pivot.Grouped
	if !ok {
		group, ok = pivotGroup(sel, r.selectScope(sel))
	}
	if !ok {
		return columns{}
	}
	out := columns{known: true}
	for _, k := range group {
		out.names = append(out.names, k.Column)
	}
	out.names = append(out.names, lower(sel.Pivot.Names)...)
	return out
}

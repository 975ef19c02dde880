package simulate

import (
	"maps"
	"slices"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// inferredFilters returns the key filters Spark's InferFiltersFromConstraints derives from
// the WHERE key filters fs through the equi-join keys of from: a filter o.k = 5 and a join
// key o.k = c.k give c.k = 5, which Spark pushes to c's scan, where it prunes c's buckets
// too. Constraints cross an inner, cross or left semi join both ways, a left outer or left
// anti join only into its right side, a right outer join only into its left side, and a full
// outer join not at all (the optimizer's rule, by join type). Only keys that are plain columns
// of the same type on both sides carry a filter (Spark infers through attribute equalities;
// a cast key is not one); filters on a column not placed on a relation are left alone.
func (s *sim) inferredFilters(from *plan.Relation, fs []plan.KeyFilter) []plan.KeyFilter {
	edges := s.joinEdges(from)
	if len(edges) == 0 {
		return nil
	}
	known := map[string]bool{}
	for _, f := range fs {
		known[filterKey(f.Column)] = true
	}
	var out []plan.KeyFilter
	queue := append([]plan.KeyFilter(nil), fs...)
	for len(queue) > 0 && len(out) < 64 {
		f := queue[0]
		queue = queue[1:]
		if refRelation(f.Column) == "" || f.Column.Cast != "" || f.Op == "<=>" {
			continue
		}
		for _, e := range edges {
			if filterKey(e[0]) != filterKey(f.Column) || known[filterKey(e[1])] {
				continue
			}
			known[filterKey(e[1])] = true
			g := f
			g.Column = e[1]
			out = append(out, g)
			queue = append(queue, g)
		}
	}
	return out
}

// joinEdges are the directed equalities of from's equi-join keys that carry constraints
// (see inferredFilters): {o.k, c.k} when a constraint on o.k gives one on c.k.
func (s *sim) joinEdges(from *plan.Relation) [][2]plan.ColumnRef {
	var edges [][2]plan.ColumnRef
	var walk func(r *plan.Relation)
	walk = func(r *plan.Relation) {
		if r == nil || r.Kind != plan.JoinRel || r.Join == nil {
			return
		}
		j := r.Join
		walk(j.Left)
		walk(j.Right)
		toRight, toLeft := false, false
		switch j.Type {
		case "Inner", "Cross", "LeftSemi":
			toRight, toLeft = true, true
		case "LeftOuter", "LeftAnti":
			toRight = true
		case "RightOuter":
			toLeft = true
		}
		for i := range min(len(j.LeftKeys), len(j.RightKeys)) {
			l, rk := j.LeftKeys[i], j.RightKeys[i]
			if !s.sameTypedColumns(l, rk) {
				continue
			}
			if toRight {
				edges = append(edges, [2]plan.ColumnRef{l, rk})
			}
			if toLeft {
				edges = append(edges, [2]plan.ColumnRef{rk, l})
			}
		}
	}
	walk(from)
	return edges
}

// inferredDisjunctions returns where with, for each pushed conjunct that is a disjunction
// over one column of its relation (o.k = 5 OR o.k = 6), the same disjunction on the columns
// the join keys equate it to (c.k = 5 OR c.k = 6), as InferFiltersFromConstraints derives it;
// the equalities and IN lists come from inferredFilters.
func (s *sim) inferredDisjunctions(from *plan.Relation, where map[string][]*plan.X) map[string][]*plan.X {
	edges := s.joinEdges(from)
	if len(edges) == 0 {
		return where
	}
	type add struct {
		rel string
		x   *plan.X
	}
	var adds []add
	for _, rel := range slices.Sorted(maps.Keys(where)) {
		for _, c := range where[rel] {
			if c.Op != plan.OpBinary || c.Name != "or" {
				continue
			}
			col, ok := singleColumn(c, rel)
			if !ok {
				continue
			}
			for _, e := range edges {
				if refRelation(e[0]) != rel || !strings.EqualFold(e[0].Column, col) || e[1].Table == "" {
					continue
				}
				to := e[1]
				x := mapColumns(c, func(k *plan.X) {
					k.Name, k.Qualifier, k.Raw = strings.ToLower(to.Column), "", to.Column
					k.Relation, k.Table = to.Relation, to.Table
				})
				adds = append(adds, add{refRelation(to), x})
			}
		}
	}
	for _, a := range adds {
		where[a.rel] = append(where[a.rel], a.x)
	}
	return where
}

// singleColumn returns the one column of relation rel that x references (qualified by rel
// or not), and false when x references none or more than one, or another relation's.
func singleColumn(x *plan.X, rel string) (string, bool) {
	col, ok := "", true
	x.Walk(func(k *plan.X) bool {
		if k.Op == plan.OpColumn {
			if k.Qualifier != "" && lastPart(k.Qualifier) != rel || col != "" && col != k.Name {
				ok = false
			}
			col = k.Name
		}
		return ok
	})
	return col, ok && col != ""
}

// sameTypedColumns reports whether two join keys are plain columns placed on relations, of
// the same type when both tables are known.
func (s *sim) sameTypedColumns(a, b plan.ColumnRef) bool {
	if a.Column == "" || b.Column == "" || a.Cast != "" || b.Cast != "" || refRelation(a) == "" || refRelation(b) == "" {
		return false
	}
	ta, tb := s.tableNamed(a.Table), s.tableNamed(b.Table)
	if ta == nil || tb == nil {
		return false
	}
	ca, okA := ta.Column(a.Column)
	cb, okB := tb.Column(b.Column)
	return okA && okB && strings.EqualFold(ca.Type, cb.Type)
}

// refRelation is the relation a column reference is placed on, lower case ("" when none).
func refRelation(c plan.ColumnRef) string {
	if c.Relation != "" {
		return strings.ToLower(c.Relation)
	}
	return strings.ToLower(c.Qualifier)
}

// filterKey names a column of a relation: "o.k".
func filterKey(c plan.ColumnRef) string {
	return refRelation(c) + "." + strings.ToLower(c.Column)
}

// tableNamed is the table of that name (qualified or not), resolved through LIKE; nil when
// not known.
func (s *sim) tableNamed(name string) *plan.Table {
	if name == "" {
		return nil
	}
	t := s.tables[strings.ToLower(name)]
	if t == nil {
		t = s.lookupTable(name)
	}
	if t == nil {
		return nil
	}
	return s.effectiveTable(t)
}

// withInferred adds the inferred filters on table scans to the conjuncts pushed to each
// relation's scan (Spark's Filter above the scan, and the scan's data filters).
func withInferred(where map[string][]*plan.X, inferred []plan.KeyFilter) map[string][]*plan.X {
	for _, f := range inferred {
		rel := refRelation(f.Column)
		if f.Column.Table == "" || len(f.ValuesX) == 0 {
			continue
		}
		col := &plan.X{Op: plan.OpColumn, Name: strings.ToLower(f.Column.Column), Relation: f.Column.Relation, Table: f.Column.Table, Raw: f.Column.Column}
		raws := make([]string, len(f.ValuesX))
		for i, v := range f.ValuesX {
			raws[i] = v.Raw
		}
		x := &plan.X{Op: plan.OpIn, Args: append([]*plan.X{col}, f.ValuesX...), Raw: col.Raw + " IN (" + strings.Join(raws, ", ") + ")"}
		if f.Op == "=" && len(f.ValuesX) == 1 {
			x = &plan.X{Op: plan.OpBinary, Name: "=", Args: []*plan.X{col, f.ValuesX[0]}, Raw: col.Raw + " = " + raws[0]}
		}
		if where == nil {
			where = map[string][]*plan.X{}
		}
		where[rel] = append(where[rel], x)
	}
	return where
}

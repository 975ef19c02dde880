package simulate

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// refSet is the columns a query mentions, for column pruning (ColumnPruning and
// FileSourceStrategy read only the referenced columns; a bucketed scan needs every bucket
// column among them). It over-approximates: an unqualified name counts for every table with
// such a column.
type refSet struct {
	bare map[string]bool
	qual map[string]bool
	star map[string]bool
}

// collectRefs gathers the columns of every expression tree and key of q.
func collectRefs(q *plan.Query) refSet {
	r := refSet{bare: map[string]bool{}, qual: map[string]bool{}, star: map[string]bool{}}
	r.relation(q.Root)
	for _, c := range q.CTEs {
		r.relation(c.Root)
	}
	return r
}

// relation adds the references of a relation tree.
func (r refSet) relation(rel *plan.Relation) {
	if rel == nil {
		return
	}
	switch rel.Kind {
	case plan.SelectRel:
		r.selectBlock(rel.Select)
	case plan.JoinRel:
		j := rel.Join
		r.tree(j.ConditionX)
		r.keys(j.LeftKeys)
		r.keys(j.RightKeys)
		// A USING column is a column of both sides: of a side whose schema is not known too.
		// (The names in scope are listed only for a USING join: listing them at every join
		// of a chain costs the square of its length.)
		var sides []string
		if len(j.Using) > 0 {
			sides = append(scopeNames(j.Left), scopeNames(j.Right)...)
		}
		for _, c := range j.Using {
			r.bare[strings.ToLower(c)] = true
			for _, n := range sides {
				r.qual[strings.ToLower(n)+"."+strings.ToLower(c)] = true
			}
		}
		r.relation(j.Left)
		r.relation(j.Right)
	case plan.SetRel:
		for _, in := range rel.Inputs {
			r.relation(in)
		}
	}
}

// selectBlock adds the references of a SELECT block: its select list (a star reads every
// column of the relations it names), conditions, keys, windows and hints.
func (r refSet) selectBlock(sel *plan.Select) {
	for _, x := range sel.ItemsX {
		if x.Op != plan.OpStar {
			r.tree(x)
			continue
		}
		if x.Qualifier != "" {
			r.star[lastPart(x.Qualifier)] = true
			continue
		}
		for _, n := range scopeNames(sel.From) {
			r.star[n] = true
		}
	}
	r.tree(sel.WhereX)
	r.tree(sel.HavingX)
	for _, keys := range [][]plan.ColumnRef{sel.GroupBy, sel.DistributeBy, sel.SortBy, sel.OrderBy} {
		r.keys(keys)
	}
	for _, f := range sel.Filters {
		r.keys([]plan.ColumnRef{f.Column})
	}
	for _, w := range sel.Windows {
		for _, x := range w.ArgsX {
			r.tree(x)
		}
		r.keys(w.PartitionBy)
		r.keys(w.OrderBy)
	}
	for _, h := range sel.Hints {
		for _, x := range h.ArgsX {
			r.tree(x)
		}
	}
	for _, g := range sel.Generators {
		r.tree(g.X)
	}
	if pv := sel.Pivot; pv != nil {
		r.keys(pv.Columns)
		if !pv.Grouped {
			// It groups by every other column of its input.
			for _, n := range scopeNames(sel.From) {
				r.star[n] = true
			}
		}
	}
	r.relation(sel.From)
}

// keys adds the columns of keys: their trees, or their column names when they have none.
func (r refSet) keys(keys []plan.ColumnRef) {
	for _, k := range keys {
		switch {
		case k.X != nil:
			r.tree(k.X)
		case k.Column != "" && k.Qualifier != "":
			r.qual[strings.ToLower(lastPart(k.Qualifier)+"."+k.Column)] = true
		case k.Column != "":
			r.bare[strings.ToLower(k.Column)] = true
		}
	}
}

// tree adds the columns of an expression tree.
func (r refSet) tree(x *plan.X) {
	for _, c := range x.Columns() {
		if c.Qualifier == "" {
			r.bare[c.Name] = true
			continue
		}
		r.qual[lastPart(c.Qualifier)+"."+c.Name] = true
	}
}

// scopeNames are the names of the relations a SELECT's FROM brings into scope.
func scopeNames(rel *plan.Relation) []string {
	if rel == nil {
		return nil
	}
	if rel.Kind == plan.JoinRel {
		return append(scopeNames(rel.Join.Left), scopeNames(rel.Join.Right)...)
	}
	return []string{rel.Name()}
}

// reads reports whether column col of the relation named rel is referenced.
func (r refSet) reads(rel, col string) bool {
	col = strings.ToLower(col)
	return r.star[rel] || r.bare[col] || r.qual[rel+"."+col]
}

package workload

import (
	"slices"

	"github.com/bucketlint/bucketlint/plan"
)

// An UnresolvedJoin is a SQL join whose keys name resolution could not place: whether Spark
// shuffles for it cannot be known, so it is no join site.
type UnresolvedJoin struct {
	// Span is the join's extent; Query is the resolved query it belongs to.
	Span  plan.Span
	Query *plan.Query
	// Names are the names of the join's condition (ON, USING or NATURAL) that did not
	// resolve, in order of position.
	Names []Unresolved
	// Bucketed are the bucketed tables the join reads directly on either side (through other
	// joins, not through subqueries), as the session sees them there.
	Bucketed []*plan.Table
	// Tables maps the relation names of the join's inputs (aliases or table names) to their
	// tables' names, for the relations that are table scans.
	Tables map[string]string
}

// UnresolvedJoins returns every SQL join whose equi-join keys did not all resolve, with the
// names that did not; a join whose keys resolved is a site (Sites) even when a name of its
// non-equi condition did not.
func (w *Workload) UnresolvedJoins() []UnresolvedJoin {
	var out []UnresolvedJoin
	for _, q := range w.Project().Queries {
		res := w.Resolved(q)
		if res == nil || len(res.Unresolved) == 0 {
			continue
		}
		tables := w.TablesAt(q.Span.Start)
		res.Query.WalkRelations(func(r *plan.Relation) bool {
			if r.View != "" {
				return false // a view's joins are its definition's
			}
			if r.Kind != plan.JoinRel || r.Join == nil {
				return true
			}
			j := r.Join
			if len(j.LeftKeys) > 0 && Complete(j) {
				return true
			}
			names := conditionNames(r, res.Unresolved)
			if len(names) == 0 {
				return true
			}
			span := j.Span
			if !span.Start.IsValid() {
				span = r.Span
			}
			out = append(out, UnresolvedJoin{Span: span, Query: res.Query, Names: names, Bucketed: bucketedSides(j, tables), Tables: scanNames(j)})
			return true
		})
	}
	return out
}

// conditionNames are the unresolved names of a join's own condition: inside the join but in
// neither input, or the join itself for NATURAL.
func conditionNames(r *plan.Relation, all []Unresolved) []Unresolved {
	j := r.Join
	var out []Unresolved
	for _, u := range all {
		in := func(x *plan.Relation) bool {
			return x != nil && x.Span.Start.IsValid() && x.Span.Contains(u.Span.Start)
		}
		switch {
		case u.Name == NaturalJoin && (u.Span == j.Span || u.Span == r.Span):
			out = append(out, u)
		case u.Name != NaturalJoin && (j.Span.Contains(u.Span.Start) || r.Span.Contains(u.Span.Start)) && !in(j.Left) && !in(j.Right):
			out = append(out, u)
		}
	}
	return out
}

// bucketedSides are the bucketed tables a join reads on either side, through nested joins.
func bucketedSides(j *plan.JoinSpec, tables map[string]*plan.Table) []*plan.Table {
	var out []*plan.Table
	eachSideScan(j, func(r *plan.Relation) {
		if t := Lookup(tables, r.Table); t != nil && t.Buckets() != nil && !slices.Contains(out, t) {
			out = append(out, t)
		}
	})
	return out
}

// scanNames maps the names of a join's table scans (through nested joins) to their tables.
func scanNames(j *plan.JoinSpec) map[string]string {
	out := map[string]string{}
	eachSideScan(j, func(r *plan.Relation) { out[r.Name()] = r.Table })
	return out
}

// eachSideScan calls fn for each table scan a join reads on either side, through nested
// joins, not into subqueries or views.
func eachSideScan(j *plan.JoinSpec, fn func(*plan.Relation)) {
	var walk func(r *plan.Relation)
	walk = func(r *plan.Relation) {
		switch {
		case r == nil || r.View != "":
		case r.Kind == plan.TableRel:
			fn(r)
		case r.Kind == plan.JoinRel && r.Join != nil:
			walk(r.Join.Left)
			walk(r.Join.Right)
		}
	}
	walk(j.Left)
	walk(j.Right)
}

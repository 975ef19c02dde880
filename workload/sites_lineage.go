package workload

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
)

// maxLineage bounds how deep layoutSource follows CTEs, subqueries and joins.
const maxLineage = 8

// layoutSource follows a join input that is not a plain table — a CTE reference, a subquery,
// a join — to the table whose bucket layout its output keeps, as Spark's operators pass their
// child's partitioning up: a projection or filter keeps it, an aggregation or window keyed on
// (a superset of) the bucket columns keeps it, a join keeps the layout of a side bucketed on
// its keys. keys are the join keys on this input; they come back renamed to the table's
// columns through the select lists' aliases. via names what the input is ("CTE t", "a
// subquery") for messages, empty for a plain table. The table is nil when the input's layout
// is not a table's (a shuffle by other keys, a set operation, an unresolvable column).
func layoutSource(q *plan.Query, r *plan.Relation, keys []plan.ColumnRef, tables map[string]*plan.Table, depth int) (t *plan.Table, mapped []plan.ColumnRef, via string) {
	if r == nil || depth > maxLineage {
		return nil, nil, ""
	}
	switch r.Kind {
	case plan.TableRel:
		if !r.CTE {
			return Lookup(tables, r.Table), keys, ""
		}
		for _, c := range q.CTEs {
			if strings.EqualFold(c.Name, r.Table) {
				t, mapped, _ := layoutSource(q, c.Root, keys, tables, depth+1)
				return t, mapped, "CTE " + c.Name
			}
		}
	case plan.SelectRel:
		return selectLayout(q, r, keys, tables, depth)
	case plan.JoinRel:
		return joinLayout(q, r.Join, keys, tables, depth)
	}
	return nil, nil, ""
}

// selectLayout is layoutSource for a select (subquery or view) r: its layout is its input's
// when the keys pass through the select list, nothing redistributes the rows and every
// aggregation and window is keyed on (a superset of) the bucket columns.
func selectLayout(q *plan.Query, r *plan.Relation, keys []plan.ColumnRef, tables map[string]*plan.Table, depth int) (*plan.Table, []plan.ColumnRef, string) {
	sel := r.Select
	if sel == nil || len(sel.DistributeBy) > 0 {
		return nil, nil, ""
	}
	in, ok := throughItems(sel, keys)
	if !ok {
		return nil, nil, ""
	}
	t, mapped, _ := layoutSource(q, sel.From, in, tables, depth+1)
	if !simulate.BucketedTable(t) {
		return nil, nil, ""
	}
	if (sel.Aggregate || len(sel.GroupBy) > 0) && !coversColumns(sel.GroupBy, t.Buckets().Columns) {
		return nil, nil, ""
	}
	for _, w := range sel.Windows {
		if !coversColumns(w.PartitionBy, t.Buckets().Columns) {
			return nil, nil, ""
		}
	}
	via := "a subquery"
	switch {
	case r.View != "":
		via = "view " + r.View
	case r.Alias != "":
		via = "subquery " + r.Alias
	}
	return t, mapped, via
}

// joinLayout is layoutSource for a join j: its layout is that of the side bucketed exactly on
// its join keys (the one with more buckets when both are), nil when neither side is.
func joinLayout(q *plan.Query, j *plan.JoinSpec, keys []plan.ColumnRef, tables map[string]*plan.Table, depth int) (*plan.Table, []plan.ColumnRef, string) {
	var best *plan.Table
	var bestKeys []plan.ColumnRef
	for i, in := range []*plan.Relation{j.Left, j.Right} {
		jk := j.LeftKeys
		if i == 1 {
			jk = j.RightKeys
		}
		t, tk, _ := layoutSource(q, in, keys, tables, depth+1)
		bt, _, _ := layoutSource(q, in, jk, tables, depth+1)
		if !simulate.BucketedTable(t) || t != bt || simulate.MatchKeys(t.Buckets().Columns, jk) != simulate.ExactKeys {
			continue
		}
		if best == nil || t.Buckets().NumBuckets > best.Buckets().NumBuckets {
			best, bestKeys = t, tk
		}
	}
	if best != nil {
		return best, bestKeys, "a join"
	}
	return nil, nil, ""
}

// throughItems renames keys referring to a select list's output to the columns they come
// from: "account_id AS acct" turns a key acct into account_id. ok is false when a key is
// not a plain column passed through (an expression, a name the list does not give).
func throughItems(sel *plan.Select, keys []plan.ColumnRef) ([]plan.ColumnRef, bool) {
	out := make([]plan.ColumnRef, len(keys))
	for i, k := range keys {
		c, ok := Through(sel, k.Column)
		if k.Column == "" || !ok {
			return nil, false
		}
		out[i] = plan.ColumnRef{Text: c, Column: c, Cast: k.Cast, Pos: k.Pos}
	}
	return out, true
}

// coversColumns reports whether keys reference every one of cols (names, case-insensitive).
func coversColumns(keys []plan.ColumnRef, cols []string) bool {
	for _, c := range cols {
		if simulate.KeyIndex(keys, c) < 0 {
			return false
		}
	}
	return len(cols) > 0
}

package rules

import (
	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/workload"
)

// tablesCatalog is a catalogue of tables only, for a pass without a workload.
type tablesCatalog map[string]*plan.Table

func (c tablesCatalog) Table(name string) *plan.Table { return lookup(c, name) }
func (c tablesCatalog) View(string) *plan.Query       { return nil }

// catalogAt is the catalogue the session of pos sees there, as name resolution reads it.
func (p *Pass) catalogAt(pos plan.Pos) workload.Catalog {
	if p.Workload == nil {
		return tablesCatalog(p.tablesAt(pos))
	}
	return p.Workload.CatalogueAt(pos)
}

// resolved returns q with its names resolved against the catalogue its session sees: the
// workload's resolution (computed once per run, shared with every command and with
// Workload.Simulate), so that every rule and every simulation of the query sees the same
// keys, sides and views. A pass without a workload resolves against its tables.
func (p *Pass) resolved(q *plan.Query) *workload.Resolved {
	if p.Workload != nil {
		return p.Workload.Resolved(q)
	}
	return workload.Resolve(p.catalogAt(q.Span.Start), q)
}

// codeKeys returns a DataFrame join's key pairs oriented to its sides, which read the tables
// lt and rt. A key written with its frame (df.k, df["k"]) or in a join on names ("k") is on
// the side the parser gave it; a key written without one (col("k")) belongs to the side
// whose table has the column, as Spark's analyzer resolves it against the join's inputs,
// whatever side of the == it is written on. ok is false when a pair cannot be placed: a
// column both or neither table has, or a table whose columns are not known.
func codeKeys(j *plan.CodeJoin, lt, rt *plan.Table) (lks, rks []plan.ColumnRef, ok bool) {
	side := func(k plan.ColumnRef, own int) int {
		if k.Qualifier != "" || isNameKey(k) {
			return own
		}
		l, r := hasColumn(lt, k.Column), hasColumn(rt, k.Column)
		switch {
		case l && !r:
			return 1
		case r && !l:
			return 2
		}
		return 0
	}
	for i := range j.LeftKeys {
		lk, rk := j.LeftKeys[i], j.RightKeys[i]
		ls, rs := side(lk, 1), side(rk, 2)
		switch {
		case ls == 2 && rs == 1:
			lk, rk = rk, lk
		case ls != 1 || rs != 2:
			return nil, nil, false
		}
		lk.Relation, lk.Table = frameName(j.Left), lt.Name
		rk.Relation, rk.Table = frameName(j.Right), rt.Name
		lks, rks = append(lks, lk), append(rks, rk)
	}
	return lks, rks, true
}

// isNameKey reports a key of a join on names: "k" in df.join(other, "k").
func isNameKey(k plan.ColumnRef) bool { return k.NameString }

// hasColumn reports whether t's known columns include col.
func hasColumn(t *plan.Table, col string) bool {
	if t == nil {
		return false
	}
	_, ok := t.Column(col)
	return ok
}

// frameName is the name a frame's columns are qualified by: its alias, else its variable.
func frameName(f plan.FrameRef) string {
	if f.Alias != "" {
		return f.Alias
	}
	return f.Var
}

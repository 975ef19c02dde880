package workload

import (
	"github.com/bucketlint/bucketlint/plan"
)

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

package workload

import (
	"github.com/bucketlint/bucketlint/plan"
)

// joinKeys resolves a join's ON condition and orients its key pairs: a pair whose left key
// belongs to the right side is swapped, a pair whose keys belong to one side is a condition
// on that side (a residual conjunct), a pair with a name that does not resolve stays as
// written with no relation. A USING or NATURAL join gets its keys. A comma join's keys are
// the WHERE equalities between its sides, resolved with the SELECT block (commaKeys).
func (r *resolver) joinKeys(rel *plan.Relation) {
	j := rel.Join
	if j.Comma {
		return
	}
	sc := r.newScope(rel, true)
	r.tree(sc, j.ConditionX, nil)
	if len(j.Using) > 0 || j.Natural {
		r.usingKeys(j)
		return
	}
	left := relations(j.Left)
	side := func(lf *leaf) int {
		switch {
		case lf == nil:
			return 0
		case left[lf.rel]:
			return 1
		}
		return 2
	}
	var lks, rks []plan.ColumnRef
	for i := range min(len(j.LeftKeys), len(j.RightKeys)) {
		lk, rk := j.LeftKeys[i], j.RightKeys[i]
		ls, rs := side(r.key(sc, &lk)), side(r.key(sc, &rk))
		switch {
		case ls == 2 && rs == 1:
			lk, rk = rk, lk
		case ls != 0 && ls == rs:
			residual(j, lk, rk)
			continue
		}
		lks, rks = append(lks, lk), append(rks, rk)
	}
	j.LeftKeys, j.RightKeys = lks, rks
}

// usingKeys gives a USING or NATURAL join its keys: each column resolved on each side.
func (r *resolver) usingKeys(j *plan.JoinSpec) {
	lsc, rsc := r.newScope(j.Left, false), r.newScope(j.Right, false)
	cols := r.usingColumns(j, lsc.leaves, rsc.leaves)
	if j.Natural {
		var unknown []string
		for _, lf := range append(append([]*leaf{}, lsc.leaves...), rsc.leaves...) {
			if !lf.cols.known {
				unknown = append(unknown, lf.name())
			}
		}
		if len(unknown) > 0 {
			r.report(Unresolved{Name: NaturalJoin, Span: j.Span, Reason: UnknownSchema, Relations: unknown})
			return
		}
	}
	j.LeftKeys, j.RightKeys = nil, nil
	for _, c := range cols {
		lk := plan.ColumnRef{Text: c, Column: c, Pos: j.Span.Start}
		rk := lk
		l, rt := r.key(lsc, &lk), r.key(rsc, &rk)
		if l == nil || rt == nil {
			continue
		}
		j.LeftKeys, j.RightKeys = append(j.LeftKeys, lk), append(j.RightKeys, rk)
	}
}

// residual adds the equality of two keys of one side to the join's residual conjuncts, with
// its tree when the join's residuals have trees.
func residual(j *plan.JoinSpec, lk, rk plan.ColumnRef) {
	text := lk.Text + " = " + rk.Text
	if len(j.ResidualX) == len(j.Residual) && lk.X != nil && rk.X != nil {
		x := &plan.X{Op: plan.OpBinary, Name: "=", Args: []*plan.X{lk.X, rk.X}, Raw: text}
		x.Span = plan.Span{Start: lk.X.Span.Start, End: rk.X.Span.End}
		j.ResidualX = append(j.ResidualX, x)
	}
	j.Residual = append(j.Residual, text)
}

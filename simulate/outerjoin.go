package simulate

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// eliminateOuter is the optimizer's EliminateOuterJoin as it follows from
// InferFiltersFromConstraints (3.0–4.x): a null-rejecting predicate on the null-supplying side
// of an outer join (an equality key of an enclosing inner or semi join, a WHERE equality or IN
// on a column) turns LeftOuter into Inner, RightOuter into Inner, FullOuter into LeftOuter,
// RightOuter or Inner. The join type decides the output partitioning: a full outer join's is
// unknown, a left outer join keeps its left side's. The query is not changed; joins are copied.
func (s *sim) eliminateOuter(rel *plan.Relation, refs []plan.ColumnRef) *plan.Relation {
	if rel == nil || rel.Kind != plan.JoinRel || len(refs) == 0 || !s.scope.hasOuter(rel) {
		return rel
	}
	j := rel.Join
	var onLeft, onRight []plan.ColumnRef
	for _, r := range refs {
		q := strings.ToLower(r.Qualifier)
		if q == "" {
			q = strings.ToLower(r.Relation)
		}
		switch {
		case s.scope.has(j.Left, q):
			onLeft = append(onLeft, r)
		case s.scope.has(j.Right, q):
			onRight = append(onRight, r)
		}
	}
	typ := j.Type
	switch typ {
	case "LeftOuter":
		if len(onRight) > 0 {
			typ = "Inner"
		}
	case "RightOuter":
		if len(onLeft) > 0 {
			typ = "Inner"
		}
	case "FullOuter":
		switch {
		case len(onLeft) > 0 && len(onRight) > 0:
			typ = "Inner"
		case len(onLeft) > 0:
			typ = "LeftOuter"
		case len(onRight) > 0:
			typ = "RightOuter"
		}
	}
	nl, nr := s.eliminateOuter(j.Left, onLeft), s.eliminateOuter(j.Right, onRight)
	if typ == j.Type && nl == j.Left && nr == j.Right {
		return rel
	}
	nj := *j
	nj.Type, nj.Left, nj.Right = typ, nl, nr
	c := *rel
	c.Join = &nj
	return &c
}

// nullRejecting returns the WHERE key filters that reject NULL (=, IN; not <=>).
func nullRejecting(fs []plan.KeyFilter) []plan.ColumnRef {
	var out []plan.ColumnRef
	for _, f := range fs {
		if f.Op == "=" || strings.EqualFold(f.Op, "IN") {
			out = append(out, f.Column)
		}
	}
	return out
}

package simulate

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// pushEqualities moves equality conjuncts between two relations of an inner-join tree into the
// lowest join that has one relation on each side, as the optimizer's PushPredicateThroughJoin
// and ReorderJoin do: "t1 JOIN t2 JOIN t3 ON t1.i = t2.i AND t2.i = t3.i" joins t1 and t2 on i.
// The query is not changed: the joins that gain keys are copies.
func (s *sim) pushEqualities(rel *plan.Relation, conjuncts []*plan.X) (*plan.Relation, []*plan.X) {
	if rel == nil || rel.Kind != plan.JoinRel {
		return rel, conjuncts
	}
	var keep []*plan.X
	for _, c := range conjuncts {
		l, r, ok := qualifiedEquality(c)
		if !ok {
			keep = append(keep, c)
			continue
		}
		next, pushed := s.pushInto(rel, l, r)
		if !pushed {
			keep = append(keep, c)
			continue
		}
		rel = next
	}
	return rel, keep
}

// pushPlaced moves the WHERE equalities pushEqualities leaves because a column is not
// qualified ("i_item = s_item") into the lowest join separating their relations, as Spark's
// analyzer and optimizer do once the names are resolved. Each unqualified column is placed
// at the relation name resolution gave it (plan.X.Relation), else at the one relation in
// scope whose known columns have it; an equality with a column neither places stays a filter.
func (s *sim) pushPlaced(from *plan.Relation, conjuncts []*plan.X) (*plan.Relation, []*plan.X) {
	rels := map[string]*plan.Table{}
	s.scopeOf(from, true, rels, map[string]bool{})
	var keep []*plan.X
	for _, c := range conjuncts {
		l, r, ok := equalityOf(c)
		if !ok {
			keep = append(keep, c)
			continue
		}
		a, okA := placedColumn(l, rels)
		b, okB := placedColumn(r, rels)
		next, pushed := from, false
		if okA && okB {
			next, pushed = s.pushInto(from, a, b)
		}
		if !pushed {
			keep = append(keep, c)
			continue
		}
		from = next
	}
	return from, keep
}

// placedColumn reads a column operand with the relation it belongs to: its qualifier, else
// the relation name resolution gave it, else the one relation of rels whose known columns
// have it. ok is false for an operand that is not a column and for a column not placed.
func placedColumn(x *plan.X, rels map[string]*plan.Table) (plan.ColumnRef, bool) {
	k, ok := columnOf(x)
	if !ok || k.Qualifier != "" {
		return k, ok
	}
	rel := strings.ToLower(x.Relation)
	if rel == "" {
		if rel, ok = singleRelation(x, rels); !ok {
			return k, false
		}
	}
	k.Qualifier, k.Relation = rel, rel
	return k, true
}

// pushInto returns a copy of the join tree with the key pair added to the lowest inner join
// that separates the two columns' relations.
func (s *sim) pushInto(rel *plan.Relation, a, b plan.ColumnRef) (*plan.Relation, bool) {
	if rel.Kind != plan.JoinRel {
		return rel, false
	}
	j := rel.Join
	if j.Type != "Inner" && j.Type != "Cross" && j.Type != "" {
		return rel, false
	}
	for i := range j.LeftKeys {
		if i < len(j.RightKeys) && (sameRef(j.LeftKeys[i], a) && sameRef(j.RightKeys[i], b) || sameRef(j.LeftKeys[i], b) && sameRef(j.RightKeys[i], a)) {
			return rel, true // already a key (a comma join's WHERE keys)
		}
	}
	copyWith := func(f func(*plan.JoinSpec)) *plan.Relation {
		nj := *j
		nj.LeftKeys = append([]plan.ColumnRef{}, j.LeftKeys...)
		nj.RightKeys = append([]plan.ColumnRef{}, j.RightKeys...)
		f(&nj)
		nr := *rel
		nr.Join = &nj
		return &nr
	}
	left := func(q string) bool { return s.scope.has(j.Left, q) }
	right := func(q string) bool { return s.scope.has(j.Right, q) }
	switch {
	case left(a.Qualifier) && right(b.Qualifier):
		return copyWith(func(nj *plan.JoinSpec) {
			nj.LeftKeys, nj.RightKeys, nj.Type = append(nj.LeftKeys, a), append(nj.RightKeys, b), "Inner"
		}), true
	case left(b.Qualifier) && right(a.Qualifier):
		return copyWith(func(nj *plan.JoinSpec) {
			nj.LeftKeys, nj.RightKeys, nj.Type = append(nj.LeftKeys, b), append(nj.RightKeys, a), "Inner"
		}), true
	case left(a.Qualifier) && left(b.Qualifier):
		sub, ok := s.pushInto(j.Left, a, b)
		if !ok {
			return rel, false
		}
		return copyWith(func(nj *plan.JoinSpec) { nj.Left = sub }), true
	case right(a.Qualifier) && right(b.Qualifier):
		sub, ok := s.pushInto(j.Right, a, b)
		if !ok {
			return rel, false
		}
		return copyWith(func(nj *plan.JoinSpec) { nj.Right = sub }), true
	}
	return rel, false
}

func sameRef(x, y plan.ColumnRef) bool {
	qx, qy := x.Qualifier, y.Qualifier
	if qx == "" {
		qx = x.Relation
	}
	if qy == "" {
		qy = y.Relation
	}
	return strings.EqualFold(x.Column, y.Column) && strings.EqualFold(qx, qy)
}

// qualifiedEquality reads "q.a = r.b" into two qualified column references.
func qualifiedEquality(x *plan.X) (plan.ColumnRef, plan.ColumnRef, bool) {
	l, r, ok := equalityOf(x)
	if !ok {
		return plan.ColumnRef{}, plan.ColumnRef{}, false
	}
	a, okA := columnOf(l)
	b, okB := columnOf(r)
	if !okA || !okB || a.Qualifier == "" || b.Qualifier == "" {
		return plan.ColumnRef{}, plan.ColumnRef{}, false
	}
	return a, b, true
}

package simulate

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// placeWhere splits a SELECT block's WHERE conjuncts as Spark's optimizer places them
// (PushPredicateThroughJoin, then FileSourceStrategy): a conjunct that references the columns
// of one table relation only goes to that relation's scan (keyed by relation name), unless
// the relation is on the null-supplying side of an outer join; every other conjunct
// (spanning relations, on a subquery or CTE, with a subquery of its own, or whose columns
// cannot be placed) stays in a Filter above the FROM tree, returned as above.
func (s *sim) placeWhere(from *plan.Relation, conjuncts []*plan.X) (pushed map[string][]*plan.X, above []*plan.X) {
	rels := map[string]*plan.Table{} // relation name → table, nil when its columns are unknown
	pushable := map[string]bool{}
	s.scopeOf(from, true, rels, pushable)
	return placeConjuncts(conjuncts, rels, pushable)
}

// placeOn pushes the conjuncts of a join's ON condition that reference one relation into
// that relation's scan filters, as PushPredicateThroughJoin does with a join condition: both
// sides of an inner or left semi join, the right side of a left outer or left anti join, the
// left side of a right outer join, neither side of a full outer join. It returns the join
// with the conjuncts that stay in its condition.
func (s *sim) placeOn(j *plan.JoinSpec) *plan.JoinSpec {
	if len(j.ResidualX) == 0 {
		return j
	}
	var leftOK, rightOK bool
	switch j.Type {
	case "Inner", "Cross", "", "LeftSemi":
		leftOK, rightOK = true, true
	case "LeftOuter", "LeftAnti":
		rightOK = true
	case "RightOuter":
		leftOK = true
	}
	rels := map[string]*plan.Table{}
	pushable := map[string]bool{}
	s.scopeOf(j.Left, leftOK, rels, pushable)
	s.scopeOf(j.Right, rightOK, rels, pushable)
	pushed, rest := placeConjuncts(j.ResidualX, rels, pushable)
	if len(pushed) == 0 {
		return j
	}
	if s.where == nil {
		s.where = map[string][]*plan.X{}
	}
	for rel, cs := range pushed {
		s.where[rel] = append(s.where[rel], cs...)
	}
	return withResidual(j, rest)
}

// withResidual is a copy of j whose residual conjuncts are rest.
func withResidual(j *plan.JoinSpec, rest []*plan.X) *plan.JoinSpec {
	nj := *j
	nj.ResidualX, nj.Residual = rest, raws(rest)
	return &nj
}

// placeConjuncts sends each conjunct on one pushable relation to it, and returns the rest.
func placeConjuncts(conjuncts []*plan.X, rels map[string]*plan.Table, pushable map[string]bool) (pushed map[string][]*plan.X, above []*plan.X) {
	pushed = map[string][]*plan.X{}
	for _, c := range conjuncts {
		rel, ok := singleRelation(c, rels)
		if !ok || !pushable[rel] {
			above = append(above, c)
			continue
		}
		pushed[rel] = append(pushed[rel], c)
	}
	return pushed, above
}

// scopeOf records the relations of a FROM tree: each relation's table (nil when its columns
// are unknown: a subquery, a CTE, a table without DDL) and whether a condition on it alone
// reaches its scan (ok, and not on the null-supplying side of an outer join below).
func (s *sim) scopeOf(r *plan.Relation, ok bool, rels map[string]*plan.Table, pushable map[string]bool) {
	if r == nil {
		return
	}
	switch r.Kind {
	case plan.JoinRel:
		j := r.Join
		typ := strings.ToLower(strings.ReplaceAll(j.Type, " ", ""))
		leftOK := ok && !strings.HasPrefix(typ, "right") && !strings.HasPrefix(typ, "full")
		rightOK := ok && (typ == "" || typ == "inner" || typ == "cross")
		s.scopeOf(j.Left, leftOK, rels, pushable)
		s.scopeOf(j.Right, rightOK, rels, pushable)
		return
	case plan.TableRel:
		name := strings.ToLower(r.Name())
		table := strings.ToLower(r.Table)
		if s.ctes[table] != nil && !s.expanding[table] {
			rels[name] = nil
			return
		}
		t := s.tables[table]
		if t == nil {
			t = s.lookupTable(r.Table)
		}
		if t != nil {
			t = s.effectiveTable(t)
		}
		if t != nil && len(t.Columns) == 0 {
			t = nil
		}
		rels[name] = t
		pushable[name] = ok && t != nil
		return
	}
	rels[strings.ToLower(r.Name())] = nil
}

// singleRelation returns the one relation whose columns a condition references. It fails
// for a condition with a subquery (or any part whose columns are not known), one on several
// relations or none, and one with an unqualified column that is a column of several
// relations or of none while some relation's columns are unknown.
func singleRelation(cond *plan.X, rels map[string]*plan.Table) (string, bool) {
	if opaque(cond) {
		return "", false
	}
	unknown := false
	for _, t := range rels {
		unknown = unknown || t == nil
	}
	found := ""
	add := func(rel string) bool {
		if found != "" && found != rel {
			return false
		}
		found = rel
		return true
	}
	for _, c := range cond.Columns() {
		if c.Qualifier != "" {
			q := lastPart(c.Qualifier)
			if _, ok := rels[q]; !ok || !add(q) {
				return "", false
			}
			continue
		}
		var owners []string
		for name, t := range rels {
			if t == nil {
				continue
			}
			if _, ok := t.Column(c.Name); ok {
				owners = append(owners, name)
			}
		}
		switch {
		case len(owners) == 1:
			if !add(owners[0]) {
				return "", false
			}
		case len(owners) > 1, unknown:
			return "", false
		}
	}
	return found, found != ""
}

// conditionColumns returns the unqualified column names a scan condition references that
// are columns of t.
func conditionColumns(cond *plan.X, t *plan.Table) []string {
	var out []string
	for _, c := range cond.Columns() {
		if _, ok := t.Column(c.Name); ok {
			out = append(out, c.Name)
		}
	}
	return out
}

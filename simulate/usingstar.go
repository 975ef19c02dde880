package simulate

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// starColumns returns the columns an unqualified "*" expands to over in, the output of the
// planned FROM clause from. A USING or NATURAL join lists its join columns once, as Spark's
// Analyzer (commonNaturalJoinProcessing) does with the Project it puts above such a join:
// the join columns in the USING list's order (the left side's, the right side's for a RIGHT
// JOIN), then the left side's other columns, then the right side's; the other side's join
// columns stay hidden (a qualified reference still reads them). Columns no relation of from
// claims (a generator's) follow in their order. Without a USING or NATURAL join, or when the
// columns cannot be told apart by relation (two relations of one name), it is in.
func (s *sim) starColumns(from *plan.Relation, in []attr) []attr {
	if !hasUsingJoin(from) || !uniqueLeafNames(from, map[string]bool{}) {
		return in
	}
	claimed := make([]bool, len(in))
	out, ok := s.usingStar(from, in, claimed)
	if !ok {
		return in
	}
	for i, a := range in {
		if !claimed[i] {
			out = append(out, a)
		}
	}
	return out
}

// usingStar returns the columns "*" shows of rel, claiming (in claimed) the columns of in
// that belong to rel's relations, shown or hidden; false when a USING column is missing from
// a side or the join is not modelled.
func (s *sim) usingStar(rel *plan.Relation, in []attr, claimed []bool) ([]attr, bool) {
	if rel.Kind != plan.JoinRel || rel.Join == nil {
		name := rel.Name()
		if name == "" {
			return nil, false
		}
		var out []attr
		for i, a := range in {
			if !claimed[i] && strings.EqualFold(a.relation, name) {
				claimed[i] = true
				out = append(out, a)
			}
		}
		return out, true
	}
	j := rel.Join
	left, ok := s.usingStar(j.Left, in, claimed)
	if !ok {
		return nil, false
	}
	right, ok := s.usingStar(j.Right, in, claimed)
	if !ok {
		return nil, false
	}
	if len(j.Using) == 0 && !j.Natural {
		return append(left, right...), true
	}
	cols := usingColumns(j, left, right)
	lk, lrest, lok := splitKeys(left, cols)
	rk, rrest, rok := splitKeys(right, cols)
	switch j.Type {
	case "LeftSemi", "LeftAnti":
		if !lok {
			return nil, false
		}
		return append(lk, lrest...), true
	case "FullOuter":
		s.note("SELECT * over a FULL JOIN with USING or NATURAL: Spark's coalesce of the join columns is not modelled; both sides' join columns are listed")
		return nil, false
	}
	if !lok || !rok {
		return nil, false
	}
	keys := lk
	if j.Type == "RightOuter" {
		keys = rk
	}
	out := append(append(append([]attr(nil), keys...), lrest...), rrest...)
	return out, true
}

// splitKeys returns the columns of side named by cols, in cols' order (each the first of
// its name), and the others in their order; false when a name is missing.
func splitKeys(side []attr, cols []string) (keys, rest []attr, ok bool) {
	taken := make([]bool, len(side))
	for _, c := range cols {
		found := false
		for i, a := range side {
			if !taken[i] && strings.EqualFold(a.name, c) {
				taken[i], found = true, true
				keys = append(keys, a)
				break
			}
		}
		if !found {
			return nil, nil, false
		}
	}
	for i, a := range side {
		if !taken[i] {
			rest = append(rest, a)
		}
	}
	return keys, rest, true
}

// hasUsingJoin reports whether rel is or holds a USING or NATURAL join.
func hasUsingJoin(rel *plan.Relation) bool {
	if rel == nil || rel.Kind != plan.JoinRel || rel.Join == nil {
		return false
	}
	return len(rel.Join.Using) > 0 || rel.Join.Natural || hasUsingJoin(rel.Join.Left) || hasUsingJoin(rel.Join.Right)
}

// uniqueLeafNames reports whether the relations rel's joins bring into scope have distinct
// names (case-insensitively), adding them to seen.
func uniqueLeafNames(rel *plan.Relation, seen map[string]bool) bool {
	if rel.Kind == plan.JoinRel && rel.Join != nil {
		return uniqueLeafNames(rel.Join.Left, seen) && uniqueLeafNames(rel.Join.Right, seen)
	}
	name := strings.ToLower(rel.Name())
	if seen[name] {
		return false
	}
	seen[name] = true
	return true
}

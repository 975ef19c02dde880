package simulate

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// placeWhere splits a SELECT block's WHERE conjuncts as Spark's optimizer places them
// (PushPredicateThroughJoin, then FileSourceStrategy): a conjunct that references the columns
// of one table relation only goes to that relation's scan (keyed by relation name, its
// qualifiers removed), unless the relation is on the null-supplying side of an outer join;
// every other conjunct (spanning relations, on a subquery or CTE, with a subquery of its own,
// or whose columns cannot be placed) stays in a Filter above the FROM tree, returned as
// above.
func (s *sim) placeWhere(from *plan.Relation, conjuncts []string) (pushed map[string][]string, above []string) {
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
	if len(j.Residual) == 0 {
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
	pushed, rest := placeConjuncts(j.Residual, rels, pushable)
	if len(pushed) == 0 {
		return j
	}
	if s.where == nil {
		s.where = map[string][]string{}
	}
	for rel, cs := range pushed {
		s.where[rel] = append(s.where[rel], cs...)
	}
	nj := *j
	nj.Residual = rest
	return &nj
}

// placeConjuncts sends each conjunct on one pushable relation to it, and returns the rest.
func placeConjuncts(conjuncts []string, rels map[string]*plan.Table, pushable map[string]bool) (pushed map[string][]string, above []string) {
	pushed = map[string][]string{}
	for _, c := range conjuncts {
		rel, ok := singleRelation(c, rels)
		if !ok || !pushable[rel] {
			above = append(above, c)
			continue
		}
		pushed[rel] = append(pushed[rel], unqualifyFor(c, rel))
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
// for a condition with a subquery, one on several relations or none, and one with a bare
// name that is a column of several relations or of none while some relation's columns are
// unknown.
func singleRelation(cond string, rels map[string]*plan.Table) (string, bool) {
	if strings.Contains(strings.ToLower(cond), "select ") {
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
	for _, tok := range identifiers(cond) {
		if i := strings.LastIndexByte(tok, '.'); i >= 0 {
			q := tok[:i]
			q = q[strings.LastIndexByte(q, '.')+1:]
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
			if _, ok := t.Column(tok); ok {
				owners = append(owners, name)
			}
		}
		switch {
		case len(owners) == 1:
			if !add(owners[0]) {
				return "", false
			}
		case len(owners) > 1:
			return "", false
		case unknown && !isKeyword(tok):
			return "", false
		}
	}
	return found, found != ""
}

// isKeyword reports the words of a simple condition that are never column names.
func isKeyword(w string) bool {
	switch w {
	case "and", "or", "not", "in", "is", "null", "true", "false", "like", "rlike", "between",
		"date", "timestamp", "timestamp_ntz", "timestamp_ltz", "interval", "cast", "as":
		return true
	}
	return false
}

// unqualifyFor removes the qualifier rel (and any database or catalog before it) from the
// column references of cond outside string literals, as Spark prints attributes by name:
// "a.status <> 'CLOSED'" on relation a is "status <> 'CLOSED'".
func unqualifyFor(cond, rel string) string {
	var b strings.Builder
	for i := 0; i < len(cond); {
		c := cond[i]
		switch {
		case c == '\'' || c == '"':
			j := i + 1
			for j < len(cond) && cond[j] != c {
				if cond[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j+1, len(cond))
			b.WriteString(cond[i:j])
			i = j
		case isIdentStart(c) || c == '`':
			j := i
			for j < len(cond) && (isIdentPart(cond[j]) || cond[j] == '.' || cond[j] == '`') {
				j++
			}
			tok := cond[i:j]
			if k := strings.LastIndexByte(tok, '.'); k > 0 {
				q := strings.ReplaceAll(tok[:k], "`", "")
				q = q[strings.LastIndexByte(q, '.')+1:]
				if strings.EqualFold(q, rel) {
					tok = tok[k+1:]
				}
			}
			b.WriteString(tok)
			i = j
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}

// conditionColumns returns the bare column names a scan condition references that are
// columns of t.
func conditionColumns(cond string, t *plan.Table) []string {
	var out []string
	for _, tok := range identifiers(cond) {
		if _, ok := t.Column(tok); ok {
			out = append(out, tok)
		}
	}
	return out
}

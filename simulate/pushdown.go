package simulate

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// pushEqualities moves equality conjuncts between two relations of an inner-join tree into the
// lowest join that has one relation on each side, as the optimizer's PushPredicateThroughJoin
// and ReorderJoin do: "t1 JOIN t2 JOIN t3 ON t1.i = t2.i AND t2.i = t3.i" joins t1 and t2 on i.
// The query is not changed: the joins that gain keys are copies.
func pushEqualities(rel *plan.Relation, conjuncts []string) (*plan.Relation, []string) {
	if rel == nil || rel.Kind != plan.JoinRel {
		return rel, conjuncts
	}
	var keep []string
	for _, c := range conjuncts {
		l, r, ok := parseEquality(c)
		if !ok {
			keep = append(keep, c)
			continue
		}
		next, pushed := pushInto(rel, l, r)
		if !pushed {
			keep = append(keep, c)
			continue
		}
		rel = next
	}
	return rel, keep
}

// pushInto returns a copy of the join tree with the key pair added to the lowest inner join
// that separates the two columns' relations.
func pushInto(rel *plan.Relation, a, b plan.ColumnRef) (*plan.Relation, bool) {
	if rel.Kind != plan.JoinRel {
		return rel, false
	}
	j := rel.Join
	if j.Type != "Inner" && j.Type != "Cross" && j.Type != "" {
		return rel, false
	}
	left, right := names(j.Left), names(j.Right)
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
	switch {
	case left[a.Qualifier] && right[b.Qualifier]:
		return copyWith(func(nj *plan.JoinSpec) {
			nj.LeftKeys, nj.RightKeys, nj.Type = append(nj.LeftKeys, a), append(nj.RightKeys, b), "Inner"
		}), true
	case left[b.Qualifier] && right[a.Qualifier]:
		return copyWith(func(nj *plan.JoinSpec) {
			nj.LeftKeys, nj.RightKeys, nj.Type = append(nj.LeftKeys, b), append(nj.RightKeys, a), "Inner"
		}), true
	case left[a.Qualifier] && left[b.Qualifier]:
		sub, ok := pushInto(j.Left, a, b)
		if !ok {
			return rel, false
		}
		return copyWith(func(nj *plan.JoinSpec) { nj.Left = sub }), true
	case right[a.Qualifier] && right[b.Qualifier]:
		sub, ok := pushInto(j.Right, a, b)
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

func names(rel *plan.Relation) map[string]bool {
	out := map[string]bool{}
	for _, n := range scopeNames(rel) {
		out[n] = true
	}
	return out
}

// parseEquality reads "q.a = r.b" into two qualified column references.
func parseEquality(s string) (plan.ColumnRef, plan.ColumnRef, bool) {
	s = strings.TrimSpace(s)
	for strings.HasPrefix(s, "(") && strings.HasSuffix(s, ")") {
		s = strings.TrimSpace(s[1 : len(s)-1])
	}
	l, r, ok := strings.Cut(s, "=")
	if !ok || strings.ContainsAny(l, "<>!") || strings.ContainsAny(r, "<>=!") {
		return plan.ColumnRef{}, plan.ColumnRef{}, false
	}
	a, b := columnRef(strings.TrimSpace(l)), columnRef(strings.TrimSpace(r))
	if a.Column == "" || b.Column == "" || a.Qualifier == "" || b.Qualifier == "" {
		return plan.ColumnRef{}, plan.ColumnRef{}, false
	}
	a.Relation, b.Relation = a.Qualifier, b.Qualifier
	return a, b, true
}

// parseColumnEquality reads "a = b" (qualified or not) into two column references.
func parseColumnEquality(s string) (plan.ColumnRef, plan.ColumnRef, bool) {
	s = strings.TrimSpace(s)
	for strings.HasPrefix(s, "(") && strings.HasSuffix(s, ")") {
		s = strings.TrimSpace(s[1 : len(s)-1])
	}
	l, r, ok := strings.Cut(s, "=")
	if !ok || strings.ContainsAny(l, "<>!") || strings.ContainsAny(r, "<>=!") {
		return plan.ColumnRef{}, plan.ColumnRef{}, false
	}
	a, b := columnRef(strings.TrimSpace(l)), columnRef(strings.TrimSpace(r))
	if a.Column == "" || b.Column == "" {
		return plan.ColumnRef{}, plan.ColumnRef{}, false
	}
	a.Relation, b.Relation = a.Qualifier, b.Qualifier
	return a, b, true
}

// splitEquality splits "x = y" at a top-level equals sign that is not part of <=, >=, !=, ==
// or <=>.
func splitEquality(s string) (string, string, bool) {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
		case '=':
			if depth != 0 || i == 0 || i+1 >= len(s) || strings.ContainsRune("<>!=", rune(s[i-1])) || s[i+1] == '=' || s[i+1] == '>' {
				continue
			}
			return strings.TrimSpace(s[:i]), strings.TrimSpace(s[i+1:]), true
		}
	}
	return "", "", false
}

// exprRef is a join key that is an expression: a column reference when it is one.
func exprRef(text string) plan.ColumnRef {
	if r := columnRef(text); r.Column != "" {
		r.Relation = r.Qualifier
		return r
	}
	return plan.ColumnRef{Text: text}
}

// splitAnd splits a condition on top-level AND, except the AND of BETWEEN … AND ….
func splitAnd(cond string) []string {
	var out []string
	depth, start, between := 0, 0, 0
	low := strings.ToLower(cond)
	for i := 0; i < len(cond); i++ {
		switch cond[i] {
		case '(':
			depth++
		case ')':
			depth--
		case '\'':
			if j := strings.IndexByte(cond[i+1:], '\''); j >= 0 {
				i += j + 1
			} else {
				i = len(cond)
			}
		}
		if depth == 0 && i+9 <= len(cond) && low[i:i+9] == " between " {
			between++
		}
		if depth == 0 && i+5 <= len(cond) && low[i:i+5] == " and " {
			if between > 0 {
				// The AND of x BETWEEN lo AND hi.
				between--
				continue
			}
			out = append(out, strings.TrimSpace(cond[start:i]))
			start = i + 5
		}
	}
	if rest := strings.TrimSpace(cond[start:]); rest != "" {
		out = append(out, rest)
	}
	return out
}

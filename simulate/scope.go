package simulate

import "github.com/bucketlint/bucketlint/plan"

// A scopeIndex answers "does this side of a join bring relation q into scope" with a lookup
// instead of a walk of the side: each relation a join tree brings into scope (scopeNames'
// leaves) has a position, in order, and each tree node the span of its leaves' positions.
// Planning a chain of n joins asks it at every join about every level below, so walking
// would cost n² per join and n³ per query (issue 14). Trees are indexed when first asked
// about and kept for the sim (relations are never changed, only copied); a copy is indexed
// as a new tree, its positions after the others'.
type scopeIndex struct {
	// at holds the positions of the leaves with a name, in the order they were indexed.
	at map[string][]int
	// span is a node's leaves: positions [0] to [1], exclusive.
	span map[*plan.Relation][2]int
	// outer marks the nodes with an outer join at or below them.
	outer map[*plan.Relation]bool
	next  int
}

// hasOuter reports whether rel is or holds an outer join (a join type other than inner,
// cross or left semi), which eliminateOuter may turn into another type.
func (x *scopeIndex) hasOuter(rel *plan.Relation) bool {
	if rel == nil || rel.Kind != plan.JoinRel {
		return false
	}
	if _, ok := x.span[rel]; !ok {
		x.add(rel)
	}
	return x.outer[rel]
}

// has reports whether rel brings a relation named name into scope (scopeNames(rel) has name).
func (x *scopeIndex) has(rel *plan.Relation, name string) bool {
	if rel == nil {
		return false
	}
	sp, ok := x.span[rel]
	if !ok {
		x.add(rel)
		sp = x.span[rel]
	}
	for _, p := range x.at[name] {
		if p >= sp[0] && p < sp[1] {
			return true
		}
	}
	return false
}

// add numbers the leaves of rel's tree from x.next on.
func (x *scopeIndex) add(rel *plan.Relation) {
	if x.at == nil {
		x.at, x.span, x.outer = map[string][]int{}, map[*plan.Relation][2]int{}, map[*plan.Relation]bool{}
	}
	start := x.next
	switch {
	case rel == nil:
		return
	case rel.Kind == plan.JoinRel && rel.Join != nil:
		x.add(rel.Join.Left)
		x.add(rel.Join.Right)
		switch rel.Join.Type {
		case "Inner", "Cross", "", "LeftSemi":
			x.outer[rel] = x.outer[rel.Join.Left] || x.outer[rel.Join.Right]
		default:
			x.outer[rel] = true
		}
	default:
		x.at[rel.Name()] = append(x.at[rel.Name()], x.next)
		x.next++
	}
	x.span[rel] = [2]int{start, x.next}
}

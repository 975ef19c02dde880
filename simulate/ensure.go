package simulate

import (
	"fmt"

	"github.com/bucketlint/bucketlint/plan"
)

// ensure is EnsureRequirements (sql/core/.../exchange/EnsureRequirements.scala, 3.0–4.x),
// applied bottom-up as its transformUp does: remove a user repartition the child already
// provides (3.2+), reorder join keys, shuffle each child that does not satisfy its required
// distribution, co-partition the children of multi-child operators by the version's era, then
// add the Sorts required orderings need. Every inserted operator gets a Decision.
func (s *sim) ensure(n *node) *node {
	out := s.ensure0(n)
	if s.sealed == nil {
		s.sealed = map[*node]*part{}
	}
	s.sealed[out] = nil
	return out
}

// ensure0 is ensure without sealing the result.
func (s *sim) ensure0(n *node) *node {
	for i, k := range n.kids {
		n.kids[i] = s.ensure(k)
	}
	if c := s.removeRedundantRepartition(n); c != nil {
		return c
	}
	s.reorderJoinKeys(n)
	reqs := s.required(n)
	if len(reqs) != len(n.kids) {
		return n
	}
	why := make([]sideWhy, len(n.kids))
	for i, d := range reqs {
		child := n.kids[i]
		p := s.partitioning(child)
		if d.kind == plan.UnspecifiedDistribution || d.kind == plan.BroadcastDistribution || satisfies(p, d) {
			continue
		}
		num := d.n
		if num == 0 {
			num = s.opt.NewShufflePartitions()
		}
		n.kids[i] = s.shuffle(child, createPartitioning(d, num), false)
		why[i].added = true
		why[i].text, why[i].cause = s.whyNotSatisfied(child, p, d)
	}
	if s.b.CoPartition.ShuffleSpecs() {
		s.coPartitionC(n, reqs, why)
	} else {
		s.coPartitionAB(n, reqs, why)
	}
	for i := range n.kids {
		w := why[i]
		if w.added {
			x := n.kids[i].op.(*plan.Exchange)
			reason := w.text
			if !w.stated {
				reason += s.shuffleNote(x)
			}
			s.decide(n, sideName(n, i), InsertedExchange, w.cause, reason+s.widthNote(x, n))
		} else if reqs[i].kind == plan.ClusteredDistribution || reqs[i].kind == plan.HashClusteredDistribution {
			s.decide(n, sideName(n, i), InsertedNone, CauseSatisfied, s.whySatisfied(n.kids[i], reqs[i]))
		}
	}
	s.ensureOrdering(n)
	return n
}

// A sideWhy is what EnsureRequirements decided for one child of an operator: whether it
// added a shuffle, why (in words and as a Cause), and whether the words already say how
// Spark shuffles it (the co-partitioning step's do).
type sideWhy struct {
	text   string
	cause  Cause
	added  bool
	stated bool
}

// shuffle wraps child in a ShuffleExchangeExec, or with replace set rewrites an existing
// shuffle's partitioning instead of stacking a second one (as the co-partitioning step does).
func (s *sim) shuffle(child *node, p part, replace bool) *node {
	if x, ok := child.op.(*plan.Exchange); ok && replace {
		y := *x
		y.Partitioning = toPlanPartitioning(p)
		c := *child
		c.op = &y
		return &c
	}
	x := &plan.Exchange{OpInfo: info("Exchange"), Partitioning: toPlanPartitioning(p), Origin: "ENSURE_REQUIREMENTS"}
	if !s.b.ShuffleOrigin {
		x.Origin = ""
		t := true
		x.NoUserSpecifiedNumPartition = &t
	}
	return newNode(x, child.out, child.size, child)
}

func toPlanPartitioning(p part) plan.Partitioning {
	out := plan.Partitioning{Kind: p.kind, Keys: p.keys, NumPartitions: p.numPartitions()}
	if p.kind == plan.RangePartitioning {
		out.Keys = nil
		out.Orders = ascending(p.keys)
	}
	return out
}

// removeRedundantRepartition is EnsureRequirements' removal of a REPARTITION_BY_COL or
// REPARTITION_BY_NUM shuffle whose child already has the same hash partitioning (3.2+,
// SPARK-35675 extends it to PartitioningCollection).
func (s *sim) removeRedundantRepartition(n *node) *node {
	x, ok := n.op.(*plan.Exchange)
	if !ok || !s.b.RemoveRedundantRepartition || (x.Origin != "REPARTITION_BY_COL" && x.Origin != "REPARTITION_BY_NUM") {
		return nil
	}
	upper := part{kind: x.Partitioning.Kind, keys: x.Partitioning.Keys, n: x.Partitioning.NumPartitions}
	var equal func(p part) bool
	equal = func(p part) bool {
		switch p.kind {
		case plan.HashPartitioning:
			return upper.kind == plan.HashPartitioning && p.n == upper.n && sameExprs(p.keys, upper.keys)
		case collection:
			for _, m := range p.members {
				if equal(m) {
					return true
				}
			}
		}
		return false
	}
	if !equal(s.partitioning(n.child())) {
		return nil
	}
	s.decide(n, "child", InsertedNone, CauseRepartitionRemoved, "DISTRIBUTE BY "+exprsText(upper.keys)+" is dropped: the input is already "+upper.String())
	return n.child()
}

// reorderJoinKeys is EnsureRequirements.reorderJoinPredicates: permute the key pairs so one
// side's keys follow that side's hash partitioning. 3.0 tries the left HashPartitioning, else
// the right; 3.1+ (SPARK-32282) also tries each member of a PartitioningCollection and falls
// back from one side to the other.
func (s *sim) reorderJoinKeys(n *node) {
	j := shuffleJoin(n)
	if j == nil {
		return
	}
	lp, rp := s.partitioning(n.kids[0]), s.partitioning(n.kids[1])
	var cands []struct {
		expected []plan.Expr
		left     bool
	}
	add := func(p part, left bool, recurse bool) {
		if p.kind == plan.HashPartitioning {
			cands = append(cands, struct {
				expected []plan.Expr
				left     bool
			}{p.keys, left})
		}
		if recurse && p.kind == collection {
			for _, m := range p.members {
				if m.kind == plan.HashPartitioning {
					cands = append(cands, struct {
						expected []plan.Expr
						left     bool
					}{m.keys, left})
				}
			}
		}
	}
	switch {
	case s.b.ReorderJoinKeysFallback:
		add(lp, true, true)
		add(rp, false, true)
	case lp.kind == plan.HashPartitioning:
		add(lp, true, false)
	default:
		add(rp, false, false)
	}
	for _, c := range cands {
		cur := j.RightKeys
		if c.left {
			cur = j.LeftKeys
		}
		perm, ok := permutation(c.expected, cur)
		if !ok {
			continue
		}
		l, r := make([]plan.Expr, len(perm)), make([]plan.Expr, len(perm))
		for i, p := range perm {
			l[i], r[i] = j.LeftKeys[p], j.RightKeys[p]
		}
		j.LeftKeys, j.RightKeys = l, r
		return
	}
}

// permutation returns, for each expected expression, the index of an unused equal key.
func permutation(expected, keys []plan.Expr) ([]int, bool) {
	if len(expected) != len(keys) || len(keys) == 0 {
		return nil, false
	}
	used := make([]bool, len(keys))
	out := make([]int, 0, len(keys))
	for _, e := range expected {
		found := -1
		for i, k := range keys {
			if !used[i] && sameExpr(e, k) {
				found = i
				break
			}
		}
		if found < 0 {
			return nil, false
		}
		used[found] = true
		out = append(out, found)
	}
	return out, true
}

func sideName(n *node, i int) string {
	if _, ok := plan.JoinOf(n.op); ok {
		if i == 0 {
			return "left"
		}
		return "right"
	}
	return "child"
}

// widthNote adds what adaptive execution does to a new shuffle's width: CoalesceShufflePartitions
// only coalesces a stage whose inputs are all shuffles, so a shuffle joined with an
// un-shuffled (bucketed) side keeps its count.
func (s *sim) widthNote(x *plan.Exchange, parent *node) string {
	if !s.res.Adaptive || x == nil || x.Partitioning.Kind == plan.SinglePartition {
		return ""
	}
	for _, k := range parent.kids {
		if !isShuffle(k) && !isShuffle(sortChild(k)) {
			return fmt.Sprintf(" (adaptive execution keeps the %d partitions: the stage also reads an un-shuffled side, so CoalesceShufflePartitions does not apply)", x.Partitioning.NumPartitions)
		}
	}
	return fmt.Sprintf(" (adaptive execution may coalesce the %d shuffle partitions at run time)", x.Partitioning.NumPartitions)
}

func sortChild(n *node) *node {
	if _, ok := n.op.(*plan.Sort); ok {
		return n.child()
	}
	return n
}

// shuffleJoin returns the join of a sort-merge or shuffled hash join node, nil for any other.
func shuffleJoin(n *node) *plan.Join {
	switch op := n.op.(type) {
	case *plan.SortMergeJoin:
		return &op.Join
	case *plan.ShuffledHashJoin:
		return &op.Join
	}
	return nil
}

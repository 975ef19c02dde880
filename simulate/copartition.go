package simulate

import (
	"fmt"

	"github.com/bucketlint/bucketlint/plan"
)

// coPartitionAB is the co-partitioning step of EnsureRequirements in Spark 3.0–3.2: when the
// children with a (hash-)clustered requirement differ in partition count, every child whose
// count is not the target is re-shuffled to it. The target is the required count if any;
// else the largest un-shuffled count, floored at spark.sql.shuffle.partitions in 3.0.0–3.0.1
// whenever any child is un-shuffled and in 3.0.2–3.2 only when some child is already a
// shuffle (SPARK-32767); else the largest count.
func (s *sim) coPartitionAB(n *node, reqs []dist, why []sideWhy) {
	var idx []int
	counts := map[int]bool{}
	for i, d := range reqs {
		if d.kind == plan.UnspecifiedDistribution || d.kind == plan.BroadcastDistribution {
			continue
		}
		idx = append(idx, i)
		counts[s.partitioning(n.kids[i]).numPartitions()] = true
	}
	if len(counts) <= 1 {
		return
	}
	target, rule, maxNon := 0, "", 0
	for _, i := range idx {
		if reqs[i].n > 0 {
			target, rule = reqs[i].n, "the operator requires that many"
		}
	}
	if target == 0 {
		maxAll, non := 0, 0
		for _, i := range idx {
			c := s.partitioning(n.kids[i]).numPartitions()
			maxAll = max(maxAll, c)
			if !isShuffle(n.kids[i]) {
				non++
				maxNon = max(maxNon, c)
			}
		}
		sp := s.opt.ShufflePartitions()
		switch {
		case non == 0:
			target, rule = maxAll, "the largest of the shuffled sides' counts"
		case non == len(idx) && !s.b.CoPartition.FloorsUnshuffled():
			target, rule = maxNon, "the largest bucket count, as no side is shuffled"
		case s.b.CoPartition.FloorsUnshuffled():
			target = max(maxNon, sp)
			rule = fmt.Sprintf("max(largest un-shuffled count %d, spark.sql.shuffle.partitions=%d): Spark 3.0.0-3.0.1 floors the target whenever a side is not a shuffle (SPARK-32767, fixed in 3.0.2)", maxNon, sp)
		default:
			target = max(maxNon, sp)
			rule = fmt.Sprintf("max(largest un-shuffled count %d, spark.sql.shuffle.partitions=%d), because one side is already a shuffle", maxNon, sp)
		}
	}
	summary, described := "", false
	for _, i := range idx {
		child := n.kids[i]
		if s.partitioning(child).numPartitions() == target {
			continue
		}
		if !described {
			// Described once, before the first side is replaced, and only when one is: the
			// words cost a walk of each side, which a chain of joins would pay at every join.
			summary, described = s.countsSummary(n, idx), true
		}
		what := describeRel(child)
		if why[i].added {
			what = describeRel(child.child())
		}
		n.kids[i] = s.shuffle(child, createPartitioning(reqs[i], target), true)
		msg := fmt.Sprintf("%s; Spark %s re-shuffles %s to %d partitions, %s", summary, s.opt.Version(), what, target, rule)
		if why[i].text != "" {
			msg = fmt.Sprintf("%s; Spark %s shuffles it into %d partitions, %s", why[i].text, s.opt.Version(), target, rule)
		} else {
			why[i].cause = s.coalesceCause(n, s.countCause(child, maxNon, target))
		}
		why[i] = sideWhy{text: msg + s.coalesceNote(), cause: why[i].cause, added: true, stated: true}
	}
}

// countCause says why co-partitioning before 3.3 re-shuffles a side that satisfied its own
// requirement into target partitions: spark.sql.shuffle.partitions when it raised the
// target above the side's own count (the largest un-shuffled one, maxNon), else the counts
// of the sides differ.
func (s *sim) countCause(child *node, maxNon, target int) Cause {
	if !isShuffle(child) && maxNon > 0 && target > maxNon && s.partitioning(child).numPartitions() == maxNon {
		return CauseShufflePartitions
	}
	return CauseCountMismatch
}

// coalesceCause refines a count mismatch of join n that bucket coalescing would reconcile
// but does not (off, skipped under adaptive execution, or kept from the join's build side).
func (s *sim) coalesceCause(n *node, c Cause) Cause {
	if b, ok := s.coalesceBlocked[n.op]; ok && c == CauseCountMismatch {
		return b
	}
	return c
}

func isShuffle(n *node) bool {
	_, ok := n.op.(*plan.Exchange)
	return ok
}

// coPartitionC is the co-partitioning step of EnsureRequirements from Spark 3.3 (SPARK-35703):
// each child with a ClusteredDistribution gets a ShuffleSpec; the best spec that can create
// partitioning (un-shuffled first, then most partitions, then leftmost; only counts of at least
// spark.sql.shuffle.partitions when every candidate is a shuffle) imposes its layout on every
// child it is not compatible with. Without a best spec every child is shuffled on its full
// keys into the default count.
func (s *sim) coPartitionC(n *node, reqs []dist, why []sideWhy) {
	var idx []int
	for i, d := range reqs {
		if d.kind == plan.ClusteredDistribution {
			idx = append(idx, i)
		}
	}
	if len(idx) <= 1 {
		return
	}
	if s.b.SinglePartitionShortcut && s.singlePartitionsStay(n, idx) {
		return
	}
	if ok, _ := s.keyGroupCompatible(n, reqs); ok {
		return
	}
	specs := map[int]shuffleSpec{}
	for _, i := range idx {
		specs[i] = s.specs.spec(s.partitioning(n.kids[i]), reqs[i])
	}
	best := s.bestShuffleSpec(n, idx, specs)
	summary, described := "", false
	for _, i := range idx {
		if best >= 0 && specs[best].isCompatibleWith(specs[i]) {
			continue
		}
		if !described {
			// Before the first side is replaced, and only when one is (see coPartitionAB).
			summary, described = s.countsSummary(n, idx), true
		}
		s.reshuffleSide(n, i, best, reqs, specs, why, summary)
	}
}

// singlePartitionsStay reports whether every clustered child (idx) is a single partition no
// larger than spark.sql.maxSinglePartitionBytes, which SPARK-41986 leaves as it is.
func (s *sim) singlePartitionsStay(n *node, idx []int) bool {
	limit := s.opt.MaxSinglePartitionBytes()
	for _, i := range idx {
		k := n.kids[i]
		if s.partitioning(k).kind != plan.SinglePartition || (limit >= 0 && (k.size < 0 || k.size > limit)) {
			return false
		}
	}
	return true
}

// bestShuffleSpec picks the child whose spec imposes its layout on the others: among specs
// that can create partitioning, un-shuffled children first, then the most partitions, then
// the leftmost; when every candidate is a shuffle only counts of at least
// spark.sql.shuffle.partitions qualify. It returns -1 when no child qualifies.
func (s *sim) bestShuffleSpec(n *node, idx []int, specs map[int]shuffleSpec) int {
	minPar := true
	for _, i := range idx {
		if s.canCreatePartitioning(specs[i]) && !isShuffle(n.kids[i]) {
			minPar = false
		}
	}
	best := -1
	for _, pass := range []bool{false, true} {
		for _, i := range idx {
			if !s.canCreatePartitioning(specs[i]) || isShuffle(n.kids[i]) != pass {
				continue
			}
			if minPar && s.partitioning(n.kids[i]).numPartitions() < s.opt.ShufflePartitions() {
				continue
			}
			if best < 0 || specs[i].n > specs[best].n {
				best = i
			}
		}
		if best >= 0 {
			break
		}
	}
	return best
}

// reshuffleSide shuffles child i of n, which is not compatible with the best spec: into the
// best spec's layout on its own keys, or, without a best spec (best < 0), on its full keys
// into the required or default count; why[i] records the reason.
func (s *sim) reshuffleSide(n *node, i, best int, reqs []dist, specs map[int]shuffleSpec, why []sideWhy, summary string) {
	child := n.kids[i]
	what := describeRel(child)
	if why[i].added {
		what = describeRel(child.child())
	}
	switch {
	case why[i].text == "" && specs[i].kind == plan.KeyGroupedPartitioning:
		why[i].cause = s.keyGroupedCause(specs[i], specs)
		if _, msg := s.keyGroupCompatible(n, reqs); msg != "" {
			summary = msg
		}
	case why[i].text == "":
		why[i].cause = s.coalesceCause(n, incompatibleCause(child, specs[i], best, specs))
	}
	var p part
	var rule string
	if best >= 0 {
		p = specs[best].createPartitioningFor(reqs[i].keys)
		rule = "to match the side that keeps its partitioning: " + describeLayout(n.kids[best], s.partitioning(n.kids[best]))
	} else {
		num := reqs[i].n
		if num == 0 {
			num = s.opt.NewShufflePartitions()
		}
		p = createPartitioning(reqs[i], num)
		rule = s.noBestRule()
		if specs[i].kind == plan.KeyGroupedPartitioning {
			rule = "because no side may impose its layout: a key-grouped (storage-partitioned) side can impose its grouping only from Spark 4.0, with spark.sql.sources.v2.bucketing.shuffle.enabled=true"
		}
	}
	n.kids[i] = s.shuffle(child, p, true)
	msg := fmt.Sprintf("%s; Spark %s re-shuffles %s as %s %s", summary, s.opt.Version(), what, p, rule)
	if why[i].text != "" {
		msg = fmt.Sprintf("%s; Spark %s shuffles it as %s %s", why[i].text, s.opt.Version(), p, rule)
	}
	why[i] = sideWhy{text: msg + s.coalesceNote(), cause: why[i].cause, added: true, stated: true}
}

// coalesceNote says that bucket coalescing was asked for but adaptive execution skipped it.
func (s *sim) coalesceNote() string {
	if !s.coalesceSkipped {
		return ""
	}
	return fmt.Sprintf(" (spark.sql.bucketing.coalesceBucketsInJoin.enabled is set, but Spark %s skips CoalesceBucketsInJoin under adaptive execution; it applies with spark.sql.adaptive.enabled=false or from Spark 3.5)", s.opt.Version())
}

func (s *sim) noBestRule() string {
	if s.opt.RequireAllClusterKeysForCoPartition() {
		return "because no side may impose its layout: a side partitioned on only some of the join keys cannot (spark.sql.requireAllClusterKeysForCoPartition=true), and already-shuffled sides below spark.sql.shuffle.partitions are re-shuffled to the default count"
	}
	return "because no side may impose its layout"
}

// countsSummary says how the children are partitioned: "orders is bucketed into 8 and
// customers into 16 on customer_id".
func (s *sim) countsSummary(n *node, idx []int) string {
	var parts []string
	for _, i := range idx {
		parts = append(parts, describeLayout(n.kids[i], s.partitioning(n.kids[i])))
	}
	if len(parts) == 2 {
		return parts[0] + " and " + parts[1]
	}
	out := ""
	for k, p := range parts {
		if k > 0 {
			out += ", "
		}
		out += p
	}
	return out
}

// incompatibleCause says why co-partitioning from 3.3 re-shuffles a side that satisfied its
// own requirement: it is partitioned on only some of the keys, or it pairs the keys with
// the partitioning columns in another order than the side that imposes its layout (best,
// -1 when none), or with another count. A side that is not a bucketed layout is a derived
// child.
func incompatibleCause(child *node, sp shuffleSpec, best int, specs map[int]shuffleSpec) Cause {
	if sp.kind != plan.HashPartitioning || !bucketedOrigin(child) {
		return CauseDerivedChild
	}
	if c := keysRelation(sp.p.keys, sp.keys); c != CauseSatisfied && c != CauseKeyOrder {
		return c
	}
	if best < 0 {
		return CauseUnknown
	}
	b := specs[best]
	if b.kind == collection && len(b.members) > 0 {
		b = b.members[0]
	}
	if b.kind != plan.HashPartitioning {
		return CauseDerivedChild
	}
	if len(b.p.keys) < len(sp.p.keys) {
		// The side imposing its layout is partitioned on fewer of the keys.
		return CauseBucketKeysSubset
	}
	mine, theirs := sp.hashKeyPositions(), b.hashKeyPositions()
	for i := range mine {
		if i >= len(theirs) || !intersects(mine[i], theirs[i]) {
			return CauseKeyOrder
		}
	}
	if sp.n != b.n {
		return CauseCountMismatch
	}
	return CauseUnknown
}

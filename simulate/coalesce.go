package simulate

import (
	"fmt"

	"github.com/bucketlint/bucketlint/plan"
)

// coalesce is CoalesceBucketsInJoin (sql/core/.../bucketing/CoalesceBucketsInJoin.scala,
// 3.1+), which runs before EnsureRequirements: for a sort-merge or shuffled hash join whose
// sides are bucketed scans (under Filter and Project; 3.5+ also through a broadcast join's
// streamed side, SPARK-43107) with keys matching each side's bucket columns as a set, and
// bucket counts that differ with the larger a multiple of the smaller within
// spark.sql.bucketing.coalesceBucketsInJoin.maxBucketRatio, the larger side is read coalesced
// to the smaller count. For a shuffled hash join only the streamed side may be coalesced.
func (s *sim) coalesce(n *node) {
	for _, k := range n.kids {
		s.coalesce(k)
	}
	big, bigSide, small, large, build := s.coalescible(n)
	switch {
	case big == nil:
		return
	case !s.opt.CoalesceBuckets():
		// Off: the join would be coalesced with the conf set, unless the version has no
		// CoalesceBucketsInJoin or adaptive execution skips it.
		if s.b.CoalesceBucketsInJoin && !s.coalesceUnderAQE {
			s.blockCoalesce(n, CauseCoalesceOff)
		}
		return
	case s.coalesceUnderAQE:
		s.blockCoalesce(n, CauseCoalesceSkipped)
		return
	case build:
		s.blockCoalesce(n, CauseJoinStrategy)
		return
	}
	big.scan.coalescedTo = small
	s.decide(n, bigSide, InsertedNone, CauseCoalesced, fmt.Sprintf("%s has %d buckets and the other side %d: bucket coalescing (spark.sql.bucketing.coalesceBucketsInJoin.enabled) reads it as %d partitions, avoiding a shuffle", big.scan.table.Name, large, small, small))
}

// blockCoalesce records that bucket coalescing would reconcile join n but does not, and why.
func (s *sim) blockCoalesce(n *node, c Cause) {
	if s.coalesceBlocked == nil {
		s.coalesceBlocked = map[plan.Node]Cause{}
	}
	s.coalesceBlocked[n.op] = c
}

// coalescible returns the side of a join CoalesceBucketsInJoin reads coalesced, whether
// the rule is enabled or not: big is the bucketed scan with more buckets (nil when the rule
// does not apply), bigSide its side, small and large the two counts. build reports a shuffled
// hash join whose build side is big, which the rule leaves alone.
func (s *sim) coalescible(n *node) (big *node, bigSide string, small, large int, build bool) {
	j := shuffleJoin(n)
	if j == nil {
		return nil, "", 0, 0, false
	}
	l, r := s.coalescibleScan(n.kids[0]), s.coalescibleScan(n.kids[1])
	if l == nil || r == nil || !keysMatchBuckets(j.LeftKeys, l.scan) || !keysMatchBuckets(j.RightKeys, r.scan) {
		return nil, "", 0, 0, false
	}
	nl, nr := l.scan.table.Buckets().NumBuckets, r.scan.table.Buckets().NumBuckets
	if nl == nr || nl <= 0 || nr <= 0 { // a count that is a template is not known
		return nil, "", 0, 0, false
	}
	big, small, bigSide = l, nr, "left"
	if nr > nl {
		big, small, bigSide = r, nl, "right"
	}
	large = max(nl, nr)
	if large%small != 0 || large/small > s.opt.CoalesceMaxRatio() {
		return nil, "", 0, 0, false
	}
	build = j.Strategy == plan.ShuffledHashJoinStrategy && ((bigSide == "left" && j.BuildSide == "BuildLeft") || (bigSide == "right" && j.BuildSide == "BuildRight"))
	return big, bigSide, small, large, build
}

// coalescibleScan is CoalesceBucketsInJoin's hasScanOperation: the bucketed scan a join side
// reads through Filter and Project (3.5+: and a broadcast join's streamed side).
func (s *sim) coalescibleScan(n *node) *node {
	for n != nil {
		switch op := n.op.(type) {
		case *plan.FileScan:
			if n.scan != nil && n.scan.bucketed {
				return n
			}
			return nil
		case *plan.Filter, *plan.ProjectExec:
			n = n.child()
		case *plan.BroadcastHashJoin:
			if !s.b.CoalesceThroughBroadcastJoin {
				return nil
			}
			n = streamed(n, op.BuildSide)
		case *plan.BroadcastNestedLoopJoin:
			if !s.b.CoalesceThroughBroadcastJoin {
				return nil
			}
			n = streamed(n, op.BuildSide)
		default:
			return nil
		}
	}
	return nil
}

func streamed(n *node, build string) *node {
	if build == "BuildLeft" {
		return n.kids[1]
	}
	return n.kids[0]
}

// keysMatchBuckets is CoalesceBucketsInJoin's satisfiesOutputPartitioning: the same number of
// keys as bucket columns, every bucket column among the keys.
func keysMatchBuckets(keys []plan.Expr, si *scanInfo) bool {
	if len(keys) != len(si.bucketCols) {
		return false
	}
	for _, a := range si.bucketCols {
		if !containsExpr(keys, a.expr) {
			return false
		}
	}
	return true
}

package workload

import (
	"strings"

	"github.com/bucketlint/bucketlint/simulate"
)

// Classify sets the causes of a site's shuffles: each a rule reports, decided once here so
// that no rule repeats another's conditions. limit is the size under which a side counts as
// small enough to broadcast; shuffleFree answers a what-if (is the join shuffle-free once
// these settings are added?). A broadcast join has no causes.
//
// Join-level causes (Site.Causes): CauseSatisfied (both sides bucketed alike on the keys, in
// the same order, and no shuffle simulated or printed: the join reads the buckets as they
// are), CauseCountMismatch (both sides bucketed on the keys with
// different counts, columns in the same order), CauseKeyOrder (on the keys, columns paired in
// another order), CauseKeyCast (key types differ and a side is bucketed), CauseCoalesceOff and
// CauseCoalesceSkipped (counts coalescing would reconcile, off or skipped under adaptive
// execution, and the join then needs no shuffle). Side causes (Side.Causes): CauseUnbucketed
// (the side's table is not bucketed while the other side is on the keys, and the side is too
// big to broadcast), CauseBucketKeysSubset/Superset/Different (its bucket columns are not the
// keys, and the other side is too big to broadcast), CauseJoinStrategy (the side is small
// enough to broadcast and the join type lets Spark build on it: a broadcast, not a layout,
// removes the shuffle; set whether or not the side shuffles), CauseShufflePartitions (before 3.3, bucketed on the keys with fewer buckets than
// spark.sql.shuffle.partitions and re-shuffled with the other side). Each holds only when
// the side (or, for join causes, the join) shuffles or may.
func (s *Site) Classify(limit int64, shuffleFree func(*Site, map[string]string) bool) {
	j := s.Join()
	for _, side := range s.Sides() {
		side.Cause = s.Explain(side).Cause
	}
	if s.Broadcast {
		return
	}
	lm, rm := j.Left.Match(), j.Right.Match()
	order, cast := j.OrderMismatch(), j.TypeMismatch()
	bothExact := lm == simulate.ExactKeys && rm == simulate.ExactKeys
	if bothExact && !order && !s.Left.Shuffled && !s.Right.Shuffled {
		if n := s.Left.Table.Buckets().NumBuckets; n > 0 && n == s.Right.Table.Buckets().NumBuckets {
			s.Causes = s.Causes.With(simulate.CauseSatisfied)
		}
	}
	if s.AnyShuffle() {
		if bothExact && !order {
			ln, rn := s.Left.Table.Buckets().NumBuckets, s.Right.Table.Buckets().NumBuckets
			if ln != rn && ln > 0 && rn > 0 {
				s.Causes = s.Causes.With(simulate.CauseCountMismatch)
				if c := coalesceCause(s, ln, rn, cast >= 0, shuffleFree); c != simulate.CauseUnknown {
					s.Causes = s.Causes.With(c)
				}
			}
		}
		if order {
			s.Causes = s.Causes.With(simulate.CauseKeyOrder)
		}
		if cast >= 0 && (simulate.BucketedTable(s.Left.Table) || simulate.BucketedTable(s.Right.Table)) {
			s.Causes = s.Causes.With(simulate.CauseKeyCast)
		}
	}
	for i, side := range s.Sides() {
		if broadcastable(side, limit) && canBuild(s.Type, i) {
			side.Causes = side.Causes.With(simulate.CauseJoinStrategy)
		}
	}
	for i, side := range s.Sides() {
		other := s.Other(side)
		if !s.Shuffles(side) {
			continue
		}
		m, om := j.Sides()[i].Match(), j.Sides()[1-i].Match()
		switch {
		case m != simulate.ExactKeys && m != simulate.NotBucketed && !other.Causes.Has(simulate.CauseJoinStrategy):
			side.Causes = side.Causes.With(m.Cause())
		case m == simulate.NotBucketed && om == simulate.ExactKeys && side.Table != nil && side.Table.Buckets() == nil &&
			!side.Causes.Has(simulate.CauseJoinStrategy):
			side.Causes = side.Causes.With(simulate.CauseUnbucketed)
		}
	}
	shufflePartitions(s, j, cast >= 0)
}

// coalesceCause says whether bucket coalescing would remove the shuffle of a join of counts
// ln and rn that it does not coalesce: off (CauseCoalesceOff) or skipped under adaptive
// execution before 3.5 (CauseCoalesceSkipped), when the version has the rule, the ratio is
// within spark.sql.bucketing.coalesceBucketsInJoin.maxBucketRatio, no key is cast, and the
// join simulated with coalescing (and without adaptive execution where it skips it) needs no
// shuffle. CauseUnknown otherwise.
func coalesceCause(s *Site, ln, rn int, cast bool, shuffleFree func(*Site, map[string]string) bool) simulate.Cause {
	o := s.Options
	b := o.Behaviour()
	enabled := o.CoalesceBuckets()
	skipped := enabled && o.Adaptive() && !b.CoalesceBucketsUnderAQE
	hi, lo := max(ln, rn), min(ln, rn)
	if !b.CoalesceBucketsInJoin || (enabled && !skipped) || cast || hi%lo != 0 || hi/lo > o.CoalesceMaxRatio() {
		return simulate.CauseUnknown
	}
	try := map[string]string{simulate.ConfCoalesceBuckets: "true"}
	if skipped {
		try[simulate.ConfAdaptive] = "false"
	}
	if shuffleFree == nil || !shuffleFree(s, try) {
		return simulate.CauseUnknown
	}
	if skipped {
		return simulate.CauseCoalesceSkipped
	}
	return simulate.CauseCoalesceOff
}

// shufflePartitions marks the sides a join before Spark 3.3 re-shuffles only because their
// bucket count is below spark.sql.shuffle.partitions: bucketed on the keys with fewer buckets,
// and the join shuffles the other side (simulated or printed), or would (not simulated: the
// other side is known and not bucketed alike).
func shufflePartitions(s *Site, j *simulate.Join, cast bool) {
	if s.Options.Behaviour().CoPartition.ShuffleSpecs() {
		return
	}
	sp := s.Options.ShufflePartitions()
	for i, side := range s.Sides() {
		other := s.Other(side)
		b, o := j.Sides()[i], j.Sides()[1-i]
		if b.Match() != simulate.ExactKeys || side.Table.Buckets().NumBuckets >= sp {
			continue
		}
		n := side.Table.Buckets().NumBuckets
		if s.Known {
			if !side.Shuffled || !other.Shuffled {
				continue
			}
		} else if other.Table == nil || (o.Match() == simulate.ExactKeys && other.Table.Buckets().NumBuckets == n && !cast) {
			continue
		}
		side.Causes = side.Causes.With(simulate.CauseShufflePartitions)
	}
}

// broadcastable reports whether a side's table is known to be small enough to broadcast.
func broadcastable(s *Side, limit int64) bool {
	return s.Table != nil && s.Table.SizeInBytes > 0 && s.Table.SizeInBytes <= limit
}

// canBuild reports whether a join type lets Spark broadcast side i (0 left, 1 right).
func canBuild(joinType string, i int) bool {
	switch strings.ToLower(joinType) {
	case "fullouter":
		return false
	case "leftouter", "leftsemi", "leftanti":
		return i == 1
	case "rightouter":
		return i == 0
	}
	return true
}

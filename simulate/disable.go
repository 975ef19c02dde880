package simulate

import "github.com/bucketlint/bucketlint/plan"

// disableUnnecessaryBucketedScans is DisableUnnecessaryBucketedScan
// (sql/core/.../bucketing/DisableUnnecessaryBucketedScan.scala, 3.1+), run after
// EnsureRequirements: a bucketed scan is read as a plain scan when no ancestor requires a
// clustered distribution (or AllTuples), or when an Exchange lies between it and the nearest
// such ancestor with only Sort, Project, Filter and partial aggregates on the way. It never
// changes the exchanges, only the scan's parallelism and explain text. In 3.1 a scan with
// bucket pruning is never disabled.
func (s *sim) disableUnnecessaryBucketedScans(root *node) {
	if !s.opt.BucketingEnabled() || !s.opt.AutoBucketedScan() {
		return
	}
	s.disableWalk(root, false, false, true)
}

func (s *sim) disableWalk(n *node, interesting, exchange, allowed bool) {
	if s.hasInterestingPartition(n) {
		for _, k := range n.kids {
			s.disableWalk(k, true, false, true)
		}
		return
	}
	switch n.op.(type) {
	case *plan.Exchange, *plan.BroadcastExchange:
		// BroadcastExchangeExec is an Exchange too.
		for _, k := range n.kids {
			s.disableWalk(k, interesting, true, allowed)
		}
		return
	case *plan.FileScan:
		si := n.scan
		if si == nil || !si.bucketed {
			return
		}
		if si.pruned && !s.b.DisablePrunedBucketedScan {
			return
		}
		if !interesting || (exchange && allowed) {
			si.disabled = true
		}
		return
	}
	allowed = allowed && allowedUnary(n)
	for _, k := range n.kids {
		s.disableWalk(k, interesting, exchange, allowed)
	}
}

func (s *sim) hasInterestingPartition(n *node) bool {
	for _, d := range s.required(n) {
		switch d.kind {
		case plan.ClusteredDistribution, plan.HashClusteredDistribution, plan.AllTuples:
			return true
		}
	}
	return false
}

func allowedUnary(n *node) bool {
	switch n.op.(type) {
	case *plan.Sort, *plan.ProjectExec, *plan.Filter:
		return true
	}
	if g, ok := plan.AggregateOf(n.op); ok {
		// A partial aggregate: requiredChildDistributionExpressions is empty.
		return g.Mode == plan.PartialAggregate
	}
	return false
}

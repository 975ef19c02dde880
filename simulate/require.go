package simulate

import (
	"github.com/bucketlint/bucketlint/plan"
)

// A dist is a required child distribution (catalyst.plans.physical.Distribution).
type dist struct {
	kind plan.DistributionKind
	keys []plan.Expr
	// orders are OrderedDistribution's keys.
	orders []plan.SortOrder
	// requireAll is ClusteredDistribution.requireAllClusterKeys (3.3+).
	requireAll bool
	// n is requiredNumPartitions, 0 when any count will do.
	n int
}

func unspecified() dist { return dist{kind: plan.UnspecifiedDistribution} }

// String prints the distribution as Spark names it.
func (d dist) String() string {
	switch d.kind {
	case plan.ClusteredDistribution, plan.HashClusteredDistribution:
		return string(d.kind) + "(" + exprsText(d.keys) + ")"
	}
	return string(d.kind)
}

// clustered is the distribution an operator clustering on keys requires: a
// ClusteredDistribution (requireAllClusterKeys from spark.sql.requireAllClusterKeysForDistribution,
// 3.3+), or AllTuples without keys.
func (s *sim) clustered(keys []plan.Expr) dist {
	if len(keys) == 0 {
		return dist{kind: plan.AllTuples, n: 1}
	}
	return dist{kind: plan.ClusteredDistribution, keys: keys, requireAll: s.opt.RequireAllClusterKeysForDistribution()}
}

// joinDist is ShuffledJoin.requiredChildDistribution (SortMergeJoinExec and
// ShuffledHashJoinExec in 3.0): HashClusteredDistribution of each side's keys in 3.0–3.2,
// ClusteredDistribution from 3.3 (SPARK-35703).
func (s *sim) joinDist(keys []plan.Expr) dist {
	if s.b.CoPartition.ShuffleSpecs() {
		return dist{kind: plan.ClusteredDistribution, keys: keys, requireAll: s.opt.RequireAllClusterKeysForDistribution()}
	}
	return dist{kind: plan.HashClusteredDistribution, keys: keys}
}

// required is SparkPlan.requiredChildDistribution for the operators modelled, one per child.
func (s *sim) required(n *node) []dist {
	if n.fixedReq != nil {
		return n.fixedReq
	}
	switch op := n.op.(type) {
	case *plan.SortMergeJoin:
		if op.Skew {
			return []dist{unspecified(), unspecified()}
		}
		return []dist{s.joinDist(op.LeftKeys), s.joinDist(op.RightKeys)}
	case *plan.ShuffledHashJoin:
		return []dist{s.joinDist(op.LeftKeys), s.joinDist(op.RightKeys)}
	case *plan.BroadcastHashJoin:
		return broadcastSides(op.BuildSide)
	case *plan.BroadcastNestedLoopJoin:
		return broadcastSides(op.BuildSide)
	case *plan.HashAggregate, *plan.ObjectHashAggregate, *plan.SortAggregate:
		// BaseAggregateExec.requiredChildDistribution: nothing for the partial aggregates,
		// the grouping keys for PartialMerge and Final.
		g, _ := plan.AggregateOf(op)
		if g.Mode == plan.PartialAggregate {
			return []dist{unspecified()}
		}
		return []dist{s.clustered(g.Keys)}
	case *plan.Window:
		return []dist{s.clustered(op.PartitionKeys)}
	case *plan.Sort:
		if op.Global {
			return []dist{{kind: plan.OrderedDistribution, orders: op.Orders}}
		}
	case *plan.Generic:
		if op.Name == "GlobalLimit" {
			return []dist{{kind: plan.AllTuples, n: 1}}
		}
	}
	out := make([]dist, len(n.kids))
	for i := range out {
		out[i] = unspecified()
	}
	return out
}

func broadcastSides(build string) []dist {
	if build == "BuildLeft" {
		return []dist{{kind: plan.BroadcastDistribution}, unspecified()}
	}
	return []dist{unspecified(), {kind: plan.BroadcastDistribution}}
}

// requiredOrdering is SparkPlan.requiredChildOrdering: SortMergeJoinExec needs each side
// sorted on its keys; WindowExec on its partition keys then its order keys.
func (s *sim) requiredOrdering(n *node) [][]plan.SortOrder {
	switch op := n.op.(type) {
	case *plan.SortMergeJoin:
		return [][]plan.SortOrder{ascending(op.LeftKeys), ascending(op.RightKeys)}
	case *plan.Window:
		return [][]plan.SortOrder{append(ascending(op.PartitionKeys), op.Orders...)}
	case *plan.SortAggregate:
		return [][]plan.SortOrder{ascending(op.Keys)}
	}
	return make([][]plan.SortOrder, len(n.kids))
}

package simulate

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// collection is PartitioningCollection, which plan.PartitioningKind has no name for.
const collection plan.PartitioningKind = "PartitioningCollection"

// A part is an operator's output partitioning (catalyst.plans.physical.Partitioning).
type part struct {
	kind    plan.PartitioningKind
	keys    []plan.Expr
	n       int
	members []part
	// anyKey marks a KeyGroupedPartitioning made under
	// spark.sql.sources.v2.bucketing.allowJoinKeysSubsetOfPartitionKeys.enabled (4.0+).
	anyKey bool
}

func hashPart(keys []plan.Expr, n int) part {
	return part{kind: plan.HashPartitioning, keys: keys, n: n}
}

func unknownPart(n int) part { return part{kind: plan.UnknownPartitioning, n: n} }

// collectionPart is PartitioningCollection(members), with its numPartitions (the first
// member's) worked out once.
func collectionPart(members []part) part {
	p := part{kind: collection, members: members}
	if len(members) > 0 {
		p.n = members[0].numPartitions()
	}
	return p
}

// numPartitions is Partitioning.numPartitions.
func (p part) numPartitions() int {
	if p.kind == collection && len(p.members) > 0 {
		if p.n > 0 {
			return p.n // collection(): the first member's, kept as a chain of joins nests them
		}
		return p.members[0].numPartitions()
	}
	if p.kind == plan.SinglePartition {
		return 1
	}
	return p.n
}

// String prints the partitioning as Spark does, without expression ids.
func (p part) String() string {
	switch p.kind {
	case plan.HashPartitioning:
		return "hashpartitioning(" + exprsText(p.keys) + ", " + itoa(p.n) + ")"
	case collection:
		var ms []string
		for _, m := range p.members {
			ms = append(ms, m.String())
		}
		return "PartitioningCollection(" + strings.Join(ms, ", ") + ")"
	case plan.UnknownPartitioning:
		return "UnknownPartitioning(" + itoa(p.n) + ")"
	case plan.RangePartitioning:
		return "rangepartitioning(" + exprsText(p.keys) + ", " + itoa(p.n) + ")"
	case plan.KeyGroupedPartitioning:
		return "KeyGroupedPartitioning(" + exprsText(p.keys) + ", " + itoa(p.n) + ")"
	}
	return string(p.kind)
}

// partitioning is SparkPlan.outputPartitioning for the operators modelled.
func (s *sim) partitioning(n *node) part {
	if p, ok := s.sealed[n]; ok {
		if p == nil {
			c := s.partitioning0(n)
			p = &c
			s.sealed[n] = p
		}
		return *p
	}
	return s.partitioning0(n)
}

// partitioning0 computes partitioning, asking for the children's.
func (s *sim) partitioning0(n *node) part {
	if n.fixed != nil {
		return *n.fixed
	}
	switch op := n.op.(type) {
	case *plan.FileScan:
		// FileSourceScanExec.outputPartitioning (3.0–4.x): hash of the bucket columns in spec
		// order into the (coalesced) bucket count when the scan is bucketed.
		si := n.scan
		if si == nil || !si.bucketed || si.disabled {
			return unknownPart(0)
		}
		nb := si.table.Buckets().NumBuckets
		if si.coalescedTo > 0 {
			nb = si.coalescedTo
		}
		var keys []plan.Expr
		for _, a := range si.bucketCols {
			keys = append(keys, a.expr)
		}
		return hashPart(keys, nb)
	case *plan.Exchange:
		p := part{kind: op.Partitioning.Kind, keys: op.Partitioning.Keys, n: op.Partitioning.NumPartitions}
		for _, o := range op.Partitioning.Orders {
			p.keys = append(p.keys, o.Expr)
		}
		return p
	case *plan.BroadcastExchange:
		return part{kind: plan.BroadcastPartitioning}
	case *plan.Filter, *plan.ProjectExec, *plan.Sort, *plan.HashAggregate, *plan.ObjectHashAggregate, *plan.SortAggregate, *plan.Window:
		// Unary operators keep their child's partitioning; ProjectExec and aggregates are
		// alias-aware (AliasAwareOutputPartitioning), which the model gets by keeping an
		// aliased column's attribute.
		return s.partitioning(n.child())
	case *plan.SortMergeJoin:
		return s.joinPartitioning(n, &op.Join)
	case *plan.ShuffledHashJoin:
		return s.joinPartitioning(n, &op.Join)
	case *plan.BroadcastHashJoin:
		return s.broadcastJoinPartitioning(n, &op.Join)
	case *plan.BroadcastNestedLoopJoin:
		return s.nestedLoopPartitioning(n, &op.Join)
	case *plan.Generic:
		switch op.Name {
		case "Expand":
			// ExpandExec: UnknownPartitioning (it rewrites the grouping columns).
			return unknownPart(s.partitioning(n.child()).numPartitions())
		case "Generate":
			// GenerateExec keeps its child's partitioning.
			return s.partitioning(n.child())
		case "CollectLimit", "GlobalLimit":
			return part{kind: plan.SinglePartition}
		case "TakeOrderedAndProject":
			return part{kind: plan.SinglePartition}
		}
	case *plan.LocalTableScan:
		return unknownPart(1)
	case *plan.Union:
		return s.unionPartitioning(n)
	}
	return unknownPart(0)
}

// unionPartitioning is UnionExec.outputPartitioning: UnknownPartitioning before Spark 4.1;
// from 4.1 (SPARK-52921, spark.sql.unionOutputPartitioning, default true) the children's
// common partitioning when every child is SinglePartition, or hash-partitioned on the same
// positions of its output into the same count.
func (s *sim) unionPartitioning(n *node) part {
	if !s.opt.UnionOutputPartitioning() || len(n.kids) == 0 {
		return unknownPart(0)
	}
	if n.nullRejected {
		// UnionExec compares the children's partitionings with ==, nullability included: an
		// inferred isnotnull filter in the children makes their output attributes non-nullable
		// while the partitionings still name the nullable scan attributes, so they never
		// match (recorded in Spark 4.3.0: joins/union_of_bucketed_then_join).
		return unknownPart(0)
	}
	first := s.partitioning(n.kids[0])
	for _, k := range n.kids {
		p := s.partitioning(k)
		switch {
		case first.kind == plan.SinglePartition && p.kind == plan.SinglePartition:
			continue
		case first.kind != plan.HashPartitioning || p.kind != plan.HashPartitioning || p.n != first.n || len(p.keys) != len(first.keys):
			return unknownPart(0)
		}
		for j, key := range p.keys {
			pos := -1
			for c, a := range k.out {
				if sameExpr(a.expr, key) {
					pos = c
					break
				}
			}
			if pos < 0 || pos >= len(n.kids[0].out) || !sameExpr(n.kids[0].out[pos].expr, first.keys[j]) {
				return unknownPart(0)
			}
		}
	}
	return first
}

// joinPartitioning is ShuffledJoin.outputPartitioning (3.1+; the same in 3.0's
// SortMergeJoinExec): both sides for inner joins, the preserved side for outer and
// existence joins, unknown for full outer joins.
func (s *sim) joinPartitioning(n *node, j *plan.Join) part {
	l, r := s.partitioning(n.kids[0]), s.partitioning(n.kids[1])
	switch j.Type {
	case "Inner", "Cross":
		return collectionPart([]part{l, r})
	case "LeftOuter", "LeftSemi", "LeftAnti":
		return l
	case "RightOuter":
		return r
	case "FullOuter":
		return unknownPart(l.numPartitions())
	}
	if strings.HasPrefix(j.Type, "ExistenceJoin") {
		return l
	}
	return unknownPart(l.numPartitions())
}

// broadcastJoinPartitioning is BroadcastHashJoinExec.outputPartitioning: the streamed side's,
// for inner joins expanded with the build keys (3.1+, up to
// spark.sql.execution.broadcastHashJoin.outputPartitioningExpandLimit combinations).
func (s *sim) broadcastJoinPartitioning(n *node, j *plan.Join) part {
	streamed, sk, bk := n.kids[0], j.LeftKeys, j.RightKeys
	if j.BuildSide == "BuildLeft" {
		streamed, sk, bk = n.kids[1], j.RightKeys, j.LeftKeys
	}
	p := s.partitioning(streamed)
	if j.Type != "Inner" && j.Type != "Cross" {
		return p
	}
	limit := s.opt.BHJExpandLimit()
	if limit <= 0 {
		return p
	}
	return expand(p, sk, bk, limit)
}

func expand(p part, streamKeys, buildKeys []plan.Expr, limit int) part {
	switch p.kind {
	case collection:
		var ms []part
		for _, m := range p.members {
			e := expand(m, streamKeys, buildKeys, limit)
			if e.kind == collection {
				ms = append(ms, e.members...)
			} else {
				ms = append(ms, e)
			}
		}
		return collectionPart(ms)
	case plan.HashPartitioning:
		combos := [][]plan.Expr{nil}
		for _, k := range p.keys {
			alts := []plan.Expr{k}
			for i, sk := range streamKeys {
				if sameExpr(sk, k) && i < len(buildKeys) {
					alts = append(alts, buildKeys[i])
				}
			}
			var next [][]plan.Expr
			for _, c := range combos {
				for _, a := range alts {
					if len(next) >= limit {
						break
					}
					next = append(next, append(append([]plan.Expr{}, c...), a))
				}
			}
			combos = next
		}
		if len(combos) == 1 {
			return p
		}
		var ms []part
		for _, c := range combos {
			ms = append(ms, hashPart(c, p.n))
		}
		return collectionPart(ms)
	}
	return p
}

// nestedLoopPartitioning is BroadcastNestedLoopJoinExec.outputPartitioning.
func (s *sim) nestedLoopPartitioning(n *node, j *plan.Join) part {
	switch {
	case j.BuildSide == "BuildRight" && (j.Type == "Inner" || j.Type == "Cross" || j.Type == "LeftOuter" || j.Type == "LeftSemi" || j.Type == "LeftAnti"):
		return s.partitioning(n.kids[0])
	case j.BuildSide == "BuildLeft" && (j.Type == "Inner" || j.Type == "Cross" || j.Type == "RightOuter"):
		return s.partitioning(n.kids[1])
	}
	return unknownPart(0)
}

// ordering is SparkPlan.outputOrdering for the operators modelled.
func (s *sim) ordering(n *node) []plan.SortOrder {
	switch op := n.op.(type) {
	case *plan.FileScan:
		// FileSourceScanExec.outputOrdering (3.0+): empty unless
		// spark.sql.legacy.bucketedTableScan.outputOrdering, one file per bucket, not coalesced.
		si := n.scan
		if si == nil || !si.bucketed || si.coalescedTo > 0 || !s.opt.LegacyOutputOrdering() || !s.opt.SingleFileBuckets[si.table.Name] {
			return nil
		}
		var es []plan.Expr
		for _, a := range si.sorted {
			es = append(es, a.expr)
		}
		return ascending(es)
	case *plan.Sort:
		return op.Orders
	case *plan.SortAggregate:
		// SortAggregateExec.outputOrdering: the grouping keys, ascending.
		return ascending(op.Keys)
	case *plan.Filter, *plan.ProjectExec, *plan.Window:
		return s.ordering(n.child())
	case *plan.SortMergeJoin:
		switch op.Type {
		case "Inner", "Cross", "LeftOuter", "LeftSemi", "LeftAnti":
			return ascending(op.LeftKeys)
		case "RightOuter":
			return ascending(op.RightKeys)
		}
	case *plan.BroadcastHashJoin:
		if op.BuildSide == "BuildLeft" {
			return s.ordering(n.kids[1])
		}
		return s.ordering(n.kids[0])
	}
	return nil
}

func itoa(n int) string {
	const digits = "0123456789"
	if n == 0 {
		return "0"
	}
	neg := n < 0
	if neg {
		n = -n
	}
	var b []byte
	for n > 0 {
		b = append([]byte{digits[n%10]}, b...)
		n /= 10
	}
	if neg {
		b = append([]byte{'-'}, b...)
	}
	return string(b)
}

package simulate

import (
	"fmt"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// describeRel names what a plan side reads, for reasons: a table name, or the operator.
func describeRel(n *node) string {
	if b := baseScan(n); b != nil && b.scan != nil {
		return b.scan.table.Name
	}
	switch op := n.op.(type) {
	case *plan.Exchange, *plan.Sort, *plan.BroadcastExchange:
		return describeRel(n.child())
	case *plan.HashAggregate, *plan.ObjectHashAggregate, *plan.SortAggregate:
		if g, _ := plan.AggregateOf(op); g.Mode != plan.FinalAggregate {
			return describeRel(n.child())
		}
		return "the aggregation over " + describeRel(n.child())
	case *plan.Union:
		return "the union"
	case *plan.Window:
		return describeRel(n.child())
	}
	if _, ok := plan.JoinOf(n.op); ok {
		names, more := tablesUnder(n)
		out := "the join of " + strings.Join(names, ", ")
		if more > 0 {
			out += fmt.Sprintf(" and %d more", more)
		}
		return out
	}
	return "the " + n.op.Info().Name + " output"
}

// describeLayout says how a side is partitioned: "orders is bucketed into 8 buckets on
// (customer_id)", "customers is shuffled into 200 partitions on (customer_id)".
func describeLayout(n *node, p part) string {
	what := describeRel(n)
	switch p.kind {
	case plan.HashPartitioning:
		if isShuffle(n) {
			return fmt.Sprintf("%s is shuffled into %d partitions on (%s)", describeRel(n.child()), p.n, exprsText(p.keys))
		}
		if b := sourceScan(n); b != nil && b.scan != nil && b.scan.bucketed {
			if b.scan.coalescedTo > 0 {
				return fmt.Sprintf("%s is bucketed into %d buckets on (%s), read coalesced into %d", what, b.scan.table.Buckets().NumBuckets, exprsText(p.keys), p.n)
			}
			return fmt.Sprintf("%s is bucketed into %d buckets on (%s)", what, p.n, exprsText(p.keys))
		}
		return fmt.Sprintf("%s is hash-partitioned into %d on (%s)", what, p.n, exprsText(p.keys))
	case collection:
		var ms []string
		for _, m := range p.members {
			if m.kind == plan.HashPartitioning {
				ms = append(ms, "("+exprsText(m.keys)+")")
			}
		}
		return fmt.Sprintf("%s is hash-partitioned into %d on %s", what, p.numPartitions(), strings.Join(ms, " and "))
	case plan.SinglePartition:
		return what + " is a single partition"
	case plan.KeyGroupedPartitioning:
		if isShuffle(n) {
			return fmt.Sprintf("%s is shuffled into the key grouping (%s), %s", describeRel(n.child()), exprsText(p.keys), countText(p.n))
		}
		return fmt.Sprintf("%s is key-grouped (storage-partitioned) by (%s) into %s", what, exprsText(p.keys), countText(p.n))
	}
	return what + " has " + p.String()
}

// whyNotSatisfied explains why a child's partitioning does not satisfy its requirement, in
// words and as a Cause.
func (s *sim) whyNotSatisfied(child *node, p part, d dist) (string, Cause) {
	keys := exprsText(d.keys)
	b := sourceScan(child)
	switch {
	case d.kind == plan.AllTuples:
		return describeRel(child) + " must be gathered into one partition (no grouping keys)", CauseSinglePartition
	case d.kind == plan.OrderedDistribution:
		return "ORDER BY needs a range partitioning of " + describeRel(child), CauseRangePartitioning
	case p.kind == plan.KeyGroupedPartitioning:
		return s.whyNotKeyGrouped(child, p, d)
	case b != nil && b.scan != nil && !b.scan.bucketed:
		return b.scan.notBucketed, b.scan.cause
	case p.kind == plan.HashPartitioning && castOfPartitionKey(d.keys, p.keys) != "":
		return fmt.Sprintf("%s; the key %s is a cast, which never matches the bucket column (Spark compares expressions, and cast(a) is not a)", describeLayout(child, p), castOfPartitionKey(d.keys, p.keys)), CauseKeyCast
	case p.kind == plan.HashPartitioning && d.kind == plan.HashClusteredDistribution:
		return fmt.Sprintf("%s but the keys are (%s); Spark %s (HashClusteredDistribution) needs the partitioning columns to equal the keys exactly", describeLayout(child, p), keys, s.opt.Version()), keysCause(child, p.keys, d.keys)
	case p.kind == plan.HashPartitioning && d.requireAll:
		return fmt.Sprintf("%s but the keys are (%s); spark.sql.requireAllClusterKeysForDistribution=true needs them equal and in order", describeLayout(child, p), keys), keysCause(child, p.keys, d.keys)
	case p.kind == plan.HashPartitioning:
		return fmt.Sprintf("%s but not every partitioning column is among the keys (%s)", describeLayout(child, p), keys), keysCause(child, p.keys, d.keys)
	}
	if overExpand(child) {
		return fmt.Sprintf("Expand (grouping sets, or DISTINCT aggregates over different columns, which Spark rewrites into one row per group) reports no partitioning, so nothing below it is partitioned by (%s)", keys), CauseDerivedChild
	}
	return fmt.Sprintf("%s is not partitioned by (%s) (its partitioning is %s)", describeRel(child), keys, p), CauseDerivedChild
}

// keysCause classifies a hash partitioning on pkeys against the keys an operator needs: the
// partitioning columns are some of the keys, all of them in another order, more than the
// keys, or other columns. A partitioning that no bucketed scan gives (a shuffle's below an
// aggregate, a union's) is a derived child's.
func keysCause(child *node, pkeys, keys []plan.Expr) Cause {
	if !bucketedOrigin(child) {
		return CauseDerivedChild
	}
	if c := keysRelation(pkeys, keys); c != CauseSatisfied {
		return c
	}
	// The keys match: what is not satisfied is the partition count the operator requires.
	return CauseCountMismatch
}

// keysRelation compares the partitioning columns pkeys with the keys.
func keysRelation(pkeys, keys []plan.Expr) Cause {
	in, out := subsetOf(pkeys, keys), subsetOf(keys, pkeys)
	switch {
	case in && out && sameExprs(pkeys, keys):
		return CauseSatisfied
	case in && out:
		return CauseKeyOrder
	case in:
		return CauseBucketKeysSubset
	case out:
		return CauseBucketKeysSuperset
	}
	return CauseBucketKeysDifferent
}

// bucketedOrigin reports whether a side's partitioning comes from a bucketed scan below it,
// with no shuffle in between.
func bucketedOrigin(n *node) bool {
	switch {
	case n == nil || isShuffle(n):
		return false
	case n.fixed != nil:
		// A cached relation's (or a test operator's) given partitioning.
		return true
	case isScan(n):
		return n.scan != nil && n.scan.bucketed
	}
	for _, k := range n.kids {
		if bucketedOrigin(k) {
			return true
		}
	}
	return false
}

// overExpand reports an Expand below n through unary operators other than an Exchange.
func overExpand(n *node) bool {
	for m := n; m != nil && !isShuffle(m); m = m.child() {
		if g, ok := m.op.(*plan.Generic); ok && g.Name == "Expand" {
			return true
		}
		if len(m.kids) != 1 {
			return false
		}
	}
	return false
}

// sourceScan is the table scan a side reads through unary operators, or nil. A shuffle on
// the way ends the search: what is above it is partitioned by the shuffle, not by the
// table's layout, so an aggregate over a shuffle of a bucketed table is not "bucketed".
func sourceScan(n *node) *node {
	for n != nil {
		if isScan(n) {
			return n
		}
		if len(n.kids) != 1 || isShuffle(n) {
			return nil
		}
		n = n.child()
	}
	return nil
}

// castOfPartitionKey returns a key that is a cast of one of the partitioning columns.
func castOfPartitionKey(keys, pkeys []plan.Expr) string {
	for _, k := range keys {
		if k.Tree() == nil || k.Tree().Op != plan.OpCast {
			continue
		}
		inner := k.Tree().Uncast()
		for _, p := range pkeys {
			if inner != nil && inner.Raw == p.Raw {
				return k.Text()
			}
		}
	}
	return ""
}

// whySatisfied explains a side that needs no shuffle.
func (s *sim) whySatisfied(child *node, d dist) string {
	p := s.partitioning(child)
	return fmt.Sprintf("%s, which satisfies %s: no shuffle", describeLayout(child, p), d)
}

// shuffleNote is appended to a reason for a shuffle: its width and where it comes from.
func (s *sim) shuffleNote(x *plan.Exchange) string {
	return fmt.Sprintf("; Spark %s shuffles it into %s", s.opt.Version(), toPart(x.Partitioning))
}

func toPart(p plan.Partitioning) part {
	return part{kind: p.Kind, keys: p.Keys, n: p.NumPartitions}
}

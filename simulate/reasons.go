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
		names := []string{}
		for _, s := range scansUnder(n) {
			if s.scan != nil {
				names = append(names, s.scan.table.Name)
			}
		}
		return "the join of " + strings.Join(names, ", ")
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
				return fmt.Sprintf("%s is bucketed into %d buckets on (%s), read coalesced into %d", what, b.scan.table.Bucket.NumBuckets, exprsText(p.keys), p.n)
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
	}
	return what + " has " + p.String()
}

// whyNotSatisfied explains why a child's partitioning does not satisfy its requirement.
func (s *sim) whyNotSatisfied(child *node, p part, d dist) string {
	keys := exprsText(d.keys)
	var cause string
	b := sourceScan(child)
	switch {
	case d.kind == plan.AllTuples:
		cause = describeRel(child) + " must be gathered into one partition (no grouping keys)"
	case d.kind == plan.OrderedDistribution:
		cause = "ORDER BY needs a range partitioning of " + describeRel(child)
	case b != nil && b.scan != nil && !b.scan.bucketed:
		cause = b.scan.notBucketed
	case p.kind == plan.HashPartitioning && castOfPartitionKey(d.keys, p.keys) != "":
		cause = fmt.Sprintf("%s; the key %s is a cast, which never matches the bucket column (Spark compares expressions, and cast(a) is not a)", describeLayout(child, p), castOfPartitionKey(d.keys, p.keys))
	case p.kind == plan.HashPartitioning && d.kind == plan.HashClusteredDistribution:
		cause = fmt.Sprintf("%s but the keys are (%s); Spark %s (HashClusteredDistribution) needs the partitioning columns to equal the keys exactly", describeLayout(child, p), keys, s.opt.Version())
	case p.kind == plan.HashPartitioning && d.requireAll:
		cause = fmt.Sprintf("%s but the keys are (%s); spark.sql.requireAllClusterKeysForDistribution=true needs them equal and in order", describeLayout(child, p), keys)
	case p.kind == plan.HashPartitioning:
		cause = fmt.Sprintf("%s but not every partitioning column is among the keys (%s)", describeLayout(child, p), keys)
	default:
		cause = fmt.Sprintf("%s is not partitioned by (%s) (its partitioning is %s)", describeRel(child), keys, p)
	}
	return cause
}

// sourceScan is the table scan a side reads through unary operators, or nil.
func sourceScan(n *node) *node {
	for n != nil {
		if isScan(n) {
			return n
		}
		if len(n.kids) != 1 {
			return nil
		}
		n = n.child()
	}
	return nil
}

// castOfPartitionKey returns a key that is a cast of one of the partitioning columns.
func castOfPartitionKey(keys, pkeys []plan.Expr) string {
	for _, k := range keys {
		if !k.IsCast() {
			continue
		}
		for _, p := range pkeys {
			if strings.Contains(k.Raw, "("+p.Raw+" ") {
				return k.Text
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

package report

import (
	"fmt"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
)

// A Shuffle is one shuffle Exchange of a plan with the reason it is there, as far as the plan
// text shows it.
type Shuffle struct {
	Exchange *plan.Exchange
	// Planner is true when Spark's planner inserted the shuffle to satisfy an operator above
	// (ShuffleOrigin ENSURE_REQUIREMENTS, or the equivalent in versions that print no origin),
	// false when the query asked for it (repartition, DISTRIBUTE BY, rebalance).
	Planner bool
	// Consumer is the nearest operator above that required the distribution; nil when none.
	Consumer plan.Node
	// Scans are the table scans below the shuffle, up to the next shuffle.
	Scans []plan.Node
	// Reason is a one-line explanation a user reads: who asked for the shuffle and what it
	// reads.
	Reason string
	// Cause is the primary cause as a value, as far as the printed plan shows it (the
	// simulator's explainer, simulate.Join.Explain and simulate.ScanCause).
	Cause simulate.Cause
}

// Shuffles returns the shuffle Exchanges of the tree under root, parents before children,
// each with its cause.
func Shuffles(root plan.Node) []Shuffle {
	var out []Shuffle
	var walk func(n plan.Node, ancestors []plan.Node)
	walk = func(n plan.Node, ancestors []plan.Node) {
		if x, ok := n.(*plan.Exchange); ok {
			out = append(out, newShuffle(x, ancestors))
		}
		next := withParent(ancestors, n)
		for _, c := range n.Children() {
			walk(c, next)
		}
	}
	if root != nil {
		walk(root, nil)
	}
	return out
}

func newShuffle(x *plan.Exchange, ancestors []plan.Node) Shuffle {
	s := Shuffle{Exchange: x, Planner: x.PlannerInserted()}
	for i := len(ancestors) - 1; i >= 0; i-- {
		if requiresDistribution(ancestors[i]) {
			s.Consumer = ancestors[i]
			break
		}
	}
	s.Scans = scansBelow(x)
	s.Reason = cause(s)
	s.Cause = primaryCause(s, ancestors)
	return s
}

// primaryCause classifies a printed shuffle: asked for by the query, an operator that needs
// one partition or a range partitioning, what the scans it reads say (a Hive table, files by
// path, bucketing disabled…), else the explainer's cause for the join it feeds, which without
// the tables' DDL is that their layouts are unknown.
func primaryCause(s Shuffle, ancestors []plan.Node) simulate.Cause {
	switch {
	case !s.Planner:
		return simulate.CauseRequested
	case s.Consumer == nil:
		return simulate.CauseUnknown
	}
	if a, ok := plan.AggregateOf(s.Consumer); ok && len(a.Keys) == 0 {
		return simulate.CauseSinglePartition
	}
	if x, ok := s.Consumer.(*plan.Sort); ok && x.Global {
		return simulate.CauseRangePartitioning
	}
	for _, sc := range s.Scans {
		// A scan the planner disabled is a symptom of the shuffle, not its cause.
		if c := simulate.ScanCause(sc); c != simulate.CauseUnknown && c != simulate.CauseScanDisabled {
			return c
		}
	}
	if j, ok := plan.JoinOf(s.Consumer); ok && len(j.LeftKeys) > 0 {
		return printedJoin(s.Consumer).Explain(sideIndex(s.Consumer, ancestors, s.Exchange)).Cause
	}
	return simulate.CauseUnknown
}

// printedJoin is a printed join as the explainer sees it: each side by its first scan, with
// no table known.
func printedJoin(n plan.Node) *simulate.Join {
	j := &simulate.Join{BucketingEnabled: true}
	for i, side := range j.Sides() {
		if kids := n.Children(); i < len(kids) {
			plan.Walk(kids[i], func(m plan.Node) bool {
				if side.Scan == nil && isScanNode(m) {
					side.Scan, side.Label = m, ScanSummary(m)
				}
				return side.Scan == nil
			})
		}
	}
	return j
}

// sideIndex is the side of join consumer (0 left, 1 right) whose input holds x, ancestors
// leading from the root to x's parent.
func sideIndex(consumer plan.Node, ancestors []plan.Node, x *plan.Exchange) int {
	var child plan.Node = x
	for i := len(ancestors) - 1; i >= 0 && ancestors[i] != consumer; i-- {
		child = ancestors[i]
	}
	if kids := consumer.Children(); len(kids) == 2 && kids[1] == child {
		return 1
	}
	return 0
}

// isScanNode reports a leaf that reads data.
func isScanNode(n plan.Node) bool {
	switch n.(type) {
	case *plan.FileScan, *plan.BatchScan, *plan.HiveTableScan, *plan.InMemoryTableScan, *plan.LocalTableScan:
		return true
	}
	return false
}

func requiresDistribution(n plan.Node) bool {
	if _, ok := plan.JoinOf(n); ok {
		return true
	}
	if _, ok := plan.AggregateOf(n); ok {
		return true
	}
	switch x := n.(type) {
	case *plan.Window:
		return true
	case *plan.Sort:
		return x.Global
	case *plan.Generic:
		// Operators that need all rows or co-located rows and that bucketlint keeps generic.
		switch x.Name {
		case "TakeOrderedAndProject", "CollectLimit", "GlobalLimit", "WindowGroupLimit", "CoGroup", "FlatMapGroupsInPandas":
			return true
		}
	}
	return false
}

// scansBelow returns the scans feeding n, not looking past another shuffle or a broadcast.
func scansBelow(n plan.Node) []plan.Node {
	var out []plan.Node
	for _, c := range n.Children() {
		plan.Walk(c, func(m plan.Node) bool {
			switch m.(type) {
			case *plan.Exchange, *plan.BroadcastExchange, *plan.ReusedExchange:
				return false
			}
			if isScanNode(m) {
				out = append(out, m)
				return false
			}
			return true
		})
	}
	return out
}

func cause(s Shuffle) string {
	var b strings.Builder
	p := s.Exchange.Partitioning
	switch {
	case !s.Planner && p.Kind == plan.RoundRobinPartitioning:
		b.WriteString("asked for by the query (repartition without keys)")
	case !s.Planner:
		fmt.Fprintf(&b, "asked for by the query (%s)", strings.ToLower(strings.ReplaceAll(s.Exchange.Origin, "_", " ")))
	case s.Consumer == nil:
		b.WriteString("inserted by the planner")
	default:
		b.WriteString("inserted by the planner for ")
		b.WriteString(Describe(s.Consumer))
	}
	if len(s.Scans) > 0 {
		b.WriteString("; reads ")
		for i, sc := range s.Scans {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(ScanSummary(sc))
		}
	}
	return b.String()
}

// Describe names an operator the way a user reads it: "SortMergeJoin Inner on [customer_id]".
func Describe(n plan.Node) string {
	name := n.Info().Name
	if j, ok := plan.JoinOf(n); ok {
		s := name + " " + plan.StripIDs(j.Type)
		if len(j.LeftKeys) > 0 {
			s += " on " + keyPairs(j)
		}
		return s
	}
	if a, ok := plan.AggregateOf(n); ok {
		if len(a.Keys) == 0 {
			return name + " (no grouping keys)"
		}
		return name + " grouping by [" + strings.Join(plan.Texts(a.Keys), ", ") + "]"
	}
	switch x := n.(type) {
	case *plan.Window:
		return "Window partitioned by [" + strings.Join(plan.Texts(x.PartitionKeys), ", ") + "]"
	case *plan.Sort:
		return "global Sort by [" + strings.Join(plan.OrderTexts(x.Orders), ", ") + "]"
	}
	return name
}

func keyPairs(j *plan.Join) string {
	l, r := plan.Texts(j.LeftKeys), plan.Texts(j.RightKeys)
	if strings.Join(l, ",") == strings.Join(r, ",") {
		return "[" + strings.Join(l, ", ") + "]"
	}
	return "[" + strings.Join(l, ", ") + "] = [" + strings.Join(r, ", ") + "]"
}

// ScanSummary describes a scan and its bucketing: "default.orders (bucketed, 8 of 8 buckets)".
func ScanSummary(n plan.Node) string {
	switch x := n.(type) {
	case *plan.FileScan:
		name := x.Table
		if name == "" {
			name = x.Format + " files by path"
		}
		return name + " (" + bucketState(x) + ")"
	case *plan.HiveTableScan:
		return x.Table + " (Hive table: never read as bucketed)"
	case *plan.BatchScan:
		return x.Table + " (DataSource V2 scan)"
	case *plan.InMemoryTableScan:
		return "cached data"
	case *plan.LocalTableScan:
		return "local rows"
	}
	return n.Info().Name
}

func bucketState(x *plan.FileScan) string {
	switch {
	case x.Bucketed != nil && !*x.Bucketed && x.BucketedReason != "":
		return "bucketed table read without bucketing: " + x.BucketedReason
	case x.Bucketed != nil && !*x.Bucketed:
		return "not read as bucketed"
	case x.TotalBuckets > 0 && x.CoalescedTo > 0:
		return fmt.Sprintf("bucketed, %d of %d buckets coalesced to %d", x.SelectedBuckets, x.TotalBuckets, x.CoalescedTo)
	case x.TotalBuckets > 0:
		return fmt.Sprintf("bucketed, %d of %d buckets", x.SelectedBuckets, x.TotalBuckets)
	case x.Bucketed != nil:
		return "bucketed"
	}
	return "not bucketed"
}

// withParent returns ancestors with n appended. The walks that use it are depth-first and
// keep no ancestor list past the call it is given to, so appending in place is safe: a child
// writes only at its own depth, which its parent's list does not reach, and a later sibling
// overwrites that slot only after the earlier sibling's walk is done. A copy per node would
// cost the square of a plan's depth (issue 14: a plan 5,000 deep took a gigabyte).
func withParent(ancestors []plan.Node, n plan.Node) []plan.Node {
	return append(ancestors, n)
}

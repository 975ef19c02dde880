package simulate

import "github.com/bucketlint/bucketlint/plan"

// A node is one operator of the plan being simulated: the plan operator that will be
// emitted, its children, its output columns and the facts the planner rules read. Children
// are linked here and copied into the operator's OpInfo.Kids when the plan is emitted.
type node struct {
	op   plan.Node
	kids []*node
	out  []attr
	// size is Spark's sizeInBytes estimate (SizeInBytesOnlyStatsPlanVisitor), -1 when
	// unknown (Spark's defaultSizeInBytes, never broadcast).
	size int64
	// rel is the relation name hints refer to (a table's alias or name) when this node is a
	// table scan, possibly under Filter and Project.
	rel  string
	scan *scanInfo
	// fixed is a given output partitioning: a cached relation's, or (with fixedReq, given
	// required child distributions) EnsureRequirementsSuite's DummySparkPlan.
	fixed    *part
	fixedReq []dist
	// nullRejected marks a union whose children get isnotnull filters on output columns.
	nullRejected bool
	// tables caches tablesUnder: the tables scanned below a node never change (the planner
	// rules wrap or unwrap its children, keeping their scans).
	tables *tableList
}

// tableList is what tablesUnder returns: the first joinNamesShown tables scanned, in plan
// order, and how many more there are.
type tableList struct {
	names []string
	more  int
}

// scanInfo is what FileSourceScanExec knows about its relation.
type scanInfo struct {
	table *plan.Table
	// bucketCols are the scan's attributes for the bucket columns, in BucketSpec order, when
	// every bucket column is read.
	bucketCols []attr
	// bucketed is FileSourceScanExec.bucketedScan; notBucketed says why not, in user words,
	// and cause as a value.
	bucketed    bool
	notBucketed string
	cause       Cause
	// disabled is set by DisableUnnecessaryBucketedScan (3.1+).
	disabled bool
	// coalescedTo is set by CoalesceBucketsInJoin (3.1+), 0 when not coalesced.
	coalescedTo int
	// pruned is set when bucket pruning applies; selected is the bucket count it leaves.
	pruned   bool
	selected int
	// sorted are the scan's attributes for the longest prefix of the sort columns read.
	sorted []attr
	// keyGrouped marks a DataSource V2 scan that reports a KeyGroupedPartitioning (its node's
	// fixed partitioning).
	keyGrouped bool
}

func (n *node) child() *node { return n.kids[0] }

func newNode(op plan.Node, out []attr, size int64, kids ...*node) *node {
	return &node{op: op, out: out, size: size, kids: kids}
}

// info names an operator as Spark's simple explain mode does.
func info(name string) plan.OpInfo { return plan.OpInfo{Name: name} }

// baseScan returns the table scan a node reads through Filter and Project only, or nil.
func baseScan(n *node) *node {
	for n != nil {
		switch n.op.(type) {
		case *plan.FileScan, *plan.HiveTableScan, *plan.BatchScan, *plan.InMemoryTableScan:
			return n
		case *plan.Filter, *plan.ProjectExec:
			n = n.child()
		default:
			return nil
		}
	}
	return nil
}

// joinNamesShown is how many of a join's tables its description names; the others are
// counted ("the join of a, b, … and 992 more"), so that the words of a chain of n joins
// do not grow with n² (issue 14).
const joinNamesShown = 8

// tablesUnder returns the names of the first joinNamesShown tables scanned below n, in plan
// order, and how many more there are. Each node's list is worked out once, from its
// children's: a chain of joins asks at every join.
func tablesUnder(n *node) (names []string, more int) {
	t := n.tablesBelow()
	return t.names, t.more
}

func (n *node) tablesBelow() *tableList {
	if n.tables != nil {
		return n.tables
	}
	t := &tableList{}
	add := func(name string) {
		if len(t.names) < joinNamesShown {
			t.names = append(t.names, name)
		} else {
			t.more++
		}
	}
	if n.scan != nil {
		add(n.scan.table.Name)
	}
	for _, k := range n.kids {
		kt := k.tablesBelow()
		for _, name := range kt.names {
			add(name)
		}
		t.more += kt.more
	}
	n.tables = t
	return t
}

func isScan(n *node) bool {
	switch n.op.(type) {
	case *plan.FileScan, *plan.HiveTableScan, *plan.BatchScan, *plan.InMemoryTableScan:
		return true
	}
	return false
}

// emit copies the linked children into each operator and returns the root operator.
func (s *sim) emit(n *node) plan.Node {
	in := n.op.Info()
	in.Kids = make([]plan.Node, len(n.kids))
	for i, k := range n.kids {
		in.Kids[i] = s.emit(k)
	}
	s.describe(n)
	return n.op
}

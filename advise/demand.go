package advise

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
)

// A demand is one operator that shuffled (or would) and could be served by a layout.
type demand struct {
	query  int
	weight float64
	// join demands: both sides' tables and key columns, pairwise.
	left, right         string
	leftKeys, rightKeys []string
	// aggregate demands: the table and grouping columns.
	table string
	keys  []string
	join  bool
	// direct is set when both join sides are table scans under Filter and Project only.
	direct bool
	// joinType is the join's type as printed ("Inner", "LeftOuter", …).
	joinType string
	// measure is what the join or aggregation cost in real runs (Options.Measure), on the
	// first demand of each distinct one only (measureDemands); nil otherwise.
	measure *Measure
}

// collect records the joins and aggregations of a simulated plan whose inputs are table
// scans (through unary operators), with the keys as plain columns.
func (a *advisor) collect(q int, w float64, r *simulate.Result) {
	if w <= 0 {
		w = 1
	}
	plan.Walk(r.Plan, func(n plan.Node) bool {
		if j, ok := plan.JoinOf(n); ok && (j.Strategy == plan.SortMergeJoinStrategy || j.Strategy == plan.ShuffledHashJoinStrategy) {
			lt, rt := tableUnder(n.Children()[0]), tableUnder(n.Children()[1])
			lk, lok := columnsOf(j.LeftKeys)
			rk, rok := columnsOf(j.RightKeys)
			if lt != "" && rt != "" && lok && rok && lt != rt {
				direct := directScan(n.Children()[0]) && directScan(n.Children()[1])
				a.demands = append(a.demands, demand{query: q, weight: w, left: lt, right: rt, leftKeys: lk, rightKeys: rk, join: true, direct: direct, joinType: j.Type})
			}
		}
		if j, ok := plan.JoinOf(n); ok && j.Strategy == plan.BroadcastHashJoinStrategy {
			lt, rt := tableUnder(n.Children()[0]), tableUnder(n.Children()[1])
			a.broadcasts = append(a.broadcasts, lt, rt)
		}
		if g, ok := plan.AggregateOf(n); ok && g.Mode == plan.FinalAggregate && len(g.Keys) > 0 {
			t := tableUnder(n.Children()[0])
			if k, ok := columnsOf(g.Keys); ok && t != "" {
				a.demands = append(a.demands, demand{query: q, weight: w, table: t, keys: k})
			}
		}
		return true
	})
}

// tableUnder is the table a plan side reads through unary operators (the input of a partial
// aggregate included), or "".
func tableUnder(n plan.Node) string {
	for n != nil {
		switch x := n.(type) {
		case *plan.FileScan:
			return x.Table
		case *plan.HiveTableScan:
			return x.Table
		case *plan.BatchScan:
			return x.Table
		}
		kids := n.Children()
		if len(kids) != 1 {
			return ""
		}
		n = kids[0]
	}
	return ""
}

// directScan reports a side that is a file scan (or a DataSource V2 scan, whose layout is its
// partition transforms) under Filter, Project and the Sort and Exchange the planner added.
func directScan(n plan.Node) bool {
	for n != nil {
		switch n.(type) {
		case *plan.FileScan, *plan.BatchScan:
			return true
		case *plan.Filter, *plan.ProjectExec, *plan.Sort, *plan.Exchange:
			n = n.Children()[0]
		default:
			return false
		}
	}
	return false
}

// columnsOf returns the columns keys name; a cast of a column counts as the column, since
// the advice writes both join sides with one type.
func columnsOf(es []plan.Expr) ([]string, bool) {
	out := make([]string, len(es))
	for i, e := range es {
		c, ok := e.Column()
		if !ok && e.IsCast() && len(e.Refs()) == 1 {
			c, ok = e.Refs()[0].Name, true
		}
		if !ok {
			return nil, false
		}
		out[i] = strings.ToLower(c)
	}
	return out, true
}

// readsTable reports whether a plan scans the table.
func readsTable(root plan.Node, name string) bool {
	found := false
	plan.Walk(root, func(n plan.Node) bool {
		if tableUnder(n) == name && len(n.Children()) == 0 {
			found = true
		}
		return !found
	})
	return found
}

// reads reports whether workload query i reads the table, as planned before the advice.
func (a *advisor) reads(i int, table string) bool {
	if a.readers == nil {
		a.readers = map[string]map[int]bool{}
	}
	m, ok := a.readers[table]
	if !ok {
		m = map[int]bool{}
		for j, r := range a.before {
			if r != nil && readsTable(r.Plan, table) {
				m[j] = true
			}
		}
		a.readers[table] = m
	}
	return m[i]
}

// joined reports whether the workload joins the table, by a broadcast or a shuffled join.
func (a *advisor) joined(name string) bool {
	for _, b := range a.broadcasts {
		if b == name {
			return true
		}
	}
	for _, d := range a.demands {
		if d.join && (d.left == name || d.right == name) {
			return true
		}
	}
	return false
}

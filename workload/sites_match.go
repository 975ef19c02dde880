package workload

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
)

// keysTable returns the one table all keys are placed in, "" when they are not.
func keysTable(keys []plan.ColumnRef) string {
	t := ""
	for _, k := range keys {
		if k.Table == "" || (t != "" && k.Table != t) {
			return ""
		}
		t = k.Table
	}
	return t
}

// newSide builds a join side from a relation of q and its keys. A CTE, a subquery or a join
// stands for the table whose layout its output keeps (layoutSource), with Via naming it.
func newSide(q *plan.Query, rel *plan.Relation, keys []plan.ColumnRef, tables map[string]*plan.Table) Side {
	s := Side{JoinSide: simulate.JoinSide{Keys: keys}}
	if rel != nil {
		s.Span = rel.Span
	}
	if rel != nil && (rel.CTE || rel.Kind == plan.SelectRel || rel.Kind == plan.JoinRel) {
		t, mapped, via := layoutSource(q, rel, keys, tables, 0)
		s.Via = via
		if t != nil {
			s.Name, s.Table, s.Keys = t.Name, t, placeKeys(mapped, t.Name)
		}
		return s
	}
	s.Name = keysTable(keys)
	if s.Name == "" && rel != nil && rel.Kind == plan.TableRel && !rel.CTE {
		s.Name = rel.Table
	}
	if s.Name != "" {
		s.Table = Lookup(tables, s.Name)
	}
	return s
}

// matchSimulated fills the sides' shuffles from the simulated join over the same tables.
func matchSimulated(s *Site, res *simulate.Result) {
	if res == nil || s.Left.Table == nil || s.Right.Table == nil {
		return
	}
	plan.Walk(res.Plan, func(n plan.Node) bool {
		if s.Known {
			return false
		}
		j, ok := plan.JoinOf(n)
		kids := n.Children()
		if !ok || len(kids) != 2 || !readsTable(kids[0], s.Left.Table.Name) || !readsTable(kids[1], s.Right.Table.Name) {
			return true
		}
		s.Known, s.Node = true, operatorOnly(n)
		if j.Strategy == plan.BroadcastHashJoinStrategy || j.Strategy == plan.BroadcastNestedLoopJoinStrategy {
			s.Broadcast = true
		}
		for _, d := range res.Decisions {
			if d.Node != n || d.Inserted != simulate.InsertedExchange {
				continue
			}
			side := &s.Left
			if d.Side == "right" {
				side = &s.Right
			}
			side.Shuffled, side.Decision = true, d.Cause
		}
		return false
	})
}

// operatorOnly is a copy of a simulated join operator without its inputs: a site keeps the
// operator, and the rest of the simulated plan is released with the simulation (what the
// sites of a 15 MB file of join queries kept was most of check's memory, issue 14).
func operatorOnly(n plan.Node) plan.Node {
	switch j := n.(type) {
	case *plan.SortMergeJoin:
		return withoutInputs(j)
	case *plan.ShuffledHashJoin:
		return withoutInputs(j)
	case *plan.BroadcastHashJoin:
		return withoutInputs(j)
	case *plan.BroadcastNestedLoopJoin:
		return withoutInputs(j)
	case *plan.CartesianProduct:
		return withoutInputs(j)
	}
	return n
}

// withoutInputs is a shallow copy of the operator n without its children and inner plans.
func withoutInputs[T any, P interface {
	*T
	plan.Node
}](n P) plan.Node {
	c := *n
	p := P(&c)
	p.Info().Kids, p.Info().Inner = nil, nil
	return p
}

// readsTable reports whether a plan reads the named table.
func readsTable(n plan.Node, name string) bool {
	found := false
	plan.Walk(n, func(m plan.Node) bool {
		if t := scanTable(m); t != "" && strings.EqualFold(strings.TrimPrefix(t, "spark_catalog."), name) {
			found = true
		}
		return !found
	})
	return found
}

// scanTable returns the table a scan reads, "" for anything else.
func scanTable(n plan.Node) string {
	switch s := n.(type) {
	case *plan.FileScan:
		return s.Table
	case *plan.HiveTableScan:
		return s.Table
	case *plan.BatchScan:
		return s.Table
	}
	return ""
}

// isBroadcastHint reports whether a hint name asks for a broadcast join.
func isBroadcastHint(name string) bool {
	switch strings.ToUpper(name) {
	case "BROADCAST", "BROADCASTJOIN", "MAPJOIN":
		return true
	}
	return false
}

// keyLabel is a key as a message shows it: as written, or its column when written as a
// string literal (a DataFrame join on names).
func keyLabel(k plan.ColumnRef) string {
	if k.Column != "" && k.NameString {
		return k.Column
	}
	return k.Text
}

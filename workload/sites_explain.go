package workload

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// explainJoins returns the joins of an explain output's physical plan (the final plan of an
// adaptive one), each side with the shuffle printed under it and the scan it reads.
func explainJoins(e *plan.Explain, tables map[string]*plan.Table) []*Site {
	var out []*Site
	plan.Walk(e.Physical(), func(n plan.Node) bool {
		j, ok := plan.JoinOf(n)
		kids := n.Children()
		if !ok || len(kids) != 2 || len(j.LeftKeys) == 0 || len(j.LeftKeys) != len(j.RightKeys) {
			return true
		}
		s := &Site{Span: n.Span(), Kind: ExplainSite, Type: plan.StripIDs(j.Type), Known: true, Node: n}
		s.Broadcast = j.Strategy == plan.BroadcastHashJoinStrategy || j.Strategy == plan.BroadcastNestedLoopJoinStrategy
		for i, side := range s.Sides() {
			keys := j.LeftKeys
			if i == 1 {
				keys = j.RightKeys
			}
			*side = ExplainSide(kids[i], keys, n.Info().Pos, tables)
		}
		out = append(out, s)
		return true
	})
	return out
}

// ExplainSide follows one input of a printed join (or of an aggregate or window) down to its
// scan, through single-input operators, noting the first planner-inserted Exchange on the
// way; keys are the operator's keys on that input, at its position, and tables the catalogue
// the scan's table is looked up in.
func ExplainSide(n plan.Node, keys []plan.Expr, at plan.Pos, tables map[string]*plan.Table) Side {
	var s Side
	for n != nil {
		switch x := n.(type) {
		case *plan.Exchange:
			if s.Exchange == nil && x.PlannerInserted() {
				s.Exchange, s.Shuffled = x, true
			}
		case *plan.ReusedExchange:
			if ex, ok := x.Reused.(*plan.Exchange); ok && s.Exchange == nil && ex.PlannerInserted() {
				s.Exchange, s.Shuffled = ex, true
			}
		case *plan.FileScan, *plan.HiveTableScan, *plan.BatchScan:
			s.Scan, s.Span = n, n.Span()
			s.Name = strings.TrimPrefix(scanTable(n), "spark_catalog.")
			if s.Name != "" {
				s.Table = Lookup(tables, s.Name)
			}
		}
		if _, ok := plan.JoinOf(n); ok || s.Scan != nil {
			break
		}
		kids := n.Children()
		if r, ok := n.(*plan.ReusedExchange); ok && r.Reused != nil {
			kids = r.Reused.Children()
		}
		if len(kids) != 1 {
			break
		}
		n = kids[0]
	}
	for _, k := range keys {
		s.Keys = append(s.Keys, exprKey(k, s.Name, at))
	}
	return s
}

// exprKey turns a printed join key into a key reference: a bare column, or a cast of one.
func exprKey(e plan.Expr, table string, at plan.Pos) plan.ColumnRef {
	k := plan.ColumnRef{Text: e.Text(), Table: table, Pos: at}
	if c, ok := e.Column(); ok {
		k.Column = strings.ToLower(c)
		return k
	}
	if x := e.Tree(); x != nil && x.Op == plan.OpCast && x.Name == "cast" && len(x.Args) == 1 && x.Args[0].Op == plan.OpColumn {
		k.Column, k.Cast = x.Args[0].Name, x.Type
	}
	return k
}

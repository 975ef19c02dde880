package simulate

import (
	"fmt"

	"github.com/bucketlint/bucketlint/plan"
)

// ensureOrdering is the ordering half of EnsureRequirements.ensureDistributionAndOrdering:
// a child whose output ordering does not start with the required ordering
// (SortOrder.orderingSatisfies) gets a local SortExec.
func (s *sim) ensureOrdering(n *node) {
	for i, req := range s.requiredOrdering(n) {
		if len(req) == 0 {
			continue
		}
		child := n.kids[i]
		if s.orderingSatisfied(child, req) {
			if _, ok := n.op.(*plan.SortMergeJoin); ok {
				s.decide(n, sideName(n, i), InsertedNone, CauseSorted, fmt.Sprintf("%s is already sorted by (%s) (one file per bucket, spark.sql.legacy.bucketedTableScan.outputOrdering=true): no sort", describeRel(child), exprsText(orderExprs(req))))
			}
			continue
		}
		st := &plan.Sort{OpInfo: info("Sort"), Orders: req}
		n.kids[i] = newNode(st, child.out, child.size, child)
		s.decide(n, sideName(n, i), InsertedSort, CauseOrdering, s.whyUnsorted(n, child, req))
	}
}

func (s *sim) whyUnsorted(n *node, child *node, req []plan.SortOrder) string {
	what := "the sort-merge join needs " + describeRel(child) + " sorted by (" + exprsText(orderExprs(req)) + ")"
	if _, ok := n.op.(*plan.Window); ok {
		what = "the window needs " + describeRel(child) + " sorted by (" + exprsText(orderExprs(req)) + ")"
	}
	if _, ok := n.op.(*plan.SortAggregate); ok {
		what = "the sort aggregate (an aggregate buffer such as max of a string is not mutable, so Spark cannot hash-aggregate) needs " + describeRel(child) + " sorted by (" + exprsText(orderExprs(req)) + ")"
	}
	switch {
	case isShuffle(child):
		return what + "; a shuffle's output is not sorted"
	case baseScan(child) != nil && baseScan(child).scan != nil && baseScan(child).scan.bucketed:
		si := baseScan(child).scan
		switch {
		case si.coalescedTo > 0:
			return what + "; a coalesced bucketed scan reports no order"
		case !s.opt.LegacyOutputOrdering():
			return what + "; bucketed scans report no sort order unless spark.sql.legacy.bucketedTableScan.outputOrdering=true (off by default since Spark 3.0)"
		case !s.opt.SingleFileBuckets[si.table.Name]:
			return what + "; Spark reports the table's order only when every bucket is one file, which is not known here (written by one task, or after repartition(n, the bucket columns), the buckets are one file each and Spark drops this Sort)"
		case len(si.sorted) == 0:
			return what + "; the table is not sorted (no SORTED BY)"
		}
		return what + "; the table is sorted by (" + attrNames(si.sorted) + "), which does not start with the keys"
	}
	return what
}

func attrNames(as []attr) string {
	out := ""
	for i, a := range as {
		if i > 0 {
			out += ", "
		}
		out += a.name
	}
	return out
}

// orderingSatisfied is SortOrder.orderingSatisfies: required is a prefix of the provided
// ordering. An inner sort-merge join's output is ordered by either side's keys
// (sameOrderExpressions).
func (s *sim) orderingSatisfied(n *node, req []plan.SortOrder) bool {
	for _, have := range s.orderings(n) {
		if len(req) > len(have) {
			continue
		}
		ok := true
		for i := range req {
			if !sameExpr(req[i].Expr, have[i].Expr) || req[i].Desc != have[i].Desc {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

func (s *sim) orderings(n *node) [][]plan.SortOrder {
	switch op := n.op.(type) {
	case *plan.SortMergeJoin:
		if op.Type == "Inner" || op.Type == "Cross" {
			return [][]plan.SortOrder{ascending(op.LeftKeys), ascending(op.RightKeys)}
		}
	case *plan.Filter, *plan.ProjectExec, *plan.Window:
		return s.orderings(n.child())
	}
	return [][]plan.SortOrder{s.ordering(n)}
}

package verify

import (
	"regexp"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// typedLiteral matches DATE '…' and TIMESTAMP '…': the engine reads the quoted text with the
// column's type, so the keyword goes.
var typedLiteral = regexp.MustCompile(`(?i)\b(DATE|TIMESTAMP|TIMESTAMP_NTZ)\s*'`)

// addWhere makes sure the query's WHERE clause is in the plan. The simulator models where
// Spark shuffles, not every predicate (it may keep a partition filter and drop the rest), so
// the whole clause is applied again in a Filter above the join (or the scan), below any
// aggregation: SQL applies WHERE to the joined rows, and a predicate already applied below
// changes nothing. It returns the plan, the condition added ("" when none) and whether the
// predicted plan had no filter at all.
func addWhere(root plan.Node, q *plan.Query) (plan.Node, string, bool) {
	if q == nil || q.Root == nil || q.Root.Kind != plan.SelectRel || q.Root.Select == nil || q.Root.Select.From == nil {
		return root, "", false
	}
	if k := q.Root.Select.From.Kind; k != plan.TableRel && k != plan.JoinRel {
		return root, "", false
	}
	where := strings.TrimSpace(q.Root.Select.Where)
	if where == "" {
		return root, "", false
	}
	had := hasFilter(root)
	cond := unqualify(plan.Expr{Raw: where, Text: where})
	var parent plan.Node
	n := root
	for {
		if _, ok := plan.JoinOf(n); ok {
			break
		}
		kids := n.Children()
		if len(kids) != 1 {
			break
		}
		parent, n = n, kids[0]
	}
	f := &plan.Filter{OpInfo: plan.OpInfo{Name: "Filter", Text: "Filter " + cond.Text, Args: cond.Text, Kids: []plan.Node{n}}, Condition: cond}
	if parent == nil {
		return f, cond.Text, !had
	}
	parent.Info().Kids[0] = f
	return root, cond.Text, !had
}

// hasFilter reports whether a plan has a Filter or a scan with partition or data filters.
func hasFilter(root plan.Node) bool {
	found := false
	plan.WalkAll(root, func(n plan.Node) bool {
		switch x := n.(type) {
		case *plan.Filter:
			found = true
		case *plan.FileScan:
			found = found || len(x.PartitionFilters) > 0 || len(x.DataFilters) > 0
		}
		return !found
	})
	return found
}

package workload

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// Through returns the column of a SELECT block's FROM relations that the block's output
// column name passes through unchanged: the column of the item of that name, aliased
// ("account_id AS acct") or not, or the name itself under a star. ok is false when the item
// of that name is an expression (a cast or a call changes the values), when no item names
// it, and when the select list has no trees.
func Through(sel *plan.Select, name string) (string, bool) {
	if sel == nil || len(sel.Items) == 0 || len(sel.ItemsX) != len(sel.Items) {
		return "", false
	}
	name = strings.ToLower(name)
	star := false
	for i, x := range sel.ItemsX {
		if x != nil && x.Op == plan.OpStar {
			star = true
			continue
		}
		if itemName(sel, i) != name {
			continue
		}
		if x != nil && x.Op == plan.OpColumn {
			return strings.ToLower(x.Name), true
		}
		return "", false
	}
	if !star {
		return "", false
	}
	return name, true
}

package explain

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// fillFormatted reads a formatted-mode operator's fields from its outline title (join type
// and build side, scanned table) and its detail block (formats.md §5), whose values are never
// truncated.
func fillFormatted(n plan.Node, title, rest string, skew bool, d *detail) {
	args, _ := plan.SplitArgs(d.value("Arguments"))
	switch x := n.(type) {
	case *plan.Exchange:
		exchangeArgs(x, args)
	case *plan.BroadcastExchange:
		broadcastArgs(x, args)
	case *plan.ReusedExchange:
		if d != nil {
			x.ReusesID = d.reuses
		}
		x.Output, _ = exprList(d.value("Output"))
	case *plan.Sort:
		sortArgs(x, args)
	case *plan.Window:
		windowArgs(x, args)
	case *plan.Filter:
		x.Condition = newExpr(first(d, "Condition", "Arguments"))
	case *plan.ProjectExec:
		x.Exprs, _ = exprList(first(d, "Output", "Arguments"))
	case *plan.FileScan:
		scan := strings.TrimPrefix(title, "Scan ")
		e := tokenEnd(scan)
		x.Format, x.Table = scan[:e], strings.TrimSpace(scan[e:])
		if d != nil {
			for _, f := range d.fields {
				scanField(x, f.Key, f.Value)
			}
		}
	case *plan.BatchScan:
		x.Table = rest
		x.Output, _ = exprList(d.value("Output"))
		x.Description = description(d)
	case *plan.HiveTableScan:
		x.Table = strings.TrimSpace(strings.TrimPrefix(title, "Scan hive"))
		x.Output, _ = exprList(d.value("Output"))
	case *plan.InMemoryTableScan:
		x.Output, _ = exprList(d.value("Output"))
		if len(args) > 1 {
			x.Predicates, _ = exprList(args[1])
		}
	case *plan.LocalTableScan:
		x.Output, _ = exprList(d.value("Output"))
		x.Empty = len(args) > 0 && args[0] == "<empty>"
	case *plan.AdaptiveSparkPlan:
		x.IsFinalPlan = strings.Contains(d.value("Arguments"), "isFinalPlan=true")
	case *plan.QueryStage:
		x.StageID = leadingInt(d.value("Arguments"))
	case *plan.ShuffleRead:
		x.Props = d.value("Arguments")
	}
	if j, ok := plan.JoinOf(n); ok {
		joinFields(j, rest, d)
		j.Skew = skew
	}
	if a, ok := plan.AggregateOf(n); ok {
		a.Keys, _ = exprList(d.value("Keys"))
		a.Functions, _ = exprList(d.value("Functions"))
		if d.has("Results") {
			a.Output, _ = exprList(d.value("Results"))
		}
		a.Mode = aggregateMode(a.Functions)
	}
}

// joinFields reads a formatted join: "BroadcastHashJoin Inner BuildRight" in the outline,
// "Left keys [n]", "Right keys [n]", "Join type" (3.4+) and "Join condition" in the details.
func joinFields(j *plan.Join, rest string, d *detail) {
	words := strings.Fields(rest)
	if len(words) > 0 {
		j.Type = words[0]
	}
	if len(words) > 1 {
		j.BuildSide = words[1]
	}
	if t := d.value("Join type"); t != "" {
		j.Type = t
	}
	j.LeftKeys, _ = exprList(d.value("Left keys"))
	j.RightKeys, _ = exprList(d.value("Right keys"))
	if c := d.value("Join condition"); c != "" && c != "None" {
		e := newExpr(c)
		j.Condition = &e
	}
}

// description joins a BatchScan's fields other than its output: the scan's own metadata.
func description(d *detail) string {
	if d == nil {
		return ""
	}
	var parts []string
	for _, f := range d.fields {
		if f.Key != "Output" {
			parts = append(parts, f.Key+": "+f.Value)
		}
	}
	return strings.Join(parts, ", ")
}

// first returns the value of the first of the keys the block printed: logical operators
// under a command print "Arguments" where physical ones print "Output" or "Condition".
func first(d *detail, keys ...string) string {
	for _, k := range keys {
		if d.has(k) {
			return d.value(k)
		}
	}
	return ""
}

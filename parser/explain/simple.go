package explain

import (
	"strconv"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// maxReuseDepth bounds how deep "ReusedExchange [..], ReusedExchange [..], …" text is read.
const maxReuseDepth = 4

// fillSimple reads a simple-mode operator's arguments into its fields (formats.md §7). i is the
// line and col where the operator text starts.
func (p *parser) fillSimple(n plan.Node, h head, i, col, depth int) {
	args := h.args
	at := col + h.argsCol
	var buf [splitBuf]string
	check := func(ok bool) {
		if !ok {
			p.errorf(i, at, "unbalanced brackets in %s arguments", h.name)
		}
	}
	switch x := n.(type) {
	case *plan.Exchange:
		parts, ok := plan.AppendSplitArgs(buf[:0], args)
		check(ok)
		p.exchangeArgs(x, parts)
	case *plan.BroadcastExchange:
		parts, ok := plan.AppendSplitArgs(buf[:0], args)
		check(ok)
		p.broadcastArgs(x, parts)
	case *plan.ReusedExchange:
		p.reusedSimple(x, args, i, at, depth)
	case *plan.Sort:
		parts, ok := plan.AppendSplitArgs(buf[:0], args)
		check(ok)
		p.sortArgs(x, parts)
	case *plan.Window:
		parts, ok := plan.AppendSplitArgs(buf[:0], args)
		check(ok)
		p.windowArgs(x, parts)
	case *plan.Filter:
		x.Condition = p.newExpr(args)
	case *plan.ProjectExec:
		var ok bool
		x.Exprs, ok = p.exprList(args)
		check(ok)
	case *plan.FileScan:
		p.fileScanSimple(x, args)
	case *plan.BatchScan:
		x.Table, x.Output, x.Description = p.tableColumns(args)
	case *plan.HiveTableScan:
		x.Table, x.Output, _ = p.tableColumns(args)
	case *plan.InMemoryTableScan:
		parts, ok := plan.AppendSplitArgs(buf[:0], args)
		check(ok)
		p.inMemoryArgs(x, parts)
	case *plan.LocalTableScan:
		parts, _ := plan.AppendSplitArgs(buf[:0], args)
		p.localArgs(x, parts)
	case *plan.AdaptiveSparkPlan:
		x.IsFinalPlan = strings.Contains(args, "isFinalPlan=true")
	case *plan.QueryStage:
		x.StageID = leadingInt(args)
	case *plan.ShuffleRead:
		x.Props = args
	case *plan.Subquery:
		parts, _ := plan.AppendSplitArgs(buf[:0], args)
		subqueryArgs(x, parts)
	}
	if j, ok := plan.JoinOf(n); ok {
		parts, ok := plan.AppendSplitArgs(buf[:0], args)
		check(ok)
		p.joinArgs(j, parts)
		j.Skew = h.skew
	}
	if g, ok := plan.AggregateOf(n); ok {
		check(p.aggregateArgs(g, args))
	}
}

// exchangeArgs reads "<partitioning>[, <origin>|true|false][, <advisory size>][, [plan_id=N]]".
func (a *arena) exchangeArgs(x *plan.Exchange, parts []string) {
	if len(parts) == 0 {
		return
	}
	x.Partitioning = a.partitioning(parts[0])
	for _, a := range parts[1:] {
		switch {
		case a == "true" || a == "false":
			b := a == "true"
			x.NoUserSpecifiedNumPartition = &b
		case planID(a) != "":
			x.PlanID = planID(a)
		case strings.HasPrefix(a, "coordinator["):
			// Spark 2.x adaptive mode's ExchangeCoordinator, already named in the node name.
		case isUpperIdent(a):
			x.Origin = a
		default:
			x.AdvisorySize = a
		}
	}
}

// planID returns N of "[plan_id=N]" (3.4+) or "[id=#N]" (3.0–3.3), "" for other text.
func planID(s string) string {
	if v, ok := strings.CutPrefix(s, "[plan_id="); ok {
		return strings.TrimSuffix(v, "]")
	}
	if v, ok := strings.CutPrefix(s, "[id=#"); ok {
		return strings.TrimSuffix(v, "]")
	}
	if s == "[id=#]" {
		return "#"
	}
	return ""
}

// isUpperIdent reports a shuffle origin name such as ENSURE_REQUIREMENTS.
func isUpperIdent(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c != '_' && (c < 'A' || c > 'Z') {
			return false
		}
	}
	return true
}

// broadcastArgs reads "<mode>, [plan_id=N]"; a HashedRelationBroadcastMode's key list gives Keys.
func (a *arena) broadcastArgs(x *plan.BroadcastExchange, parts []string) {
	for k, a := range parts {
		if id := planID(a); id != "" && k > 0 {
			x.PlanID = id
			continue
		}
		if x.Mode == "" {
			x.Mode = a
		}
	}
	if inner, ok := strings.CutPrefix(x.Mode, "HashedRelationBroadcastMode("); ok {
		if list, ok := strings.CutPrefix(inner, "List("); ok {
			if j := matchClose("("+list, 0); j > 0 {
				var buf [splitBuf]string
				keys, _ := plan.AppendSplitArgs(buf[:0], list[:j-1])
				x.Keys = a.exprs(keys)
			}
		}
	}
}

// reusedSimple reads "[output], <the reused exchange as printed>".
func (p *parser) reusedSimple(x *plan.ReusedExchange, args string, i, at, depth int) {
	if !strings.HasPrefix(args, "[") {
		return
	}
	j := matchClose(args, 0)
	if j < 0 {
		x.Output, _ = p.exprList(args)
		p.errorf(i, at, "unbalanced brackets in ReusedExchange arguments")
		return
	}
	x.Output, _ = p.exprList(args[:j+1])
	rest := strings.TrimLeft(args[j+1:], ", ")
	if rest == "" || depth >= maxReuseDepth {
		return
	}
	off := len(args) - len(rest)
	x.Reused = p.simpleOp(simpleHead(rest), i, at+off, depth+1)
}

// sortArgs reads "[<orders>], <global>, <testSpillFrequency>".
func (a *arena) sortArgs(x *plan.Sort, parts []string) {
	if len(parts) > 0 {
		x.Orders = a.orderList(parts[0])
	}
	if len(parts) > 1 {
		x.Global = parts[1] == "true"
	}
}

// windowArgs reads "[<window exprs>], [<partition keys>], [<orders>]".
func (a *arena) windowArgs(x *plan.Window, parts []string) {
	if len(parts) > 0 {
		x.Exprs, _ = a.exprList(parts[0])
	}
	if len(parts) > 1 {
		x.PartitionKeys, _ = a.exprList(parts[1])
	}
	if len(parts) > 2 {
		x.Orders = a.orderList(parts[2])
	}
}

// joinArgs reads the arguments of the five join operators (formats.md §7).
func (a *arena) joinArgs(j *plan.Join, parts []string) {
	var rest []string
	switch j.Strategy {
	case plan.BroadcastNestedLoopJoinStrategy:
		if len(parts) > 0 {
			j.BuildSide = parts[0]
		}
		if len(parts) > 1 {
			j.Type = parts[1]
		}
		if len(parts) > 2 {
			rest = parts[2:]
		}
	case plan.CartesianProductStrategy:
		rest = parts
	default:
		if len(parts) > 0 {
			j.LeftKeys, _ = a.exprList(parts[0])
		}
		if len(parts) > 1 {
			j.RightKeys, _ = a.exprList(parts[1])
		}
		if len(parts) > 2 {
			j.Type = parts[2]
		}
		rest = parts[min(3, len(parts)):]
		if j.Strategy != plan.SortMergeJoinStrategy && len(rest) > 0 {
			j.BuildSide, rest = rest[0], rest[1:]
		}
		if j.Strategy == plan.BroadcastHashJoinStrategy && len(rest) > 0 {
			if last := rest[len(rest)-1]; last == "true" || last == "false" {
				j.NullAware = last == "true"
				rest = rest[:len(rest)-1]
			}
		}
	}
	if len(rest) > 0 {
		c := a.newExpr(strings.Join(rest, ", "))
		j.Condition = &c
	}
}

// aggregateArgs reads "(keys=[…], functions=[…][, output=[…]])" ("key=" for SortAggregate)
// and reports whether the
// brackets balanced.
func (a *arena) aggregateArgs(g *plan.Aggregate, args string) bool {
	inner, ok := unwrap(args, '(', ')')
	var buf [splitBuf]string
	parts, balanced := plan.AppendSplitArgs(buf[:0], inner)
	for _, kv := range parts {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "keys", "key": // SortAggregateExec prints "key=[…]"
			g.Keys, _ = a.exprList(v)
		case "functions":
			g.Functions, _ = a.exprList(v)
		case "output":
			g.Output, _ = a.exprList(v)
		}
	}
	g.Mode = aggregateMode(g.Functions)
	return ok && balanced
}

// aggregateMode derives the aggregation half from the function names Spark prints:
// partial_f(…) in the map-side half, merge_f(…) (partialmerge_f(…) in 3.0–3.1 formatted
// details) when merging partial results, plain f(…) or finalmerge_f(…) in the final (or
// complete) half. It is empty when there are no functions.
func aggregateMode(fs []plan.Expr) plan.AggregateMode {
	if len(fs) == 0 {
		return ""
	}
	mode := plan.FinalAggregate
	for _, f := range fs {
		switch {
		case strings.HasPrefix(f.Raw, "partial_"):
			return plan.PartialAggregate
		case strings.HasPrefix(f.Raw, "merge_") || strings.HasPrefix(f.Raw, "partialmerge_"):
			mode = plan.PartialMerge
		}
	}
	return mode
}

// inMemoryArgs reads "[cols][, [predicates]]".
func (a *arena) inMemoryArgs(x *plan.InMemoryTableScan, parts []string) {
	if len(parts) > 0 {
		x.Output, _ = a.exprList(parts[0])
	}
	if len(parts) > 1 {
		x.Predicates, _ = a.exprList(parts[1])
	}
}

// localArgs reads "[cols]" or "<empty>, [cols]".
func (a *arena) localArgs(x *plan.LocalTableScan, parts []string) {
	for _, part := range parts {
		if part == "<empty>" {
			x.Empty = true
		} else if strings.HasPrefix(part, "[") {
			x.Output, _ = a.exprList(part)
		}
	}
}

// subqueryArgs reads "scalar-subquery#5, [id=#77]", "dynamicpruning#7, 0, [k#8], [id=#99]"
// and ReusedSubquery's "Subquery scalar-subquery#5, [id=#77]".
func subqueryArgs(x *plan.Subquery, parts []string) {
	for k, a := range parts {
		if id := planID(a); id != "" {
			x.PlanID = id
		} else if k == 0 {
			x.Ref = strings.TrimPrefix(a, "Subquery ")
		}
	}
}

// tableColumns reads "<table>[<cols>] <rest>" and "<table> [<cols>], <rest>" (BatchScan,
// Scan hive): the table may be empty.
func (a *arena) tableColumns(args string) (table string, cols []plan.Expr, rest string) {
	i := strings.IndexByte(args, '[')
	if i < 0 {
		return strings.TrimSpace(args), nil, ""
	}
	table = strings.TrimSpace(args[:i])
	j := matchClose(args, i)
	if j < 0 {
		cols, _ = a.exprList(args[i:])
		return table, cols, ""
	}
	cols, _ = a.exprList(args[i : j+1])
	return table, cols, strings.TrimLeft(args[j+1:], ", ")
}

// leadingInt returns the integer at the start of s, 0 when there is none.
func leadingInt(s string) int {
	e := 0
	for e < len(s) && s[e] >= '0' && s[e] <= '9' {
		e++
	}
	v, _ := strconv.Atoi(s[:e])
	return v
}

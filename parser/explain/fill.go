package explain

import (
	"strings"
	"unicode/utf8"

	"github.com/bucketlint/bucketlint/plan"
)

// fillFormatted reads a formatted-mode operator's fields from its outline title (join type
// and build side, scanned table) and its detail block (formats.md §5), whose values are never
// truncated.
func (a *arena) fillFormatted(n plan.Node, title, rest string, skew bool, d *detail) {
	var buf [splitBuf]string
	args := func() []string {
		parts, _ := plan.AppendSplitArgs(buf[:0], d.value("Arguments"))
		return parts
	}
	switch x := n.(type) {
	case *plan.Exchange:
		a.exchangeArgs(x, args())
	case *plan.BroadcastExchange:
		a.broadcastArgs(x, args())
	case *plan.ReusedExchange:
		if d != nil {
			x.ReusesID = d.reuses
		}
		x.Output, _ = a.exprList(d.value("Output"))
	case *plan.Sort:
		a.sortArgs(x, args())
	case *plan.Window:
		a.windowArgs(x, args())
	case *plan.Filter:
		x.Condition = a.newExpr(first(d, "Condition", "Arguments"))
	case *plan.ProjectExec:
		x.Exprs, _ = a.exprList(first(d, "Output", "Arguments"))
	case *plan.FileScan:
		scan := strings.TrimPrefix(title, "Scan ")
		e := tokenEnd(scan)
		x.Format, x.Table = scan[:e], strings.TrimSpace(scan[e:])
		if d != nil {
			for _, f := range d.fields {
				a.scanField(x, f.Key, f.Value)
			}
		}
	case *plan.BatchScan:
		x.Table = rest
		x.Output, _ = a.exprList(d.value("Output"))
		x.Description = description(d)
	case *plan.HiveTableScan:
		x.Table = strings.TrimSpace(strings.TrimPrefix(title, "Scan hive"))
		x.Output, _ = a.exprList(d.value("Output"))
	case *plan.InMemoryTableScan:
		x.Output, _ = a.exprList(d.value("Output"))
		if parts := args(); len(parts) > 1 {
			x.Predicates, _ = a.exprList(parts[1])
		}
	case *plan.LocalTableScan:
		x.Output, _ = a.exprList(d.value("Output"))
		parts := args()
		x.Empty = len(parts) > 0 && parts[0] == "<empty>"
	case *plan.AdaptiveSparkPlan:
		x.IsFinalPlan = strings.Contains(d.value("Arguments"), "isFinalPlan=true")
	case *plan.QueryStage:
		x.StageID = leadingInt(d.value("Arguments"))
	case *plan.ShuffleRead:
		x.Props = d.value("Arguments")
	}
	if j, ok := plan.JoinOf(n); ok {
		a.joinFields(j, rest, d)
		j.Skew = skew
	}
	if g, ok := plan.AggregateOf(n); ok {
		g.Keys, _ = a.exprList(d.value("Keys"))
		g.Functions, _ = a.exprList(d.value("Functions"))
		if d.has("Results") {
			g.Output, _ = a.exprList(d.value("Results"))
		}
		g.Mode = aggregateMode(g.Functions)
	}
}

// joinFields reads a formatted join: "BroadcastHashJoin Inner BuildRight" in the outline,
// "Left keys [n]", "Right keys [n]", "Join type" (3.4+) and "Join condition" in the details.
func (a *arena) joinFields(j *plan.Join, rest string, d *detail) {
	j.Type, j.BuildSide = twoWords(rest)
	if t := d.value("Join type"); t != "" {
		j.Type = t
	}
	j.LeftKeys, _ = a.exprList(d.value("Left keys"))
	j.RightKeys, _ = a.exprList(d.value("Right keys"))
	if c := d.value("Join condition"); c != "" && c != "None" {
		e := a.newExpr(c)
		j.Condition = &e
	}
}

// twoWords returns the first two words of s as strings.Fields splits it, "" for each missing.
func twoWords(s string) (first, second string) {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			f := strings.Fields(s)
			if len(f) > 0 {
				first = f[0]
			}
			if len(f) > 1 {
				second = f[1]
			}
			return first, second
		}
	}
	first, s = nextWord(s)
	second, _ = nextWord(s)
	return first, second
}

// nextWord returns the first word of ASCII s, between ASCII spaces, and the text after it.
func nextWord(s string) (word, rest string) {
	i := 0
	for i < len(s) && isASCIISpace(s[i]) {
		i++
	}
	j := i
	for j < len(s) && !isASCIISpace(s[j]) {
		j++
	}
	return s[i:j], s[j:]
}

func isASCIISpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
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

package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/bucketlint/bucketlint/parser/eventlog"
	"github.com/bucketlint/bucketlint/plan"
)

// WriteRunPlan writes one SQL execution of an event log for `plan` on a log: a header (id,
// description, duration, stages), then its plan as read, one operator a line indented by
// depth, each with the metrics Spark measured for it (those set and not zero: totals, sizes
// in binary units, times in ms or s), and shuffles marked. ex and pairs come from
// parser.ExecutedPlan; when the plan did not read (pairs nil) the log's own operator names
// are printed with their metrics.
func WriteRunPlan(w io.Writer, e *eventlog.Execution, ex *plan.Explain, pairs map[plan.Node]*eventlog.Node) error {
	var b strings.Builder
	fmt.Fprintf(&b, "execution %d: %s", e.ID, Clean(e.Description))
	if e.Ended && e.End >= e.Start {
		fmt.Fprintf(&b, " (%s", durationNs((e.End-e.Start)*1e6))
	} else {
		b.WriteString(" (no end in the log")
	}
	fmt.Fprintf(&b, ", %s)\n", plural(len(e.Stages), "stage"))
	if ex != nil && pairs != nil {
		for _, s := range ex.Plans {
			runOps(&b, s.Root, pairs, 1)
		}
	} else {
		b.WriteString("  (the plan did not read as a plan; the log's operators:)\n")
		runNodes(&b, e.Plan, 1)
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func runOps(b *strings.Builder, n plan.Node, pairs map[plan.Node]*eventlog.Node, depth int) {
	if n == nil {
		return
	}
	mark := ""
	if _, ok := n.(*plan.Exchange); ok {
		mark = "shuffle: "
	}
	fmt.Fprintf(b, "%s%s%s%s\n", strings.Repeat("  ", depth), mark, Clean(shorten(n.Info().Text, 110)), metricsText(pairs[n]))
	for _, c := range n.Children() {
		runOps(b, c, pairs, depth+1)
	}
}

func runNodes(b *strings.Builder, n *eventlog.Node, depth int) {
	if n == nil || depth > 200 {
		return
	}
	fmt.Fprintf(b, "%s%s%s\n", strings.Repeat("  ", depth), Clean(shorten(n.Name, 110)), metricsText(n))
	for _, c := range n.Children {
		runNodes(b, c, depth+1)
	}
}

func shorten(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// metricsText is an operator's measured metrics, "  [name: value; …]", "" when none.
func metricsText(n *eventlog.Node) string {
	if n == nil {
		return ""
	}
	var parts []string
	for _, m := range n.Metrics {
		if !m.Set || m.Value == 0 {
			continue
		}
		var v string
		switch m.Type {
		case "size":
			v = plan.FormatBytes(m.Value)
		case "timing":
			v = durationNs(m.Value * 1e6)
		case "nsTiming":
			v = durationNs(m.Value)
		case "average":
			continue // a sum of per-task averages means nothing
		default:
			v = thousands(m.Value)
		}
		parts = append(parts, Clean(m.Name)+": "+v)
	}
	if len(parts) == 0 {
		return ""
	}
	return "  [" + strings.Join(parts, "; ") + "]"
}

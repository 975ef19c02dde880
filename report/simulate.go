package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
)

// WriteSimulateText writes each prediction of `simulate` as Spark's simple explain mode
// prints a physical plan, then the Exchanges and Sorts inserted and why. results[i] is the
// prediction for queries[i].
func WriteSimulateText(w io.Writer, queries []*plan.Query, results []*simulate.Result) error {
	var b strings.Builder
	for i, r := range results {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "-- query %d (%s): Spark %s, co-partitioning era %s", i+1, queries[i].Span.Start, r.Version, r.Era)
		if r.Adaptive {
			b.WriteString(", adaptive execution on")
		}
		b.WriteString("\n== Physical Plan (predicted) ==\n")
		writeSparkTree(&b, r.Plan, "", "", true)
		fmt.Fprintf(&b, "\nExchanges: %d, Sorts: %d\n", r.Exchanges, r.Sorts)
		for _, d := range r.Decisions {
			fmt.Fprintf(&b, "  %s %s: %s — %s\n", d.Node.Info().Name, d.Side, d.Inserted, d.Reason)
		}
		for _, u := range r.Unmodelled {
			fmt.Fprintf(&b, "  not modelled: %s\n", u)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeSparkTree writes a plan the way Spark's TreeNode.generateTreeString does: ":- " before
// every child but the last, "+- " before the last, ":  " and "   " continuing the levels.
func writeSparkTree(b *strings.Builder, n plan.Node, prefix, marker string, last bool) {
	b.WriteString(prefix + marker + n.Info().Text + "\n")
	next := prefix
	if marker != "" {
		if last {
			next += "   "
		} else {
			next += ":  "
		}
	}
	kids := n.Children()
	for i, k := range kids {
		m := ":- "
		if i == len(kids)-1 {
			m = "+- "
		}
		writeSparkTree(b, k, next, m, i == len(kids)-1)
	}
}

// WriteSimulateMermaid writes the predicted plans as one Mermaid flowchart, rows flowing
// upwards and Exchanges filled orange.
func WriteSimulateMermaid(w io.Writer, results []*simulate.Result) error {
	var b strings.Builder
	b.WriteString("flowchart BT\n")
	id := 0
	var rec func(n plan.Node) int
	rec = func(n plan.Node) int {
		id++
		me := id
		label := strings.ReplaceAll(n.Info().Text, `"`, "'")
		if len(label) > 80 {
			label = label[:77] + "..."
		}
		fmt.Fprintf(&b, "  n%d[\"%s\"]\n", me, label)
		if _, ok := n.(*plan.Exchange); ok {
			fmt.Fprintf(&b, "  style n%d fill:#f96\n", me)
		}
		for _, k := range n.Children() {
			c := rec(k)
			fmt.Fprintf(&b, "  n%d --> n%d\n", c, me)
		}
		return me
	}
	for _, r := range results {
		rec(r.Plan)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// simulateDecisionJSON is one inserted Exchange or Sort in `simulate --format json`.
type simulateDecisionJSON struct {
	Node     string `json:"node"`
	Side     string `json:"side"`
	Inserted string `json:"inserted"`
	Reason   string `json:"reason"`
	Cause    string `json:"cause"`
}

// simulateJSON is one prediction in `simulate --format json`.
type simulateJSON struct {
	SparkVersion string                 `json:"sparkVersion"`
	Era          string                 `json:"era"`
	Adaptive     bool                   `json:"adaptive"`
	Conf         map[string]string      `json:"conf"`
	Plan         any                    `json:"plan"`
	Exchanges    int                    `json:"exchanges"`
	Sorts        int                    `json:"sorts"`
	Decisions    []simulateDecisionJSON `json:"decisions"`
	Unmodelled   []string               `json:"unmodelled"`
}

// WriteSimulateJSON writes the predictions as JSON, confs[i] being the Spark configuration
// results[i] was made under (the settings in force where its query runs): one object for one
// query, an array for several.
func WriteSimulateJSON(w io.Writer, confs []map[string]string, results []*simulate.Result) error {
	var out []simulateJSON
	for i, r := range results {
		conf := map[string]string{}
		if i < len(confs) && confs[i] != nil {
			conf = confs[i]
		}
		rj := simulateJSON{
			SparkVersion: r.Version.String(), Era: r.Era.String(), Adaptive: r.Adaptive, Conf: conf,
			Plan: NodeJSON(r.Plan), Exchanges: r.Exchanges, Sorts: r.Sorts, Decisions: []simulateDecisionJSON{}, Unmodelled: orEmpty(r.Unmodelled),
		}
		for _, d := range r.Decisions {
			rj.Decisions = append(rj.Decisions, simulateDecisionJSON{Node: d.Node.Info().Text, Side: d.Side, Inserted: d.Inserted, Reason: d.Reason, Cause: d.Cause.String()})
		}
		out = append(out, rj)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if len(out) == 1 {
		return enc.Encode(out[0])
	}
	return enc.Encode(out)
}

// orEmpty is ss, or an empty list where ss is nil, so that JSON says [] rather than null.
func orEmpty(ss []string) []string {
	if ss == nil {
		return []string{}
	}
	return ss
}

package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
	"github.com/bucketlint/bucketlint/workload"
)

// A Simulation is one query's prediction as `simulate` prints it.
type Simulation struct {
	Query  *plan.Query
	Result *simulate.Result
	// Confs are the Spark settings in force where the query runs, which Result was made under.
	Confs map[string]string
	// Unresolved are the names of the query that name resolution could not place
	// (workload.Resolved): what the prediction cannot know, said rather than guessed.
	Unresolved []workload.Unresolved
}

// WriteSimulateText writes each prediction of `simulate` as Spark's simple explain mode
// prints a physical plan, then the Exchanges and Sorts inserted and why, what is not
// modelled and the names that did not resolve.
func WriteSimulateText(w io.Writer, sims []Simulation) error {
	var b strings.Builder
	for i, sim := range sims {
		r := sim.Result
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "-- query %d (%s): Spark %s, co-partitioning era %s", i+1, sim.Query.Span.Start, r.Version, r.Era)
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
		for _, u := range sim.Unresolved {
			fmt.Fprintf(&b, "  unresolved: %s: %s\n", u.Span.Start, u)
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
func WriteSimulateMermaid(w io.Writer, sims []Simulation) error {
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
	for _, sim := range sims {
		rec(sim.Result.Plan)
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
	Unresolved   []unresolvedJSON       `json:"unresolved"`
}

// unresolvedJSON is one name that did not resolve, in `simulate --format json`.
type unresolvedJSON struct {
	Name      string   `json:"name"`
	Reason    string   `json:"reason"`
	Message   string   `json:"message"`
	File      string   `json:"file"`
	Line      int      `json:"line"`
	Column    int      `json:"column"`
	Relations []string `json:"relations"`
}

// WriteSimulateJSON writes the predictions as JSON, each with the Spark configuration it was
// made under (the settings in force where its query runs) and the names that did not
// resolve: one object for one query, an array for several.
func WriteSimulateJSON(w io.Writer, sims []Simulation) error {
	var out []simulateJSON
	for _, sim := range sims {
		r := sim.Result
		conf := sim.Confs
		if conf == nil {
			conf = map[string]string{}
		}
		rj := simulateJSON{
			SparkVersion: r.Version.String(), Era: r.Era.String(), Adaptive: r.Adaptive, Conf: conf,
			Plan: NodeJSON(r.Plan), Exchanges: r.Exchanges, Sorts: r.Sorts, Decisions: []simulateDecisionJSON{}, Unmodelled: orEmpty(r.Unmodelled),
			Unresolved: []unresolvedJSON{},
		}
		for _, d := range r.Decisions {
			rj.Decisions = append(rj.Decisions, simulateDecisionJSON{Node: d.Node.Info().Text, Side: d.Side, Inserted: d.Inserted, Reason: d.Reason, Cause: d.Cause.String()})
		}
		for _, u := range sim.Unresolved {
			rj.Unresolved = append(rj.Unresolved, unresolvedJSON{
				Name: u.Name, Reason: u.Reason.String(), Message: u.String(),
				File: u.Span.Start.File, Line: u.Span.Start.Line, Column: u.Span.Start.Col, Relations: orEmpty(u.Relations),
			})
		}
		out = append(out, rj)
	}
	if len(out) == 1 {
		return writeJSON(w, out[0])
	}
	return writeJSON(w, out)
}

// orEmpty is ss, or an empty list where ss is nil, so that JSON says [] rather than null.
func orEmpty(ss []string) []string {
	if ss == nil {
		return []string{}
	}
	return ss
}

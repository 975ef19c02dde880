package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/bucketlint/bucketlint/evidence"
	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/rules"
)

// WriteEvidenceText writes `bucketlint evidence`: the costliest shuffles on bucketable keys
// (at most limit, all when limit is 0), each with its table and keys, what it fed, the bytes
// and records it wrote over every run in the logs, its write time, and the layout that
// removes it; then what was read.
func WriteEvidenceText(w io.Writer, ev *evidence.Evidence, costs []evidence.Cost, limit int) error {
	var b strings.Builder
	if limit > 0 && len(costs) > limit {
		costs = costs[:limit]
	}
	if len(costs) == 0 {
		b.WriteString("no shuffle on the columns of one table in the logs\n\n")
	}
	for i := range costs {
		c := &costs[i]
		fmt.Fprintf(&b, "%d. %s: %s shuffled for a%s across %s in %s (%s records, write time %s)\n",
			i+1, c.Key(), plan.FormatBytes(c.Bytes), article(c.Consumer), plural(c.Runs, "run"), plural(c.Apps, "application"),
			thousands(c.Records), durationNs(c.TimeNs))
		if c.Partner != "" {
			fmt.Fprintf(&b, "   joined with %s, whose shuffle the figures include\n", c.Partner)
		}
		fmt.Fprintf(&b, "   layout that removes it: %s\n", c.Layout())
		fmt.Fprintf(&b, "   first run: %s:%d\n", c.Example.File, c.Example.Line)
	}
	fmt.Fprintf(&b, "%s, %s, %s read", plural(ev.Logs, "log"), plural(ev.Apps, "application"), plural(ev.Executions, "SQL execution"))
	fmt.Fprintf(&b, "; %s, %d on the columns of one table", plural(len(ev.Shuffles), "shuffle"), onOneTable(ev))
	if ev.Unpaired > 0 {
		fmt.Fprintf(&b, "; %s whose plan was not read", plural(ev.Unpaired, "execution"))
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func article(consumer string) string {
	switch consumer {
	case "join":
		return " join"
	case "aggregate":
		return "n aggregation"
	}
	return "nother operator"
}

func onOneTable(ev *evidence.Evidence) int {
	n := 0
	for i := range ev.Shuffles {
		if ev.Shuffles[i].Table != "" {
			n++
		}
	}
	return n
}

// MeasuredText says what a finding's join or aggregation cost in the logs: "this join
// shuffled 1.2 TiB (3,100,000 records, write time 2.0 min) across 31 runs in 31 applications".
func MeasuredText(m *rules.Measured) string {
	what := m.What
	if what == "" {
		what = "join"
	}
	return fmt.Sprintf("this %s shuffled %s (%s records, write time %s) across %s in %s in the event logs",
		what, plan.FormatBytes(m.Bytes), thousands(m.Records), durationNs(m.TimeNs), plural(m.Runs, "run"), plural(m.Apps, "application"))
}

// durationNs prints a time given in nanoseconds in milliseconds, seconds, minutes or hours.
func durationNs(ns int64) string {
	ms := ns / 1e6
	switch {
	case ms < 1000:
		return fmt.Sprintf("%d ms", ms)
	case ms < 60000:
		return fmt.Sprintf("%.1f s", float64(ms)/1000)
	case ms < 3600000:
		return fmt.Sprintf("%.1f min", float64(ms)/60000)
	}
	return fmt.Sprintf("%.1f h", float64(ms)/3600000)
}

// evidenceJSON is one cost in `evidence --format json`.
type evidenceJSON struct {
	Table      string   `json:"table"`
	Columns    []string `json:"columns"`
	Consumer   string   `json:"consumer"`
	Partner    string   `json:"partner,omitempty"`
	Bytes      int64    `json:"bytes"`
	Records    int64    `json:"records"`
	WriteNs    int64    `json:"writeTimeNs"`
	Runs       int      `json:"runs"`
	Apps       int      `json:"applications"`
	Partitions int      `json:"partitions"`
	Layout     string   `json:"layout"`
	FirstRun   string   `json:"firstRun"`
}

// WriteEvidenceJSON writes the costs (at most limit, all when 0) and what was read as JSON.
func WriteEvidenceJSON(w io.Writer, ev *evidence.Evidence, costs []evidence.Cost, limit int) error {
	if limit > 0 && len(costs) > limit {
		costs = costs[:limit]
	}
	out := struct {
		Logs       int            `json:"logs"`
		Apps       int            `json:"applications"`
		Executions int            `json:"executions"`
		Unpaired   int            `json:"executionsNotRead"`
		Shuffles   int            `json:"shuffles"`
		Costs      []evidenceJSON `json:"costs"`
	}{ev.Logs, ev.Apps, ev.Executions, ev.Unpaired, len(ev.Shuffles), []evidenceJSON{}}
	for i := range costs {
		c := &costs[i]
		out.Costs = append(out.Costs, evidenceJSON{
			Table: c.Table, Columns: c.Columns, Consumer: c.Consumer, Partner: c.Partner, Bytes: c.Bytes,
			Records: c.Records, WriteNs: c.TimeNs, Runs: c.Runs, Apps: c.Apps, Partitions: c.Partitions,
			Layout: c.Layout(), FirstRun: fmt.Sprintf("%s:%d", c.Example.File, c.Example.Line),
		})
	}
	return writeJSON(w, out)
}

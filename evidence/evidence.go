// Package evidence measures what the shuffles of real runs cost, from Spark event logs: every
// Exchange that ran, with the tables and columns its hash keys come from, the bytes and
// records it wrote, the time it took and the operator it fed (a join or an aggregation), and
// those figures summed per table and keys over every run in the logs. Check and the evidence
// command rank by them; Match attaches them to a join site.
//
// The plans come from parser.ExecutedPlan (the event log's plan tree read by the explain
// parser), the figures from parser/eventlog; a key is attributed to a table only when it is a
// column a scan under the Exchange outputs (same expression id), never by name alone.
package evidence

import (
	"fmt"
	"sort"
	"strings"

	"github.com/bucketlint/bucketlint/parser"
	"github.com/bucketlint/bucketlint/parser/eventlog"
	"github.com/bucketlint/bucketlint/plan"
)

// A Shuffle is one Exchange of one SQL execution that ran.
type Shuffle struct {
	// App and Execution name the run; Description is the execution's description.
	App         string
	Execution   int64
	Description string
	// Table is the table every key is a column of, "" when the keys are not all columns of
	// one table read by a scan under the Exchange; Keys are the hash keys as printed
	// (without expression ids), Columns the table's columns they are (when Table is set).
	Table   string
	Keys    []string
	Columns []string
	// Consumer is what the shuffle feeds: "join", "aggregate" or "other"; Partner is the
	// other side's shuffle of the same join, -1 when none or not shuffled.
	Consumer string
	Partner  int
	// Partitions is the Exchange's partition count as planned.
	Partitions int
	// Bytes, Records and TimeNs are "shuffle bytes written", "shuffle records written" and
	// "shuffle write time" of the Exchange.
	Bytes, Records, TimeNs int64
	// Pos is where the execution starts in the log.
	Pos eventlog.Pos
}

// Evidence is what a set of logs holds.
type Evidence struct {
	// Logs, Apps and Executions count what was read.
	Logs, Apps, Executions int
	// Unpaired counts executions whose plan did not read as a plan (their shuffles are missing).
	Unpaired int
	// Shuffles are every Exchange that ran, in log order.
	Shuffles []Shuffle
}

// Read reads every event log at path (a log, a rolled log's directory, or a directory of
// them) in bounded memory and returns the shuffles they ran.
func Read(path string) (*Evidence, error) {
	logs, err := eventlog.Logs(path)
	if err != nil {
		return nil, err
	}
	ev := &Evidence{}
	for _, l := range logs {
		if err := ev.add(l); err != nil {
			return ev, err
		}
	}
	return ev, nil
}

func (ev *Evidence) add(log string) error {
	var app *eventlog.App
	appID := ""
	a, err := eventlog.Read(log, eventlog.Options{}, func(e *eventlog.Execution) error {
		ev.Executions++
		if e.Plan == nil {
			return nil
		}
		_, pairs, err := parser.ExecutedPlan(log, e.Plan)
		if err != nil || pairs == nil {
			ev.Unpaired++
			return nil //nolint:nilerr // an execution whose plan does not read is counted, not fatal
		}
		ev.Shuffles = append(ev.Shuffles, shuffles(appID, e, pairs)...)
		return nil
	})
	app = a
	if err != nil {
		return err
	}
	ev.Logs++
	if app != nil {
		ev.Apps++
		for i := range ev.Shuffles {
			if ev.Shuffles[i].App == "" {
				ev.Shuffles[i].App = app.ID
			}
		}
	}
	return nil
}

// shuffles lists the Exchanges of one execution's plan with their figures.
func shuffles(app string, e *eventlog.Execution, pairs map[plan.Node]*eventlog.Node) []Shuffle {
	var root plan.Node
	for op := range pairs {
		if pairs[op] == e.Plan {
			root = op
		}
	}
	if root == nil {
		return nil
	}
	var out []Shuffle
	var walk func(n, consumer plan.Node)
	joinSides := map[plan.Node][]int{}
	walk = func(n, consumer plan.Node) {
		if x, ok := n.(*plan.Exchange); ok {
			s := Shuffle{
				App: app, Execution: e.ID, Description: e.Description, Consumer: kind(consumer), Partner: -1,
				Partitions: x.Partitioning.NumPartitions, Pos: e.Pos,
			}
			s.Keys = plan.Texts(x.Partitioning.Keys)
			s.Table, s.Columns = keyTable(x)
			if ln := pairs[n]; ln != nil {
				s.Bytes = value(ln, "shuffle bytes written")
				s.Records = value(ln, "shuffle records written")
				s.TimeNs = value(ln, "shuffle write time")
			}
			if s.Consumer == "join" {
				joinSides[consumer] = append(joinSides[consumer], len(out))
			}
			out = append(out, s)
			consumer = nil
		}
		next := consumer
		if !passThrough(n) {
			next = n
		}
		for _, c := range n.Children() {
			walk(c, next)
		}
	}
	walk(root, nil)
	for _, sides := range joinSides {
		if len(sides) == 2 {
			out[sides[0]].Partner, out[sides[1]].Partner = sides[1], sides[0]
		}
	}
	return out
}

// passThrough reports operators between an Exchange and the operator it feeds: the sort a
// sort-merge join needs, AQE's shuffle read and query stage wrappers.
func passThrough(n plan.Node) bool {
	switch n.Info().Name {
	case "Sort", "AQEShuffleRead", "CustomShuffleReader", "ShuffleQueryStage", "ReusedExchange":
		return true
	}
	return false
}

func kind(n plan.Node) string {
	switch n.(type) {
	case *plan.SortMergeJoin, *plan.ShuffledHashJoin:
		return "join"
	case *plan.HashAggregate, *plan.ObjectHashAggregate, *plan.SortAggregate:
		return "aggregate"
	}
	return "other"
}

func value(n *eventlog.Node, name string) int64 {
	if m, ok := n.Metric(name); ok {
		return m.Value
	}
	return 0
}

// keyTable returns the table every hash key of x is a column of, found by expression id
// among the outputs of the file scans under x, and those columns; "" when not one table.
func keyTable(x *plan.Exchange) (string, []string) {
	if len(x.Partitioning.Keys) == 0 {
		return "", nil
	}
	byID := map[string][2]string{}
	var scan func(n plan.Node)
	scan = func(n plan.Node) {
		if f, ok := n.(*plan.FileScan); ok && f.Table != "" {
			for _, o := range f.Output {
				if c, ok := o.Column(); ok && len(o.Refs) == 1 && o.Refs[0].ID != "" {
					byID[o.Refs[0].ID] = [2]string{f.Table, c}
				}
			}
		}
		for _, c := range n.Children() {
			scan(c)
		}
	}
	scan(x)
	table := ""
	cols := make([]string, 0, len(x.Partitioning.Keys))
	for _, k := range x.Partitioning.Keys {
		if _, ok := k.Column(); !ok || k.Refs[0].ID == "" {
			return "", nil
		}
		tc, ok := byID[k.Refs[0].ID]
		if !ok || (table != "" && tc[0] != table) {
			return "", nil
		}
		table = tc[0]
		cols = append(cols, tc[1])
	}
	return table, cols
}

// A Cost is what the shuffles of one table on one set of keys cost over every run read.
type Cost struct {
	// Table and Columns are the table and the key columns; Consumer what the shuffles fed.
	Table    string
	Columns  []string
	Consumer string
	// Partner is the table on the join's other side with its key columns, "" when none.
	Partner string
	// Bytes, Records and TimeNs are summed over Runs executions of Apps applications.
	Bytes, Records, TimeNs int64
	Runs, Apps             int
	// Partitions is the largest partition count the shuffles were planned with.
	Partitions int
	// Example is where one of the runs starts in its log.
	Example eventlog.Pos
}

// Key names the cost's table and columns: "db.t (a, b)".
func (c *Cost) Key() string { return fmt.Sprintf("%s (%s)", c.Table, strings.Join(c.Columns, ", ")) }

// Costs sums the shuffles whose keys are columns of one table, per table, columns and
// consumer, costliest first (by bytes, then time, then name).
func (ev *Evidence) Costs() []Cost {
	idx := map[string]*Cost{}
	apps := map[string]map[string]bool{}
	var order []string
	for i := range ev.Shuffles {
		s := &ev.Shuffles[i]
		if s.Table == "" {
			continue
		}
		partner := ""
		if s.Partner >= 0 {
			if p := ev.shuffleAt(i, s.Partner); p != nil && p.Table != "" {
				partner = fmt.Sprintf("%s (%s)", p.Table, strings.Join(p.Columns, ", "))
			}
		}
		k := s.Table + "\x00" + strings.Join(s.Columns, "\x00") + "\x00" + s.Consumer + "\x00" + partner
		c := idx[k]
		if c == nil {
			c = &Cost{Table: s.Table, Columns: s.Columns, Consumer: s.Consumer, Partner: partner, Example: s.Pos}
			idx[k], apps[k] = c, map[string]bool{}
			order = append(order, k)
		}
		c.Bytes += s.Bytes
		c.Records += s.Records
		c.TimeNs += s.TimeNs
		c.Runs++
		c.Partitions = max(c.Partitions, s.Partitions)
		if !apps[k][s.App] {
			apps[k][s.App] = true
			c.Apps++
		}
	}
	out := make([]Cost, 0, len(order))
	for _, k := range order {
		out = append(out, *idx[k])
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Bytes != out[j].Bytes {
			return out[i].Bytes > out[j].Bytes
		}
		if out[i].TimeNs != out[j].TimeNs {
			return out[i].TimeNs > out[j].TimeNs
		}
		return out[i].Key() < out[j].Key()
	})
	return out
}

// shuffleAt returns the shuffle at index j of the execution that holds shuffle i: Partner
// indexes are within one execution's list, which starts where that execution's first
// shuffle is.
func (ev *Evidence) shuffleAt(i, j int) *Shuffle {
	s := &ev.Shuffles[i]
	start := i
	for start > 0 && ev.Shuffles[start-1].App == s.App && ev.Shuffles[start-1].Execution == s.Execution {
		start--
	}
	if start+j < len(ev.Shuffles) {
		return &ev.Shuffles[start+j]
	}
	return nil
}

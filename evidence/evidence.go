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
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/bucketlint/bucketlint/parser"
	"github.com/bucketlint/bucketlint/parser/eventlog"
	"github.com/bucketlint/bucketlint/plan"
)

// A Shuffle is one Exchange of one SQL execution that ran.
type Shuffle struct {
	// App and Execution name the run.
	App       string
	Execution int64
	// Table is the table every key is a column of, "" when the keys are not all columns of
	// one table read by a scan under the Exchange; Keys are the hash keys as printed
	// (without expression ids), Columns the table's columns they are (when Table is set).
	Table   string
	Keys    []string
	Columns []string
	// Consumer is what the shuffle feeds: "join", "aggregate", "window" or "other"; Partner is the
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
	// Shuffles are every Exchange that ran, in log order. They are what a read keeps of a log
	// (one small record each, its strings shared with the others': see intern), so memory
	// grows with the shuffles that ran, not with the log's size.
	Shuffles []Shuffle
	// names and lists hold one copy of each table name and key list the shuffles share.
	names map[string]string
	lists map[string][]string
}

// intern returns the shuffle with its table and key lists shared with those of the shuffles
// read before: a long log runs the same queries again and again, and each copy would
// otherwise keep strings of its own.
func (ev *Evidence) intern(s Shuffle) Shuffle {
	if ev.names == nil {
		ev.names, ev.lists = map[string]string{}, map[string][]string{}
	}
	if n, ok := ev.names[s.Table]; ok {
		s.Table = n
	} else {
		ev.names[s.Table] = s.Table
	}
	for _, l := range []*[]string{&s.Keys, &s.Columns} {
		k := strings.Join(*l, "\x00")
		if shared, ok := ev.lists[k]; ok && len(shared) == len(*l) {
			*l = shared
		} else {
			*l = slices.Clip(*l) // shared: an append must not write into another shuffle's list
			ev.lists[k] = *l
		}
	}
	return s
}

// Merge adds what other read to ev.
func (ev *Evidence) Merge(other *Evidence) {
	ev.Logs += other.Logs
	ev.Apps += other.Apps
	ev.Executions += other.Executions
	ev.Unpaired += other.Unpaired
	ev.Shuffles = append(ev.Shuffles, other.Shuffles...)
}

// Read reads every event log at path (a log, a rolled log's directory, or a directory of
// them), or every application of the History Server at an http(s) URL, in bounded memory, and
// returns the shuffles they ran.
func Read(ctx context.Context, path string) (*Evidence, error) {
	ev := &Evidence{}
	if IsURL(path) {
		return ev, ev.readURL(ctx, path)
	}
	logs, err := eventlog.Logs(path)
	if err != nil {
		return nil, err
	}
	if len(logs) == 0 {
		// Reading nothing and reporting "no shuffle" would be a false clean: a directory
		// one level above the logs, or a log directory not yet written, says so instead.
		return nil, fmt.Errorf("%s: no Spark event log here (a log file, an eventlog_v2_* directory, or a directory holding them; subdirectories are not searched)", path)
	}
	for _, l := range logs {
		if err := ev.add(l); err != nil {
			return ev, err
		}
	}
	return ev, nil
}

// collect returns the callback that takes one execution's shuffles into ev.
func (ev *Evidence) collect(log string) func(*eventlog.Execution) error {
	return func(e *eventlog.Execution) error {
		ev.Executions++
		if e.Plan == nil {
			return nil
		}
		_, pairs, err := parser.ExecutedPlan(log, e.Plan)
		if err != nil || pairs == nil {
			ev.Unpaired++
			return nil //nolint:nilerr // an execution whose plan does not read is counted, not fatal
		}
		for _, sh := range shuffles("", e, pairs) {
			ev.Shuffles = append(ev.Shuffles, ev.intern(sh))
		}
		return nil
	}
}

// finish names the application of the shuffles read since start, and moves their positions.
func (ev *Evidence) finish(app *eventlog.App, start int, pos func(eventlog.Pos) eventlog.Pos) {
	if app == nil {
		return
	}
	ev.Apps++
	for i := start; i < len(ev.Shuffles); i++ {
		ev.Shuffles[i].App = app.ID
		if pos != nil {
			ev.Shuffles[i].Pos = pos(ev.Shuffles[i].Pos)
		}
	}
}

func (ev *Evidence) add(log string) error {
	start := len(ev.Shuffles)
	app, err := eventlog.Read(log, eventlog.Options{}, ev.collect(log))
	if err != nil {
		return err
	}
	ev.Logs++
	ev.finish(app, start, nil)
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
				App: app, Execution: e.ID, Consumer: kind(consumer), Partner: -1,
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
	case *plan.Window:
		return "window"
	}
	return "other"
}

func value(n *eventlog.Node, name string) int64 {
	if m, ok := n.Metric(name); ok {
		return m.Value
	}
	return 0
}

// keyTable returns the table every hash key of x is a column of (bare, or cast as Spark casts
// an int key to join a bigint one), found by expression id among the outputs of the file
// scans under x, and those columns; "" when not one table.
func keyTable(x *plan.Exchange) (string, []string) {
	if len(x.Partitioning.Keys) == 0 {
		return "", nil
	}
	byID := map[string][2]string{}
	var scan func(n plan.Node)
	scan = func(n plan.Node) {
		if f, ok := n.(*plan.FileScan); ok && f.Table != "" {
			for _, o := range f.Output {
				if c, ok := o.Column(); ok && len(o.Refs()) == 1 && o.Refs()[0].ID != "" {
					byID[o.Refs()[0].ID] = [2]string{f.Table, c}
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
		_, bare := k.Column()
		castColumn := k.IsCast() && len(k.Refs()) == 1
		if (!bare && !castColumn) || k.Refs()[0].ID == "" {
			return "", nil // an expression of columns is no table's column
		}
		tc, ok := byID[k.Refs()[0].ID]
		if !ok || (table != "" && tc[0] != table) {
			return "", nil
		}
		table = tc[0]
		cols = append(cols, tc[1])
	}
	return table, cols
}

// A Cost is what the shuffles of one table on one set of keys cost over every run read; for
// a join whose two sides both shuffle a table's columns, the two sides' shuffles together.
type Cost struct {
	// Table and Columns are the table and the key columns; Consumer what the shuffles fed.
	Table    string
	Columns  []string
	Consumer string
	// Partner is the join's other side, "db.t (k)", when it shuffles a table's columns too;
	// its shuffles are counted in this cost. "" when none.
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
// consumer (a join's two sides as one), costliest first (by bytes, then time, then name).
func (ev *Evidence) Costs() []Cost {
	idx := map[string]*Cost{}
	seen := map[string]map[string]bool{}
	var order []string
	for i := range ev.Shuffles {
		s := &ev.Shuffles[i]
		if s.Table == "" {
			continue
		}
		side := fmt.Sprintf("%s (%s)", s.Table, strings.Join(s.Columns, ", "))
		table, cols, partner := s.Table, s.Columns, ""
		if s.Partner >= 0 {
			if p := ev.shuffleAt(i, s.Partner); p != nil && p.Table != "" {
				partner = fmt.Sprintf("%s (%s)", p.Table, strings.Join(p.Columns, ", "))
				if partner < side { // one cost per join: named by its first side in name order
					table, cols, partner = p.Table, p.Columns, side
				}
			}
		}
		k := table + "\x00" + strings.Join(cols, "\x00") + "\x00" + s.Consumer + "\x00" + partner
		c := idx[k]
		if c == nil {
			c = &Cost{Table: table, Columns: cols, Consumer: s.Consumer, Partner: partner, Example: s.Pos}
			idx[k], seen[k] = c, map[string]bool{}
			order = append(order, k)
		}
		c.Bytes += s.Bytes
		c.Records += s.Records
		c.TimeNs += s.TimeNs
		c.Partitions = max(c.Partitions, s.Partitions)
		if run := fmt.Sprintf("%s\x00%d", s.App, s.Execution); !seen[k][run] {
			seen[k][run] = true
			c.Runs++
		}
		if app := "app\x00" + s.App; !seen[k][app] {
			seen[k][app] = true
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

// Layout is the bucket layout that removes the cost's shuffles: the shuffled table (and the
// join's other side when it is a table shuffled on its own columns too) bucketed by the key
// columns, into the partition count the shuffles were planned with. Spark then plans no
// Exchange for a join of two tables bucketed alike on the join keys, nor for an aggregation
// grouped by a table's bucket columns.
func (c *Cost) Layout() string {
	cols := strings.Join(c.Columns, ", ")
	n := ""
	if c.Partitions > 0 {
		n = fmt.Sprintf(" INTO %d BUCKETS", c.Partitions)
	}
	switch {
	case c.Consumer == "join" && c.Partner != "":
		return fmt.Sprintf("CLUSTERED BY (%s)%s on %s, and %s bucketed alike on its keys into as many buckets", cols, n, c.Table, c.Partner)
	case c.Consumer == "join" && n != "":
		return fmt.Sprintf("CLUSTERED BY (%s)%s on %s, as the join's other side is already partitioned, with its key type", cols, n, c.Table)
	case c.Consumer == "join":
		return fmt.Sprintf("CLUSTERED BY (%s) on %s, into as many buckets as the join's other side is partitioned into", cols, c.Table)
	case c.Consumer == "aggregate" || c.Consumer == "window":
		return fmt.Sprintf("CLUSTERED BY (%s)%s on %s", cols, n, c.Table)
	}
	return fmt.Sprintf("CLUSTERED BY (%s)%s on %s, where its consumer requires that distribution", cols, n, c.Table)
}

// A Side is one side of a join as the code reads it: a table and its join key columns.
type Side struct {
	Table   string
	Columns []string
}

// Measured is what the shuffles matching some sides cost over the runs read.
type Measured struct {
	Bytes, Records, TimeNs int64
	Runs, Apps             int
}

// Measure sums the shuffles feeding a join that shuffle one of sides' tables on exactly its key
// columns (in any order), and reports whether any matched. A table name matches as Spark's
// session catalog resolves it: "t", "default.t" and "spark_catalog.default.t" are one table.
func (ev *Evidence) Measure(sides ...Side) (Measured, bool) {
	return ev.MeasureFor("join", sides...)
}

// MeasureFor is Measure for the shuffles feeding consumer: "join", "aggregate" (an
// aggregation grouped by the side's columns, which Spark hashes on all of them) or "window"
// (a window partitioned by them).
func (ev *Evidence) MeasureFor(consumer string, sides ...Side) (Measured, bool) {
	var m Measured
	runs, apps := map[string]bool{}, map[string]bool{}
	for i := range ev.Shuffles {
		s := &ev.Shuffles[i]
		if s.Consumer != consumer || s.Table == "" || !matchesAny(s, sides) {
			continue
		}
		m.Bytes += s.Bytes
		m.Records += s.Records
		m.TimeNs += s.TimeNs
		if run := fmt.Sprintf("%s\x00%d", s.App, s.Execution); !runs[run] {
			runs[run] = true
			m.Runs++
		}
		if !apps[s.App] {
			apps[s.App] = true
			m.Apps++
		}
	}
	return m, m.Runs > 0
}

func matchesAny(s *Shuffle, sides []Side) bool {
	for _, sd := range sides {
		if TableName(s.Table) == TableName(sd.Table) && sameSet(s.Columns, sd.Columns) {
			return true
		}
	}
	return false
}

// TableName is a table identifier as the default session catalog resolves it, "db.t" in
// lower case: the spark_catalog prefix dropped, the default database added when none is named.
func TableName(name string) string {
	parts := strings.Split(strings.ToLower(strings.ReplaceAll(name, "`", "")), ".")
	if len(parts) == 3 && parts[0] == "spark_catalog" {
		parts = parts[1:]
	}
	if len(parts) == 1 {
		parts = []string{"default", parts[0]}
	}
	return strings.Join(parts, ".")
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) || len(a) == 0 {
		return false
	}
	x := append([]string(nil), a...)
	y := append([]string(nil), b...)
	for i := range x {
		x[i], y[i] = strings.ToLower(x[i]), strings.ToLower(y[i])
	}
	sort.Strings(x)
	sort.Strings(y)
	for i := range x {
		if x[i] != y[i] {
			return false
		}
	}
	return true
}

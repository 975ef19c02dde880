package simulate

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// A WeightedQuery is one query of a workload and how often it runs (any unit; only ratios
// matter).
type WeightedQuery struct {
	Query  *plan.Query
	Weight float64
}

// AdviseOptions configure Advise.
type AdviseOptions struct {
	// Options are the Spark version and configuration the workload runs under.
	Options Options
	// TargetBucketBytes is the data size one bucket should hold (default 256 MiB).
	TargetBucketBytes int64
	// ClusterCores is the number of executor cores; when set, a table large enough gets at
	// least that many buckets, so that a bucketed stage keeps every core busy.
	ClusterCores int
	// PowerOfTwo rounds bucket counts up to a power of two, which keeps later count changes
	// within bucket coalescing's reach (CoalesceBucketsInJoin needs a divisible ratio).
	PowerOfTwo bool
	// MaxBuckets caps the count (default 4096; Spark allows up to
	// spark.sql.sources.bucketing.maxBuckets, 100000).
	MaxBuckets int
}

// A Recommendation is the layout advised for one table.
type Recommendation struct {
	// Table is the table's name.
	Table string
	// Bucket is the advised bucket spec; nil when the advice is not to bucket the table.
	Bucket *plan.BucketSpec
	// CastColumns are key columns to write with a wider type so that both join sides have the
	// same key type ("customer_id" → "bigint").
	CastColumns map[string]string
	// Reason says why, in words a user reads.
	Reason string
	// Queries are the workload queries that read the table, simulated before and after the
	// whole advice is applied.
	Queries []Outcome
	// ShufflesRemoved is the number of Exchanges the advice removes from those queries.
	ShufflesRemoved int
	// Fixes names the joins and aggregations the layout makes shuffle-free, as "query 2: join
	// orders ⋈ customers on (customer_id)".
	Fixes []Fix
	// Code is the layout as ready-to-paste PySpark, Scala and SQL.
	Code Code
}

// An Outcome is one query simulated before and after the advice.
type Outcome struct {
	Index         int
	Before, After *Result
}

// A Fix is one join or aggregation the advice claims to make shuffle-free.
type Fix struct {
	// Query is the workload index of the query.
	Query int
	// Tables are the tables whose scans feed the operator, Keys the columns it clusters on.
	Tables []string
	Keys   []string
	// What is "join" or "aggregate".
	What string
}

// String describes the fix.
func (f Fix) String() string {
	return fmt.Sprintf("query %d: %s of %s on (%s)", f.Query+1, f.What, strings.Join(f.Tables, ", "), strings.Join(f.Keys, ", "))
}

// A Code is a layout as code.
type Code struct {
	PySpark, Scala, SQL string
}

// Advise recommends bucket columns, counts and sort columns per table so that the workload's
// frequent, large joins and aggregations need no Exchange: join sides get the same bucket
// columns (the join keys, in one order for both tables), the same count, and the same key
// types; aggregations get their most common grouping column. Tables small enough to broadcast
// are advised not to be bucketed. Every recommendation carries the plans before and after,
// simulated with the whole advice applied.
func Advise(tables map[string]*plan.Table, workload []WeightedQuery, opt AdviseOptions) []Recommendation {
	a := &advisor{tables: tables, opt: opt.withDefaults(), layout: map[string]*layoutChoice{}}
	before := make([]*Result, len(workload))
	for i, wq := range workload {
		r, err := Simulate(tables, wq.Query, opt.Options)
		if err != nil {
			continue
		}
		before[i] = r
		a.collect(i, wq.Weight, r)
	}
	a.chooseJoins()
	a.chooseAggregates()
	after := a.apply()
	var recs []Recommendation
	for _, name := range a.order() {
		c := a.layout[name]
		rec := Recommendation{Table: name, Reason: c.reason, CastColumns: c.casts}
		if c.spec != nil {
			rec.Bucket = c.spec
			rec.Code = layoutCode(after[name], c.spec, c.casts)
		}
		for i, wq := range workload {
			if before[i] == nil || !readsTable(before[i].Plan, name) {
				continue
			}
			r, err := Simulate(after, wq.Query, opt.Options)
			if err != nil {
				continue
			}
			rec.Queries = append(rec.Queries, Outcome{Index: i, Before: before[i], After: r})
			rec.ShufflesRemoved += before[i].Exchanges - r.Exchanges
		}
		rec.Fixes = append(rec.Fixes, c.fixes...)
		recs = append(recs, rec)
	}
	return recs
}

func (o AdviseOptions) withDefaults() AdviseOptions {
	if o.TargetBucketBytes <= 0 {
		o.TargetBucketBytes = 256 << 20
	}
	if o.MaxBuckets <= 0 {
		o.MaxBuckets = 4096
	}
	return o
}

// A demand is one operator that shuffled (or would) and could be served by a layout.
type demand struct {
	query  int
	weight float64
	// join demands: both sides' tables and key columns, pairwise.
	left, right         string
	leftKeys, rightKeys []string
	// aggregate demands: the table and grouping columns.
	table string
	keys  []string
	join  bool
	// direct is set when both join sides are table scans under Filter and Project only.
	direct bool
}

type layoutChoice struct {
	spec   *plan.BucketSpec
	casts  map[string]string
	reason string
	fixes  []Fix
}

type advisor struct {
	tables  map[string]*plan.Table
	opt     AdviseOptions
	demands []demand
	layout  map[string]*layoutChoice
	// broadcasts are the tables read by broadcast hash joins.
	broadcasts []string
}

// collect records the joins and aggregations of a simulated plan whose inputs are table
// scans (through unary operators), with the keys as plain columns.
func (a *advisor) collect(q int, w float64, r *Result) {
	if w <= 0 {
		w = 1
	}
	plan.Walk(r.Plan, func(n plan.Node) bool {
		if j, ok := plan.JoinOf(n); ok && (j.Strategy == plan.SortMergeJoinStrategy || j.Strategy == plan.ShuffledHashJoinStrategy) {
			lt, rt := tableUnder(n.Children()[0]), tableUnder(n.Children()[1])
			lk, lok := columnsOf(j.LeftKeys)
			rk, rok := columnsOf(j.RightKeys)
			if lt != "" && rt != "" && lok && rok && lt != rt {
				direct := directScan(n.Children()[0]) && directScan(n.Children()[1])
				a.demands = append(a.demands, demand{query: q, weight: w, left: lt, right: rt, leftKeys: lk, rightKeys: rk, join: true, direct: direct})
			}
		}
		if j, ok := plan.JoinOf(n); ok && j.Strategy == plan.BroadcastHashJoinStrategy {
			lt, rt := tableUnder(n.Children()[0]), tableUnder(n.Children()[1])
			a.broadcasts = append(a.broadcasts, lt, rt)
		}
		if g, ok := plan.AggregateOf(n); ok && g.Mode == plan.FinalAggregate && len(g.Keys) > 0 {
			t := tableUnder(n.Children()[0])
			if k, ok := columnsOf(g.Keys); ok && t != "" {
				a.demands = append(a.demands, demand{query: q, weight: w, table: t, keys: k})
			}
		}
		return true
	})
}

// tableUnder is the table a plan side reads through unary operators (the input of a partial
// aggregate included), or "".
func tableUnder(n plan.Node) string {
	for n != nil {
		switch x := n.(type) {
		case *plan.FileScan:
			return x.Table
		case *plan.HiveTableScan:
			return x.Table
		}
		kids := n.Children()
		if len(kids) != 1 {
			return ""
		}
		n = kids[0]
	}
	return ""
}

// columnsOf returns the columns keys name; a cast of a column counts as the column, since
// the advice writes both join sides with one type.
// directScan reports a side that is a file scan under Filter, Project and the Sort and
// Exchange the planner added.
func directScan(n plan.Node) bool {
	for n != nil {
		switch n.(type) {
		case *plan.FileScan:
			return true
		case *plan.Filter, *plan.ProjectExec, *plan.Sort, *plan.Exchange:
			n = n.Children()[0]
		default:
			return false
		}
	}
	return false
}

func columnsOf(es []plan.Expr) ([]string, bool) {
	out := make([]string, len(es))
	for i, e := range es {
		c, ok := e.Column()
		if !ok && e.IsCast() && len(e.Refs) == 1 {
			c, ok = e.Refs[0].Name, true
		}
		if !ok {
			return nil, false
		}
		out[i] = strings.ToLower(c)
	}
	return out, true
}

func readsTable(root plan.Node, name string) bool {
	found := false
	plan.Walk(root, func(n plan.Node) bool {
		if tableUnder(n) == name && len(n.Children()) == 0 {
			found = true
		}
		return !found
	})
	return found
}

func (a *advisor) order() []string {
	names := make([]string, 0, len(a.layout))
	for n := range a.layout {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// bucketCount sizes a table: enough buckets for TargetBucketBytes each, at least the cluster's
// cores when every bucket would still hold a sixteenth of the target, rounded up to a power of
// two when asked, capped at MaxBuckets.
func (a *advisor) bucketCount(t *plan.Table) int {
	n := 0
	if t.SizeInBytes > 0 {
		n = int(math.Ceil(float64(t.SizeInBytes) / float64(a.opt.TargetBucketBytes)))
	}
	if n == 0 {
		n = a.opt.Options.ShufflePartitions()
		if a.opt.ClusterCores > 0 {
			n = a.opt.ClusterCores
		}
	}
	if c := a.opt.ClusterCores; c > n && t.SizeInBytes/int64(c) >= a.opt.TargetBucketBytes/16 {
		n = c
	}
	if a.opt.PowerOfTwo {
		p := 1
		for p < n {
			p <<= 1
		}
		n = p
	}
	return max(1, min(n, a.opt.MaxBuckets))
}

func (a *advisor) broadcastable(t *plan.Table) bool {
	th := a.opt.Options.BroadcastThreshold()
	return t != nil && th >= 0 && t.SizeInBytes >= 0 && t.SizeInBytes <= th
}

func (a *advisor) table(name string) *plan.Table {
	if t := a.tables[name]; t != nil {
		return t
	}
	for k, t := range a.tables {
		if strings.HasSuffix(k, "."+name) || strings.HasSuffix(name, "."+k) {
			return t
		}
	}
	return nil
}

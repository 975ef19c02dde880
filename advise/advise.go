package advise

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
)

// A WeightedQuery is one query of a workload and how often it runs (any unit; only ratios
// matter).
type WeightedQuery struct {
	Query  *plan.Query
	Weight float64
}

// Options configure Advise.
type Options struct {
	// Spark is the Spark version and configuration the workload runs under.
	Spark simulate.Options
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
	// MinBucketFileBytes and MaxBucketFileBytes bound the size of one bucket file (default
	// 16 MiB and 2 GiB): a table is only given another table's bucket count, to spare a
	// rewrite of that table, when its bucket files stay within them. A bucket file holds one
	// bucket of one partition: the per-partition size divided by the count.
	MinBucketFileBytes, MaxBucketFileBytes int64
	// Partitions is the number of partitions of a partitioned table (name → count), when
	// known; bucket counts of partitioned tables are sized per partition.
	Partitions map[string]int
	// BroadcastFactor (default 4) is how far above spark.sql.autoBroadcastJoinThreshold (10
	// MiB when the threshold is -1) a join side may be and still be advised to be broadcast
	// (with a hint or a higher threshold) instead of bucketed.
	BroadcastFactor float64
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
	// Keep is set when the table keeps its current layout: Bucket is then its current spec
	// and the advice rewrites nothing.
	Keep bool
	// Confs are Spark settings the advice relies on ("spark.sql.bucketing.coalesceBucketsInJoin.enabled"
	// → "true"); the plans after are simulated with them.
	Confs map[string]string
	// RewriteBytes is the data the advice rewrites for this table (its size when known, an
	// estimate otherwise; 0 when it keeps its layout).
	RewriteBytes int64
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
	Before, After *simulate.Result
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

// A Code is a layout as code. SQL creates the table and inserts the rows; CTAS does the same
// in one CREATE TABLE … AS SELECT. Both read the current rows from <table>_old.
type Code struct {
	PySpark, Scala, SQL, CTAS string
}

// Advise recommends bucket columns, counts and sort columns per table so that the workload's
// frequent, large joins and aggregations need no Exchange: join sides get the same bucket
// columns (the join keys, in one order for both tables), the same count, and the same key
// types; aggregations get their most common grouping column. Tables small enough to broadcast
// are advised not to be bucketed. Every recommendation carries the plans before and after,
// simulated with the whole advice applied.
func Advise(tables map[string]*plan.Table, workload []WeightedQuery, opt Options) []Recommendation {
	a := &advisor{tables: tables, opt: opt.withDefaults(), layout: map[string]*layoutChoice{}, workload: workload, confs: map[string]string{}, notes: map[string][]string{}}
	if !a.opt.Spark.BucketingEnabled() {
		// No layout matters while bucketed reads are off: advise with them on, and say so.
		a.confs[simulate.ConfBucketingEnabled] = "true"
	}
	a.before = make([]*simulate.Result, len(workload))
	for i, wq := range workload {
		r, err := simulate.Simulate(tables, wq.Query, opt.Spark)
		if err != nil {
			continue
		}
		a.before[i] = r
		a.collect(i, wq.Weight, r)
	}
	a.chooseJoins()
	a.chooseAggregates()
	a.addNotes()
	after := a.apply(a.layout)
	afterOpt := withConfs(a.opt.Spark, a.confs)
	afterRes := map[int]*simulate.Result{}
	var recs []Recommendation
	for _, name := range a.order() {
		c := a.layout[name]
		rec := Recommendation{Table: name, Reason: c.reason, CastColumns: c.casts, Keep: c.keep, Confs: c.confs}
		if !a.opt.Spark.BucketingEnabled() {
			rec.Reason = "spark.sql.sources.bucketing.enabled=false in the workload's configuration makes Spark read every bucketed table as plain files, " +
				"so no layout removes a shuffle until that setting is removed (the plans after are simulated with it on); " + rec.Reason
			rec.Confs = withConfs(simulate.Options{Confs: rec.Confs}, map[string]string{simulate.ConfBucketingEnabled: "true"}).Confs
		}
		if c.spec != nil {
			rec.Bucket = c.spec
			if !c.keep {
				rec.Code = LayoutCode(after[name], c.spec, c.casts)
				rec.RewriteBytes = a.estimate(a.table(name))
			}
		}
		for i, wq := range workload {
			if a.before[i] == nil || !a.reads(i, name) {
				continue
			}
			r, ok := afterRes[i]
			if !ok {
				r, _ = simulate.Simulate(after, wq.Query, afterOpt)
				afterRes[i] = r
			}
			if r == nil {
				continue
			}
			rec.Queries = append(rec.Queries, Outcome{Index: i, Before: a.before[i], After: r})
			rec.ShufflesRemoved += a.before[i].Exchanges - r.Exchanges
		}
		rec.Fixes = append(rec.Fixes, c.fixes...)
		recs = append(recs, rec)
	}
	return recs
}

// withConfs returns o with the settings added.
func withConfs(o simulate.Options, confs map[string]string) simulate.Options {
	if len(confs) == 0 {
		return o
	}
	m := make(map[string]string, len(o.Confs)+len(confs))
	for k, v := range o.Confs {
		m[k] = v
	}
	for k, v := range confs {
		m[k] = v
	}
	o.Confs = m
	return o
}

func (o Options) withDefaults() Options {
	if o.TargetBucketBytes <= 0 {
		o.TargetBucketBytes = 256 << 20
	}
	if o.MaxBuckets <= 0 {
		o.MaxBuckets = 4096
	}
	if o.MinBucketFileBytes <= 0 {
		o.MinBucketFileBytes = 16 << 20
	}
	if o.MaxBucketFileBytes <= 0 {
		o.MaxBucketFileBytes = 2 << 30
	}
	if o.MaxBucketFileBytes < o.MinBucketFileBytes {
		o.MaxBucketFileBytes = o.MinBucketFileBytes
	}
	if o.BroadcastFactor <= 0 {
		o.BroadcastFactor = 4
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
	// joinType is the join's type as printed ("Inner", "LeftOuter", …).
	joinType string
}

type layoutChoice struct {
	spec   *plan.BucketSpec
	casts  map[string]string
	reason string
	fixes  []Fix
	// keep is set when spec is the table's current layout, left as it is.
	keep bool
	// confs are the settings the choice relies on.
	confs map[string]string
}

type advisor struct {
	tables   map[string]*plan.Table
	opt      Options
	workload []WeightedQuery
	before   []*simulate.Result
	// confs are the settings the advice relies on so far; candidates are simulated with them.
	confs map[string]string
	// notes are, per table, the joins no layout serves, said when the table has no layout.
	notes   map[string][]string
	demands []demand
	layout  map[string]*layoutChoice
	// readers caches, per table, the workload queries that read it.
	readers map[string]map[int]bool
	// broadcasts are the tables read by broadcast hash joins.
	broadcasts []string
}

// collect records the joins and aggregations of a simulated plan whose inputs are table
// scans (through unary operators), with the keys as plain columns.
func (a *advisor) collect(q int, w float64, r *simulate.Result) {
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
				a.demands = append(a.demands, demand{query: q, weight: w, left: lt, right: rt, leftKeys: lk, rightKeys: rk, join: true, direct: direct, joinType: j.Type})
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

// partitionBytes is the data one partition of t holds, which is what one write of its
// buckets spreads over bucket files: the table's size for an unpartitioned table, the size
// divided by the number of partitions when Options.Partitions gives it. known is false
// when the size is unknown (-1 then) or the table is partitioned and its partition count is
// not given (the whole table's size then).
func (a *advisor) partitionBytes(t *plan.Table) (n int64, known bool) {
	if t == nil || t.SizeInBytes <= 0 {
		return -1, false
	}
	if len(t.PartitionColumns) == 0 {
		return t.SizeInBytes, true
	}
	if p := a.partitions(t.Name); p > 0 {
		return t.SizeInBytes / int64(p), true
	}
	return t.SizeInBytes, false
}

func (a *advisor) partitions(name string) int {
	if p, ok := a.opt.Partitions[name]; ok {
		return p
	}
	for k, p := range a.opt.Partitions {
		if strings.HasSuffix(k, "."+name) || strings.HasSuffix(name, "."+k) {
			return p
		}
	}
	return 0
}

// bucketCount sizes a table: enough buckets for TargetBucketBytes each of one partition (of
// the whole table when the partition count is unknown), at least the cluster's cores when
// every bucket would still hold a sixteenth of the target, rounded up to a power of two when
// asked, capped at MaxBuckets. A table of unknown size keeps the count it is bucketed with,
// else gets the cluster's cores, else spark.sql.shuffle.partitions.
func (a *advisor) bucketCount(t *plan.Table) int {
	per, _ := a.partitionBytes(t)
	n := 0
	if per > 0 {
		n = int(math.Ceil(float64(per) / float64(a.opt.TargetBucketBytes)))
	} else if t.Bucket != nil && t.Bucket.NumBuckets > 0 {
		return t.Bucket.NumBuckets
	}
	if n == 0 {
		n = a.opt.Spark.ShufflePartitions()
		if a.opt.ClusterCores > 0 {
			n = a.opt.ClusterCores
		}
	}
	if c := a.opt.ClusterCores; c > n && per/int64(c) >= a.opt.TargetBucketBytes/16 {
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

// fits reports whether t's bucket files at n buckets stay within the file size bounds; a
// table of unknown size fits.
func (a *advisor) fits(t *plan.Table, n int) bool {
	per, _ := a.partitionBytes(t)
	if per <= 0 || n <= 0 {
		return true
	}
	f := per / int64(n)
	return f >= a.opt.MinBucketFileBytes && f <= a.opt.MaxBucketFileBytes
}

// sizeText says how big t's bucket files are at n buckets, or that its size is unknown and
// how to give it.
func (a *advisor) sizeText(t *plan.Table, n int) string {
	per, known := a.partitionBytes(t)
	switch {
	case per <= 0:
		s := unknownSizeText(t.Name)
		if t.Bucket != nil && t.Bucket.NumBuckets > 0 {
			s += fmt.Sprintf("; it is bucketed into %d, which it keeps unless a join needs another count", t.Bucket.NumBuckets)
		} else {
			s += "; its count defaults to the cluster's cores (--cores), else spark.sql.shuffle.partitions"
		}
		return s
	case !known:
		return fmt.Sprintf("%s is %s, partitioned by (%s) with an unknown number of partitions: bucket files are written per partition, "+
			"so sized from the whole table they are %s each at %d buckets, and smaller by the number of partitions (give it with --partitions %s=N)",
			t.Name, sizeBytes(t.SizeInBytes), strings.Join(t.PartitionColumns, ", "), sizeBytes(per/int64(max(n, 1))), n, t.Name)
	case len(t.PartitionColumns) > 0:
		return fmt.Sprintf("%s is %s in %d partitions, %s per partition: %s per bucket file at %d buckets", t.Name, sizeBytes(t.SizeInBytes),
			a.partitions(t.Name), sizeBytes(per), sizeBytes(per/int64(max(n, 1))), n)
	}
	return fmt.Sprintf("%s is %s: %s per bucket file at %d buckets", t.Name, sizeBytes(t.SizeInBytes), sizeBytes(per/int64(max(n, 1))), n)
}

// fitText says that t's bucket files at n buckets are within the bounds, or that its size is
// unknown and they could not be checked.
func (a *advisor) fitText(t *plan.Table, n int) string {
	if per, _ := a.partitionBytes(t); per <= 0 {
		return fmt.Sprintf("%s, so its bucket files at %d buckets are not checked against %s", unknownSizeText(t.Name), n, a.boundsText())
	}
	return a.sizeText(t, n) + ", within " + a.boundsText()
}

// unknownSizeText says that the tables' sizes are unknown and how to give them.
func unknownSizeText(names ...string) string {
	sizes := make([]string, len(names))
	for i, n := range names {
		sizes[i] = "--size " + n + "=SIZE"
	}
	what := "the size of " + strings.Join(names, " and ") + " is"
	if len(names) > 1 {
		what = "the sizes of " + strings.Join(names, " and ") + " are"
	}
	return fmt.Sprintf("%s unknown (give %s with %s, e.g. 40GB; or sizeInBytes in a catalog YAML; or DESCRIBE TABLE EXTENDED output after ANALYZE TABLE … COMPUTE STATISTICS)",
		what, map[bool]string{true: "them", false: "it"}[len(names) > 1], strings.Join(sizes, " "))
}

// boundsText names the bucket file size bounds.
func (a *advisor) boundsText() string {
	return fmt.Sprintf("%s to %s per bucket file", sizeBytes(a.opt.MinBucketFileBytes), sizeBytes(a.opt.MaxBucketFileBytes))
}

// estimate is the data a rewrite of t reads and writes: its size when known; else its bucket
// count times the target bucket size (a bucketed table was usually sized to about that);
// else the target times spark.sql.shuffle.partitions.
func (a *advisor) estimate(t *plan.Table) int64 {
	switch {
	case t == nil:
		return 0
	case t.SizeInBytes > 0:
		return t.SizeInBytes
	case t.Bucket != nil && t.Bucket.NumBuckets > 0:
		return int64(t.Bucket.NumBuckets) * a.opt.TargetBucketBytes
	}
	return int64(a.opt.Spark.ShufflePartitions()) * a.opt.TargetBucketBytes
}

func (a *advisor) broadcastable(t *plan.Table) bool {
	th := a.opt.Spark.BroadcastThreshold()
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

// sizeBytes prints a size for people as the simulator's reasons do ("3.0 GiB", "512 bytes"),
// up to TiB.
func sizeBytes(n int64) string {
	if n < 0 {
		return "of unknown size"
	}
	unit, scale := "", int64(1)
	for i, u := range []string{"KiB", "MiB", "GiB", "TiB"} {
		if n >= 1<<(10*(i+1)) {
			unit, scale = u, 1<<(10*(i+1))
		}
	}
	if unit == "" {
		return fmt.Sprintf("%d bytes", n)
	}
	return fmt.Sprintf("%.1f %s", float64(n)/float64(scale), unit)
}

package advise

import (
	"fmt"
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
	// Spark, when set, is the version and settings in force where the query runs (its
	// session's); nil means Options.Spark.
	Spark *simulate.Options
	// Tables, when set, are the tables the query's session sees where it runs; nil means the
	// tables given to Advise. Layouts are chosen for the names of Advise's tables and
	// applied to these by name.
	Tables map[string]*plan.Table
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
	// Measure, when set, is what a join or an aggregation of the workload cost in real runs
	// (advise --evidence: the shuffles of Spark event logs on its tables and keys), ok false
	// when no run measured it. The measured bytes then come before the guesses (query weights
	// times table sizes): joins are served costliest first by them, an aggregated table is
	// bucketed on the grouping its measured aggregations shuffled most, and recommendations
	// are ranked by the measured bytes of the shuffles they remove.
	Measure func(Shuffled) (Measure, bool)
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
	// estimate otherwise, RewriteEstimated then set; 0 when it keeps its layout).
	RewriteBytes     int64
	RewriteEstimated bool
	// Evidence is set when the advice was weighed by real runs (Options.Measure);
	// MeasuredBytes is then what the measured shuffles among Fixes wrote in those runs, each
	// distinct join or aggregation once (0 when none of them ran in the logs).
	Evidence      bool
	MeasuredBytes int64
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
	// Measured is what the join or aggregation cost in real runs (Options.Measure), nil when
	// not measured.
	Measured *Measure
}

// String describes the fix.
func (f Fix) String() string {
	return fmt.Sprintf("query %d: %s of %s on (%s)", f.Query+1, f.What, strings.Join(f.Tables, ", "), strings.Join(f.Keys, ", "))
}

// A Code is a layout as code. SQL creates the table and inserts the rows; CTAS does the same
// in one CREATE TABLE … AS SELECT. Both read the current rows from <table>_old. Java is the
// DataFrame write in Java; DBT the config of a dbt model that makes the table.
type Code struct {
	PySpark, Scala, SQL, CTAS string
	Java, DBT                 string
}

// Advise recommends bucket columns, counts and sort columns per table so that the workload's
// frequent, large joins and aggregations need no Exchange: join sides get the same bucket
// columns (the join keys, in one order for both tables), the same count, and the same key
// types; aggregations get their most common grouping column. Tables small enough to broadcast
// are advised not to be bucketed. Every recommendation carries the plans before and after,
// simulated with the whole advice applied.
func Advise(tables map[string]*plan.Table, workload []WeightedQuery, opt Options) []Recommendation {
	a := newAdvisor(tables, workload, opt)
	a.chooseJoins()
	a.chooseAggregates()
	a.addNotes()
	return a.recommend()
}

// newAdvisor simulates the workload as it is and collects the joins and aggregations that
// a layout could serve.
func newAdvisor(tables map[string]*plan.Table, workload []WeightedQuery, opt Options) *advisor {
	a := &advisor{tables: tables, opt: opt.withDefaults(), layout: map[string]*layoutChoice{}, workload: workload, confs: map[string]string{}, notes: map[string][]string{}}
	a.before = make([]*simulate.Result, len(workload))
	for i, wq := range workload {
		if !a.sparkOf(i).BucketingEnabled() {
			// No layout matters while bucketed reads are off: advise with them on, and say so.
			a.confs[simulate.ConfBucketingEnabled] = "true"
		}
		r, err := simulate.Simulate(a.tablesOf(i), wq.Query, a.sparkOf(i))
		if err != nil {
			continue
		}
		a.before[i] = r
		a.collect(i, wq.Weight, r)
	}
	a.measureDemands()
	return a
}

// recommend turns the chosen layouts into recommendations, in table order, each with the
// workload queries that read its table simulated with the whole advice applied.
func (a *advisor) recommend() []Recommendation {
	after := a.apply(a.layout, a.tables)
	spjConfs(a.layout, after, a.confs)
	afterRes := map[int]*simulate.Result{}
	var recs []Recommendation
	for _, name := range a.order() {
		rec := a.recommendation(name, after)
		for i, wq := range a.workload {
			if a.before[i] == nil || !a.reads(i, name) {
				continue
			}
			r, ok := afterRes[i]
			if !ok {
				r, _ = simulate.Simulate(a.afterTables(i, a.layout, after), wq.Query, withConfs(a.sparkOf(i), a.confs))
				afterRes[i] = r
			}
			if r == nil {
				continue
			}
			rec.Queries = append(rec.Queries, Outcome{Index: i, Before: a.before[i], After: r})
			rec.ShufflesRemoved += a.before[i].Exchanges - r.Exchanges
		}
		recs = append(recs, rec)
	}
	a.addMeasures(recs)
	return recs
}

// recommendation is the layout chosen for a table, its code written from the table as the
// advice leaves it (after); the queries are added by recommend.
func (a *advisor) recommendation(name string, after map[string]*plan.Table) Recommendation {
	c := a.layout[name]
	rec := Recommendation{Table: name, Reason: c.reason, CastColumns: c.casts, Keep: c.keep, Confs: c.confs}
	if where := a.bucketingOff(name); where != "" {
		rec.Reason = "spark.sql.sources.bucketing.enabled=false " + where + " makes Spark read every bucketed table as plain files, " +
			"so no layout removes a shuffle until that setting is removed (the plans after are simulated with it on); " + rec.Reason
		rec.Confs = withConfs(simulate.Options{Confs: rec.Confs}, map[string]string{simulate.ConfBucketingEnabled: "true"}).Confs
	}
	if c.spec != nil {
		rec.Bucket = c.spec
		if !c.keep && after[name] != nil && plan.V2CatalogFormat(after[name].Format) {
			rec.Confs = withConfs(simulate.Options{Confs: rec.Confs}, map[string]string{
				simulate.ConfV2Bucketing: "true", simulate.ConfIcebergPreserveGrouping: "true",
			}).Confs
		}
		if !c.keep {
			rec.Code = LayoutCode(after[name], c.spec, c.casts)
			rec.RewriteBytes = a.estimate(a.table(name))
			rec.RewriteEstimated = a.table(name) == nil || a.table(name).SizeInBytes <= 0
		}
	}
	rec.Fixes = append(rec.Fixes, c.fixes...)
	return rec
}

// bucketingOff says where bucketed reads are off for the queries that read table: "in the
// workload's configuration" when they are off for the whole workload, "where query 2 runs"
// when only some queries' sessions turn them off, "" when they are on for every reader.
func (a *advisor) bucketingOff(table string) string {
	if !a.opt.Spark.BucketingEnabled() {
		return "in the workload's configuration"
	}
	var qs []string
	for i := range a.workload {
		if a.before[i] != nil && a.reads(i, table) && !a.sparkOf(i).BucketingEnabled() {
			qs = append(qs, fmt.Sprint(i+1))
		}
	}
	switch len(qs) {
	case 0:
		return ""
	case 1:
		return "where query " + qs[0] + " runs"
	}
	return "where queries " + strings.Join(qs, ", ") + " run"
}

// withDefaults fills in the defaults the Options fields document.
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

// A layoutChoice is the layout chosen for one table, with the reason, the settings it relies
// on and the joins and aggregations it makes shuffle-free.
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

// An advisor holds one search: the workload simulated as it is, what it asks of the layout,
// and the layouts chosen so far.
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

// order is the names of the tables with a layout, sorted.
func (a *advisor) order() []string {
	names := make([]string, 0, len(a.layout))
	for n := range a.layout {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

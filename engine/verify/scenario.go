//go:build engine

package verify

import (
	"maps"
	"time"

	"github.com/bucketlint/bucketlint/engine/exec"
	"github.com/bucketlint/bucketlint/engine/store"
	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
)

// A Scenario is one query verified before and after a layout change.
type Scenario struct {
	// Name says what is verified, as "query 1: join a ⋈ b on (k)".
	Name string
	// Query is the query run on both sides.
	Query *plan.Query
	// Before and After are the table catalogues as they are and as advised: the same tables,
	// with different bucket specs (and, for cast key columns, column types).
	Before, After map[string]*plan.Table
	// Data says where each table's rows come from, by table name; a table without an entry
	// gets generated rows (Options.Rows of them).
	Data map[string]TableData
	// Written, when it names a table, is the bucket spec the after-side data is really written
	// with while the catalogue still declares After's spec: a job that does not write what
	// the table declares. Verification must then fail. A nil entry writes unbucketed files, which
	// Spark (and Run) refuse to read as a bucketed table.
	Written map[string]*plan.BucketSpec
	// Sim, when set, is the Spark version and settings the query runs under in its session;
	// nil means Options.Sim.
	Sim *simulate.Options
	// AfterConfs are the Spark settings the advice relies on (advise.Recommendation.Confs),
	// in force on the after side only: an advice to coalesce 8 buckets with 4 is a setting,
	// and the after side runs with it.
	AfterConfs map[string]string
	// Notes say what the scenario assumes that no input states (the columns of a table that
	// declares none); they are the result's first notes.
	Notes []string
}

// simOptions returns the options sc's query is simulated under on a side (0 before, 1
// after): its own, else def, with AfterConfs on the after side.
func (sc *Scenario) simOptions(def simulate.Options, side int) simulate.Options {
	o := def
	if sc.Sim != nil {
		o = *sc.Sim
	}
	if side == 0 || len(sc.AfterConfs) == 0 {
		return o
	}
	confs := make(map[string]string, len(o.Confs)+len(sc.AfterConfs))
	maps.Copy(confs, o.Confs)
	maps.Copy(confs, sc.AfterConfs)
	o.Confs = confs
	return o
}

// TableData is where one table's rows come from.
type TableData struct {
	// Path is a CSV (with a header), JSON lines (.json, .jsonl, .ndjson) or Parquet file of
	// the table's columns, matched by name. Empty means generated rows.
	Path string
	// Rows is the number of generated rows; 0 means Options.Rows.
	Rows int
	// Columns tune the generator per column (by name); other columns get defaults.
	Columns map[string]ColumnGen
}

// ColumnGen tunes the generated values of one column.
type ColumnGen struct {
	// Cardinality is the number of distinct values; 0 means one per row (partition columns:
	// 3).
	Cardinality int
	// Zipf, when > 1, skews the values: rank k is drawn with weight 1/k^Zipf.
	Zipf float64
	// NullFraction is the share of NULL rows.
	NullFraction float64
	// Start shifts the values: a date ("2024-06-28") for date and timestamp columns, an
	// integer for integer columns. Generated ranks otherwise start at 0 (dates at
	// 2020-01-01).
	Start string
}

// Options configure Run.
type Options struct {
	// Rows is the number of generated rows of a table without Data; 0 means 100000.
	Rows int
	// Seed seeds the generator.
	Seed uint64
	// Sim are the Spark version and confs simulated.
	Sim simulate.Options
	// Exec configures the engine. Its MemoryBudget caps the table data held in memory as
	// well: each query gets what the loaded tables leave of it.
	Exec exec.Options
	// TempRoot is the directory the temporary warehouse is created in; empty means the
	// system's temporary directory.
	TempRoot string
	// OutDir, when set, is the warehouse instead: it must be empty or not exist, and is
	// kept, with a tables.tsv naming each table's directory, side and layout.
	OutDir string
	// Progress, when set, is told what is being done and how far Run has got.
	Progress func(Progress)
	// Spark, when set, runs each scenario on a real Spark as well.
	Spark *SparkCheck
}

// Progress is what a run is doing: Done of Total steps, the scenario, and what (Msg:
// "writing finance.accounts (after, 64 buckets by (account_id))"). Each side of a scenario
// is two steps, making its tables and running its query, and a run on Spark one more.
type Progress struct {
	Done, Total   int
	Scenario, Msg string
}

// Side is one run of the query: before or after the layout change.
type Side struct {
	// Predicted is the number of shuffle Exchanges simulate predicted; Exchanges the number
	// the engine ran.
	Predicted, Exchanges int
	// ShuffledRows and ShuffledBytes are what the Exchanges moved.
	ShuffledRows, ShuffledBytes int64
	// Duration is the query's wall time (writing the data is not included).
	Duration time.Duration
	// Checksum digests the result rows.
	Checksum exec.Checksum
}

// Layout is one table's bucket spec: as advised in a Result, as written in a scenario file's
// current, layout and written sections. Buckets 0 or no Columns is unbucketed; Types casts
// columns to other types (column name to Spark SQL type).
type Layout struct {
	Columns  []string          `json:"columns" yaml:"columns"`
	Buckets  int               `json:"buckets" yaml:"buckets"`
	SortedBy []string          `json:"sortedBy" yaml:"sortedBy"`
	Types    map[string]string `json:"types,omitempty" yaml:"types"`
}

// A Result is one verified scenario.
type Result struct {
	Name string
	// Query is the query text.
	Query         string
	Before, After Side
	// Layout is the after-side layout of each table the query reads whose spec changed.
	Layout map[string]Layout
	// Settings are the Spark settings the after side ran with on top of the workload's
	// (Scenario.AfterConfs).
	Settings map[string]string
	// Identical reports whether both runs returned the same multiset of rows; Diff names the
	// first difference otherwise.
	Identical bool
	Diff      string
	// Rows is the number of result rows (after the change); InputRows the rows written per
	// table.
	Rows      int64
	InputRows map[string]int64
	// Error says why the scenario could not be run (the rest of the result is then empty).
	Error string
	// Notes say where the engine ran something other than the predicted plan (a WHERE clause
	// the prediction left out).
	Notes []string
	// Engine is "embedded", or "spark" when the check also ran on a real Spark.
	Engine string
	// Spark is the same check on a real Spark, when Options.Spark was set.
	Spark *SparkResult
	// adopted are the tables each side read, for the Spark check.
	adopted [2][]adopted
}

// adopted is one table as written for one side.
type adopted struct {
	name  string
	table *plan.Table
	files *store.Table
}

// Reproduced reports whether the advice held: the scenario ran, with identical results,
// fewer shuffles after than before, as many as predicted, and (when Spark ran) Spark
// agreeing.
func (r *Result) Reproduced() bool {
	ok := r.Error == "" && r.Identical && r.After.Exchanges < r.Before.Exchanges && r.After.Exchanges == r.After.Predicted
	if r.Spark != nil {
		ok = ok && r.Spark.Agrees()
	}
	return ok
}

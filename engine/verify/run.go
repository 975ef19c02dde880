//go:build engine

package verify

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bucketlint/bucketlint/engine/exec"
	"github.com/bucketlint/bucketlint/engine/store"
	"github.com/bucketlint/bucketlint/internal/crash"
	"github.com/bucketlint/bucketlint/internal/scratch"
	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
)

// A warehouse is the temporary directory of one Run: each table's rows, generated or read
// once, and the tables written so far, by side and layout.
type warehouse struct {
	root    string
	opt     Options
	data    map[string]*store.Batch
	schemas map[string]store.Schema
	written map[string]*store.Table
	// done and total count the steps of the run (see Progress).
	done, total int
	// index lists the tables written, for Options.OutDir's tables.tsv.
	index []string
	// held is the bytes of table data in memory (data), charged to the memory budget.
	held int64
}

// budget is the memory budget of the whole run.
func (w *warehouse) budget() int64 {
	if w.opt.Exec.MemoryBudget > 0 {
		return w.opt.Exec.MemoryBudget
	}
	return exec.DefaultMemoryBudget
}

// charge adds n bytes of t's data to what the warehouse holds, or fails when the data,
// and the copy made while a table is written, would not fit in the memory budget.
func (w *warehouse) charge(name string, n int64, what string) error {
	if w.held+2*n > w.budget() {
		return fmt.Errorf("%s: %s need about %s in memory (twice that while written), with %s already held; "+
			"the memory budget is %s (--memory): %w", name, what, plan.FormatBytes(n), plan.FormatBytes(w.held),
			plan.FormatBytes(w.budget()), exec.ErrMemoryBudget)
	}
	w.held += n
	return nil
}

// Run verifies each scenario and returns one result per scenario, in order. Everything is
// written below a new directory in opt.TempRoot, removed before Run returns, or into
// opt.OutDir, which must be empty or not exist, is claimed by a lock file while the run
// writes there (a second run given it at the same time is refused) and is kept. A scenario that cannot be run
// (a query the engine does not support, a fixture that does not read) gets a result with
// Error set, and the others still run; Run itself fails only when the warehouse cannot be
// made or removed, or ctx ends.
func Run(ctx context.Context, scenarios []Scenario, opt Options) (results []Result, err error) {
	// A panic in an engine worker comes back as the worker's owner's error, or is raised again
	// in this goroutine (store's parallel loops): here it becomes Run's error, after the
	// deferred clean-up below has removed the warehouse.
	defer crash.Catch(func(cerr error) { err = errors.Join(err, cerr) })
	var root string
	if opt.OutDir != "" {
		release, cerr := claimOutDir(opt.OutDir)
		if cerr != nil {
			return nil, fmt.Errorf("verify: %w", cerr)
		}
		defer func() { // after the index is written
			if rerr := release(); rerr != nil {
				err = errors.Join(err, fmt.Errorf("verify: %w", rerr))
			}
		}()
		root = opt.OutDir
	} else {
		var remove func() error
		root, remove, err = scratch.MkdirTemp(opt.TempRoot, "bucketlint-verify-")
		if err != nil {
			return nil, fmt.Errorf("verify: %w", err)
		}
		defer func() {
			if rerr := remove(); rerr != nil {
				err = errors.Join(err, fmt.Errorf("verify: removing %s: %w", root, rerr))
			}
		}()
	}
	w := &warehouse{root: root, opt: opt, data: map[string]*store.Batch{}, schemas: map[string]store.Schema{}, written: map[string]*store.Table{}}
	if opt.OutDir != "" {
		defer func() {
			if ierr := w.writeIndex(); ierr != nil {
				err = errors.Join(err, ierr)
			}
		}()
	}
	per := StepsPerScenario(opt.Spark != nil)
	w.total = per * len(scenarios)
	for i := range scenarios {
		sc := &scenarios[i]
		w.done = i * per
		r, err := w.run(ctx, sc)
		if err != nil {
			if ctx.Err() != nil {
				return results, fmt.Errorf("verify %s: %w", sc.Name, err)
			}
			results = append(results, errorResult(sc, err, "embedded"))
			continue
		}
		if opt.Spark != nil {
			w.done = i*per + embeddedSteps
			w.progress(sc.Name, "running on Spark (%s)", opt.Spark.Master)
			sr, err := opt.Spark.run(ctx, w, sc, r)
			if err != nil {
				return results, fmt.Errorf("verify %s on spark: %w", sc.Name, err)
			}
			r.Spark = sr
		}
		results = append(results, *r)
	}
	return results, nil
}

// embeddedSteps are the Progress steps of a scenario on the embedded engine: each side's
// tables made, each side's query run.
const embeddedSteps = 4

// StepsPerScenario is the number of Progress steps Run reports for a scenario: four, and a
// fifth when it also runs on Spark (Options.Spark).
func StepsPerScenario(withSpark bool) int {
	if withSpark {
		return embeddedSteps + 1
	}
	return embeddedSteps
}

// errorResult is the result of a scenario that could not be run on engine.
func errorResult(sc *Scenario, err error, engine string) Result {
	q := ""
	if sc.Query != nil {
		q = strings.TrimSpace(sc.Query.Text)
	}
	return Result{Name: sc.Name, Query: q, Error: err.Error(), Engine: engine}
}

func (w *warehouse) progress(scenario, format string, args ...any) {
	if w.opt.Progress != nil {
		w.opt.Progress(Progress{Done: w.done, Total: w.total, Scenario: scenario, Msg: fmt.Sprintf(format, args...)})
	}
}

// run verifies one scenario on the embedded engine.
func (w *warehouse) run(ctx context.Context, sc *Scenario) (*Result, error) {
	if sc.Query == nil {
		return nil, errors.New("no query")
	}
	r := &Result{Name: sc.Name, Query: strings.TrimSpace(sc.Query.Text), Layout: map[string]Layout{}, InputRows: map[string]int64{}, Engine: "embedded", Settings: maps.Clone(sc.AfterConfs)}
	r.Notes = append(r.Notes, sc.Notes...)
	var res [2]*exec.Result
	for side, tables := range []map[string]*plan.Table{sc.Before, sc.After} {
		sim, err := simulate.Simulate(tables, sc.Query, sc.simOptions(w.opt.Sim, side))
		if err != nil {
			return nil, fmt.Errorf("simulating %s: %w", sideName(side), err)
		}
		if err := hiveScanErr(sim.Plan, tables); err != nil {
			return nil, fmt.Errorf("%s: %w", sideName(side), err)
		}
		cat := exec.NewCatalog()
		for _, name := range scannedTables(sim.Plan) {
			t := lookupTable(tables, name)
			if t == nil {
				return nil, fmt.Errorf("the plan reads %s, which no DDL declares", name)
			}
			st, err := w.table(ctx, sc, side, t)
			if err != nil {
				return nil, err
			}
			cat.Add(name, st)
			r.adopted[side] = append(r.adopted[side], adopted{name: t.Name, table: t, files: st})
			r.InputRows[t.Name] = int64(w.data[t.Name].Rows())
			if side == 1 && !sameSpec(lookupTable(sc.Before, name), t) {
				r.Layout[t.Name] = layoutOf(lookupTable(sc.Before, name), t)
			}
		}
		w.done++
		w.progress(sc.Name, "running the query (%s)", sideName(side))
		eo := w.opt.Exec
		eo.MemoryBudget = w.budget() - w.held
		out, err := exec.Execute(ctx, sim.Plan, cat, eo)
		if err != nil {
			return nil, fmt.Errorf("running the %s plan: %w", sideName(side), err)
		}
		res[side] = out
		w.done++
		s := Side{
			Predicted: sim.Exchanges, Exchanges: out.Stats.Exchanges, ShuffledRows: out.Stats.ShuffledRows,
			ShuffledBytes: out.Stats.ShuffledBytes, Duration: out.Stats.Duration,
		}
		if side == 0 {
			r.Before = s
		} else {
			r.After = s
		}
	}
	r.Rows = res[1].NumRows()
	var err error
	r.Before.Checksum, r.After.Checksum, err = exec.CompareRows(res[0], res[1])
	var ce *crash.Error
	if errors.As(err, &ce) { // a bug while comparing is not a difference in the rows
		return nil, err
	}
	if err != nil {
		r.Diff = err.Error()
	} else {
		r.Identical = true
	}
	return r, nil
}

func sideName(side int) string {
	if side == 0 {
		return "before"
	}
	return "after"
}

// table writes t's rows in the layout of one side (once per layout) and returns it opened
// with the layout its catalogue declares.
func (w *warehouse) table(ctx context.Context, sc *Scenario, side int, t *plan.Table) (*store.Table, error) {
	before := lookupTable(sc.Before, t.Name)
	if before == nil {
		before = t
	}
	if err := ctx.Err(); err != nil {
		return nil, err // interrupted: generating or writing more would only delay the cleanup
	}
	if _, ok := w.data[t.Name]; !ok {
		s, err := schemaOf(before)
		if err != nil {
			return nil, err
		}
		w.progress(sc.Name, "loading %s", t.Name)
		b, err := loadData(ctx, before, s, sc.Data[t.Name], w, queryStarts(sc.Query, t.Name))
		if err != nil {
			return nil, err
		}
		if sc.Data[t.Name].Path != "" {
			if err := w.charge(t.Name, b.MemBytes(), fmt.Sprintf("the %d rows of %s", b.Rows(), sc.Data[t.Name].Path)); err != nil {
				return nil, err
			}
		}
		w.data[t.Name], w.schemas[t.Name] = b, s
	}
	schema, err := schemaOf(t)
	if err != nil {
		return nil, err
	}
	declared := storeLayout(t, t.Buckets())
	written := declared
	if spec, ok := sc.Written[t.Name]; ok && side == 1 {
		written = storeLayout(t, spec)
	}
	key := fmt.Sprintf("%s|%v|%v|%s", t.Name, written, declared, schema)
	if st, ok := w.written[key]; ok {
		return st, nil
	}
	data, err := retype(w.data[t.Name], w.schemas[t.Name], schema)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", t.Name, err)
	}
	dir := filepath.Join(w.root, fmt.Sprintf("t%03d", len(w.written)), sanitize(t.Name))
	w.progress(sc.Name, "writing %s (%s, %s)", t.Name, sideName(side), describeLayout(written))
	if _, err := store.Write(ctx, dir, schema, data, written, store.WriteOptions{Uncompressed: true}); err != nil {
		return nil, fmt.Errorf("writing %s: %w", t.Name, err)
	}
	st, err := store.Open(dir, schema, declared)
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", t.Name, err)
	}
	st.Name, st.Trusted = t.Name, true // written above, into the run's own directory
	w.written[key] = st
	rel, err := filepath.Rel(w.root, dir)
	if err != nil {
		rel = dir
	}
	w.index = append(w.index, fmt.Sprintf("%s\t%s\t%s\t%s", filepath.ToSlash(rel), t.Name, sideName(side), describeLayout(written)))
	return st, nil
}

// writeIndex lists the tables written into Options.OutDir in its file tables.tsv: directory,
// table, side (the first side that read it) and layout, a line each. The file appears whole
// (written to a temporary file and renamed).
func (w *warehouse) writeIndex() error {
	var b strings.Builder
	b.WriteString("directory\ttable\tside\tlayout\n")
	for _, line := range w.index {
		b.WriteString(line)
		b.WriteByte('\n')
	}
	if err := writeFileAtomic(filepath.Join(w.root, "tables.tsv"), []byte(b.String())); err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	return nil
}

// storeLayout is the file layout of t with bucket spec b (nil: unbucketed). A Hive-format
// table is written as Spark writes Hive tables (HiveHash, %05d_0_ names), so the side that
// keeps it holds what the user's job produced.
func storeLayout(t *plan.Table, b *plan.BucketSpec) store.Layout {
	l := store.Layout{PartitionColumns: t.PartitionColumns}
	if b != nil && b.NumBuckets > 0 {
		l.Buckets, l.BucketColumns, l.SortColumns = b.NumBuckets, b.Columns, b.SortColumns
		l.Bucketing = bucketingOf(t)
	}
	return l
}

func describeLayout(l store.Layout) string {
	if !l.Bucketed() {
		return "unbucketed"
	}
	s := fmt.Sprintf("%d buckets by (%s)", l.Buckets, strings.Join(l.BucketColumns, ", "))
	if l.Bucketing == store.HiveBucketing {
		s += " with Hive's hash"
	}
	return s
}

func sanitize(name string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == ':' {
			return '_'
		}
		return r
	}, name)
}

// scannedTables lists the tables a plan's file scans read, sorted and unique.
func scannedTables(root plan.Node) []string {
	seen := map[string]bool{}
	plan.WalkAll(root, func(n plan.Node) bool {
		if s, ok := n.(*plan.FileScan); ok && s.Table != "" {
			seen[s.Table] = true
		}
		return true
	})
	out := make([]string, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// lookupTable finds a table by the name a scan prints ("spark_catalog.db.t" finds "db.t").
func lookupTable(tables map[string]*plan.Table, name string) *plan.Table {
	name = strings.ToLower(name)
	for {
		if t, ok := tables[name]; ok {
			return t
		}
		_, rest, ok := strings.Cut(name, ".")
		if !ok {
			return nil
		}
		name = rest
	}
}

func sameSpec(a, b *plan.Table) bool {
	if a == nil || b == nil {
		return a == b
	}
	return describeSpec(a) == describeSpec(b)
}

func describeSpec(t *plan.Table) string {
	s := fmt.Sprint(t.Columns)
	if t.Buckets() != nil {
		s += fmt.Sprint(t.Buckets().NumBuckets, t.Buckets().Columns, t.Buckets().SortColumns)
	}
	if t.Hive {
		s += " hive" // rewriting a Hive-format table as a data-source one changes its layout
	}
	return s
}

// layoutOf describes the after-side spec of a table, with the columns whose type changed.
func layoutOf(before, after *plan.Table) Layout {
	l := Layout{Columns: []string{}, SortedBy: []string{}}
	if after.Buckets() != nil {
		l.Columns = append(l.Columns, after.Buckets().Columns...)
		l.Buckets = after.Buckets().NumBuckets
		l.SortedBy = append(l.SortedBy, after.Buckets().SortColumns...)
	}
	if before != nil {
		for _, c := range after.Columns {
			if bc, ok := before.Column(c.Name); ok && bc.Type != c.Type {
				if l.Types == nil {
					l.Types = map[string]string{}
				}
				l.Types[c.Name] = c.Type
			}
		}
	}
	return l
}

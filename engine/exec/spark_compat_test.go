//go:build engine

package exec

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/engine/store"
	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
)

// The Spark compatibility check. Tables written by engine/store are adopted by a real Spark
// (oracle/engine_compat.py) with CREATE TABLE … CLUSTERED BY … LOCATION; Spark must plan
// the queries without a shuffle and return the rows the engine returns. Spark's own bucketBy
// output must pass engine/store's validation. The live run (BUCKETLINT_SPARK=1) records
// engine/testdata/spark/compat-<version>.json and the Spark-written files; the offline test
// checks the engine against those records on every go test.

const compatDir = "../testdata/spark"

type compatTable struct {
	name   string
	gen    store.GenSpec
	layout store.Layout
}

type compatQuery struct {
	name, sql string
	// plan returns the query's plan reading the tables bucket by bucket (as Spark plans it
	// over the adopted tables), or, when shuffled, reading them unbucketed through Exchanges
	// into 7 partitions, which does not depend on the layout at all.
	plan func(shuffled bool) plan.Node
}

func compatTables(tb testing.TB) []compatTable {
	tb.Helper()
	col := func(name, ty string, card int, zipf, nulls float64) store.GenColumn {
		return store.GenColumn{Name: name, Type: typ(tb, ty), Cardinality: card, Zipf: zipf, NullFraction: nulls}
	}
	return []compatTable{
		{"ca", store.GenSpec{Rows: 5000, Seed: 42, Columns: []store.GenColumn{
			col("k", "bigint", 300, 1.2, 0.02), col("a", "string", 40, 0, 0.1), col("x", "int", 50, 0, 0.05), col("dt", "date", 100, 0, 0),
		}}, store.Layout{Buckets: 8, BucketColumns: []string{"k"}, SortColumns: []string{"x"}}},
		{"cb", store.GenSpec{Rows: 4000, Seed: 43, Columns: []store.GenColumn{
			col("k", "bigint", 400, 0, 0.02), col("y", "double", 200, 0, 0.1), col("z", "string", 30, 0, 0),
		}}, store.Layout{Buckets: 8, BucketColumns: []string{"k"}, Tasks: 3}},
		{"cs", store.GenSpec{Rows: 3000, Seed: 44, Columns: []store.GenColumn{
			col("s", "string", 500, 0, 0.05), col("v", "int", 1000, 0, 0),
		}}, store.Layout{Buckets: 5, BucketColumns: []string{"s"}}},
		{"ct", store.GenSpec{Rows: 2000, Seed: 45, Columns: []store.GenColumn{
			col("s", "string", 600, 0, 0.05), col("w", "bigint", 0, 0, 0.1),
		}}, store.Layout{Buckets: 5, BucketColumns: []string{"s"}}},
		{"cp", store.GenSpec{Rows: 3000, Seed: 46, Columns: []store.GenColumn{
			col("k", "bigint", 200, 0, 0.02), col("u", "string", 20, 0, 0.1), col("p", "int", 3, 0, 0),
		}}, store.Layout{Buckets: 4, BucketColumns: []string{"k"}, PartitionColumns: []string{"p"}, Tasks: 2}},
		{"cq", store.GenSpec{Rows: 1500, Seed: 47, Columns: []store.GenColumn{
			col("k", "bigint", 250, 0, 0.02), col("w", "double", 100, 0, 0),
		}}, store.Layout{Buckets: 4, BucketColumns: []string{"k"}}},
		// Decimals wider than 18 digits: a decimal(20,2) bucket key (hashed by its
		// toByteArray bytes) and decimal(38,6) and decimal(28,4) values (stored as
		// FIXED_LEN_BYTE_ARRAY), and a table bucketed on a decimal(38,6) column.
		{"cd", store.GenSpec{Rows: 4000, Seed: 48, Columns: []store.GenColumn{
			col("k", "decimal(20,2)", 300, 0, 0.02), col("amt", "decimal(38,6)", 1500, 0, 0.1), col("q", "decimal(28,4)", 60, 0, 0.05),
			col("n", "decimal(9,2)", 40, 0, 0.05),
		}}, store.Layout{Buckets: 8, BucketColumns: []string{"k"}}},
		{"ce", store.GenSpec{Rows: 3000, Seed: 49, Columns: []store.GenColumn{
			col("k", "decimal(20,2)", 350, 0, 0.02), col("e", "string", 25, 0, 0.1),
		}}, store.Layout{Buckets: 8, BucketColumns: []string{"k"}, Tasks: 2}},
		{"cw", store.GenSpec{Rows: 2000, Seed: 50, Columns: []store.GenColumn{
			col("w", "decimal(38,6)", 700, 0, 0.05), col("n", "int", 10, 0, 0),
		}}, store.Layout{Buckets: 6, BucketColumns: []string{"w"}}},
	}
}

func compatQueries() []compatQuery {
	scan := func(shuffled bool, table, key string, cols ...string) plan.Node {
		if shuffled {
			return exchange(fileScan(table, false, cols...), 7, key)
		}
		return fileScan(table, true, cols...)
	}
	ca := func(sh bool) plan.Node { return scan(sh, "ca", "k", "k", "a", "x", "dt") }
	cb := func(sh bool) plan.Node { return scan(sh, "cb", "k", "k", "y", "z") }
	smj := func(typ, key string, l, r func(bool) plan.Node) func(bool) plan.Node {
		return func(sh bool) plan.Node {
			return joinNode(plan.SortMergeJoinStrategy, typ, "", []string{key}, []string{key}, sortNode(l(sh), key), sortNode(r(sh), key))
		}
	}
	agg := func(sh bool) plan.Node {
		mk := func(mode plan.AggregateMode, prefix string, child plan.Node) plan.Node {
			return hashAgg(mode, prefix, []string{"k"}, []string{"count(1)", "sum(x)", "min(a)", "max(dt)"}, child)
		}
		if sh {
			return mk(plan.FinalAggregate, "", exchange(mk(plan.PartialAggregate, "partial_", fileScan("ca", false, "k", "a", "x", "dt")), 7, "k"))
		}
		return mk(plan.FinalAggregate, "", mk(plan.PartialAggregate, "partial_", ca(false)))
	}
	decAgg := func(fns ...string) func(bool) plan.Node {
		return func(sh bool) plan.Node { return decAggregate(sh, fns) }
	}
	decFilter := func(sh bool) plan.Node {
		fns := []string{"count(1)", "max(amt)"}
		mk := func(mode plan.AggregateMode, prefix string, child plan.Node) plan.Node {
			return hashAgg(mode, prefix, []string{"k"}, fns, child)
		}
		const cond = "(amt > 1000.5)"
		filter := func(child plan.Node) plan.Node {
			return &plan.Filter{OpInfo: plan.OpInfo{Name: "Filter", Kids: []plan.Node{child}}, Condition: px(cond)}
		}
		if sh {
			return mk(plan.FinalAggregate, "", exchange(mk(plan.PartialAggregate, "partial_", filter(fileScan("cd", false, "k", "amt"))), 7, "k"))
		}
		return mk(plan.FinalAggregate, "", mk(plan.PartialAggregate, "partial_", filter(fileScan("cd", true, "k", "amt"))))
	}
	cs := func(sh bool) plan.Node { return scan(sh, "cs", "s", "s", "v") }
	ct := func(sh bool) plan.Node { return scan(sh, "ct", "s", "s", "w") }
	return []compatQuery{
		{"inner_join", "SELECT * FROM ca JOIN cb ON ca.k = cb.k", smj("Inner", "k", ca, cb)},
		{"full_outer_join", "SELECT * FROM ca FULL OUTER JOIN cb ON ca.k = cb.k", smj("FullOuter", "k", ca, cb)},
		{"left_anti_join", "SELECT * FROM ca LEFT ANTI JOIN cb ON ca.k = cb.k", smj("LeftAnti", "k", ca, cb)},
		{"string_key_join", "SELECT * FROM cs JOIN ct ON cs.s = ct.s", smj("Inner", "s", cs, ct)},
		{"bucketed_aggregate", "SELECT k, count(1), sum(x), min(a), max(dt) FROM ca GROUP BY k", agg},
		{"partitioned_bucketed_join", "SELECT * FROM cp JOIN cq ON cp.k = cq.k", smj("Inner", "k",
			func(sh bool) plan.Node { return scan(sh, "cp", "k", "k", "u", "p") },
			func(sh bool) plan.Node { return scan(sh, "cq", "k", "k", "w") })},
		{"wide_decimal_key_join", "SELECT * FROM cd JOIN ce ON cd.k = ce.k", smj("Inner", "k",
			func(sh bool) plan.Node { return scan(sh, "cd", "k", "k", "amt", "q", "n") },
			func(sh bool) plan.Node { return scan(sh, "ce", "k", "k", "e") })},
		{
			"wide_decimal_aggregate", "SELECT k, count(1), sum(amt), min(amt), max(amt), avg(amt), sum(q), avg(q), sum(n), avg(n) FROM cd GROUP BY k",
			decAgg("count(1)", "sum(amt)", "min(amt)", "max(amt)", "avg(amt)", "sum(q)", "avg(q)", "sum(n)", "avg(n)"),
		},
		// The same without the averages of wide decimals, which Spark before 3.4 computes
		// differently (sparkDifferences): checked on every release.
		{
			"wide_decimal_sums", "SELECT k, count(1), sum(amt), min(amt), max(amt), sum(q), sum(n), avg(n) FROM cd GROUP BY k",
			decAgg("count(1)", "sum(amt)", "min(amt)", "max(amt)", "sum(q)", "sum(n)", "avg(n)"),
		},
		// Row groups hold negative and positive decimals: Spark prunes them with their
		// statistics, which must order the values as signed numbers.
		{"wide_decimal_filter", "SELECT k, count(1), max(amt) FROM cd WHERE amt > 1000.5 GROUP BY k", decFilter},
		{"wide_decimal_self_join", "SELECT * FROM cw l JOIN cw r ON l.w = r.w", smj("Inner", "w",
			func(sh bool) plan.Node { return scan(sh, "cw", "w", "w", "n") },
			func(sh bool) plan.Node { return scan(sh, "cw", "w", "w", "n") })},
	}
}

// compatRecord is one Spark version's recorded result (the script's JSON plus the engine's).
type compatRecord struct {
	SparkVersion   string            `json:"spark_version"`
	PysparkVersion string            `json:"pyspark_version"`
	Command        string            `json:"command"`
	Confs          map[string]string `json:"confs"`
	Queries        []compatResult    `json:"queries"`
	SparkWritten   struct {
		Tables []struct {
			Name          string   `json:"name"`
			Schema        string   `json:"schema"`
			BucketColumns []string `json:"bucket_columns"`
			SortColumns   []string `json:"sort_columns"`
			Buckets       int      `json:"buckets"`
			Files         []string `json:"files"`
		} `json:"tables"`
		Queries []compatResult `json:"queries"`
	} `json:"spark_written"`
	EngineChecksums map[string]Checksum `json:"engine_checksums,omitempty"`
}

type compatResult struct {
	Name          string   `json:"name"`
	SQL           string   `json:"sql"`
	Exchanges     int      `json:"exchanges"`
	BucketedScans int      `json:"bucketed_scans"`
	Checksum      Checksum `json:"checksum"`
	Plan          []string `json:"plan"`
	// PhysicalPlan is Spark's executed plan as explain prints it, expression ids included.
	PhysicalPlan string `json:"physical_plan"`
}

// writeCompatTables writes the scenario's tables under dir and returns a catalog of them.
func writeCompatTables(t *testing.T, dir string) (*Catalog, []compatTable) {
	t.Helper()
	cat := NewCatalog()
	tables := compatTables(t)
	for _, ct := range tables {
		data, err := store.Generate(ct.gen)
		if err != nil {
			t.Fatal(err)
		}
		tab, err := store.Write(context.Background(), filepath.Join(dir, ct.name), ct.gen.Schema(), data, ct.layout, store.WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		cat.Add(ct.name, tab)
	}
	return cat, tables
}

func engineChecksums(t *testing.T, cat *Catalog) map[string]Checksum {
	t.Helper()
	out := map[string]Checksum{}
	for _, q := range compatQueries() {
		res := run(t, q.plan(false), cat)
		if res.Stats.Exchanges != 0 {
			t.Fatalf("%s: the bucket-local engine plan shuffles", q.name)
		}
		// The layout-independent plan must agree, or the bucket files are wrong.
		shuffled := run(t, q.plan(true), cat)
		if err := EqualRows(res, shuffled); err != nil || shuffled.Stats.Exchanges == 0 {
			t.Fatalf("%s: bucket-local and shuffled plans differ: %v", q.name, err)
		}
		out[q.name] = res.Checksum()
	}
	return out
}

func TestSparkCompatFixtures(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob(filepath.Join(compatDir, "compat-*.json"))
	if len(files) == 0 {
		t.Skip("no recorded Spark results in engine/testdata/spark (run with BUCKETLINT_SPARK=1)")
	}
	cat, _ := writeCompatTables(t, t.TempDir())
	engine := engineChecksums(t, cat)
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			var rec compatRecord
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &rec); err != nil {
				t.Fatal(err)
			}
			checkRecord(t, &rec, engine)
			checkSparkWritten(t, &rec, filepath.Join(compatDir, "written-"+rec.SparkVersion))
		})
	}
}

// decAggregate is the plan of an aggregation of table cd by k: bucket by bucket, or through an
// Exchange when shuffled.
func decAggregate(sh bool, fns []string) plan.Node {
	mk := func(mode plan.AggregateMode, prefix string, child plan.Node) plan.Node {
		return hashAgg(mode, prefix, []string{"k"}, fns, child)
	}
	if sh {
		return mk(plan.FinalAggregate, "", exchange(mk(plan.PartialAggregate, "partial_", fileScan("cd", false, "k", "amt", "q", "n")), 7, "k"))
	}
	return mk(plan.FinalAggregate, "", mk(plan.PartialAggregate, "partial_", fileScan("cd", true, "k", "amt", "q", "n")))
}

// sparkDifferences lists the queries whose rows changed between Spark releases, because Spark
// changed: the engine returns the rows of the release named and later ones. Each was found by
// a live run and explained from the rows of both releases.
var sparkDifferences = []struct {
	query string
	since simulate.Version
	why   string
}{
	{"wide_decimal_aggregate", simulate.Version{Major: 3, Minor: 4}, "Spark before 3.4 divides avg's decimal sum by the count at the scale " +
		"precision loss leaves (6 digits) and widens the quotient to the result type afterwards " +
		"(3.3.4: 815384615384615.38543100, 3.4+: 815384615384615.38543077); wide_decimal_sums " +
		"checks the rest of the query on every release"},
}

// sparkDiffers says why Spark version v returns other rows than the engine for query q, or "".
// A version that does not parse differs in nothing: its rows are compared.
func sparkDiffers(v, q string) string {
	ver, err := simulate.ParseVersion(v)
	if err != nil {
		return ""
	}
	for _, d := range sparkDifferences {
		if d.query == q && !ver.AtLeast(d.since.Major, d.since.Minor, 0) {
			return d.why
		}
	}
	return ""
}

// checkRecord compares Spark's recorded plans and checksums with the engine's.
func checkRecord(t *testing.T, rec *compatRecord, engine map[string]Checksum) {
	t.Helper()
	if len(rec.Queries) != len(compatQueries()) {
		t.Fatalf("%d recorded queries, want %d", len(rec.Queries), len(compatQueries()))
	}
	for _, q := range rec.Queries {
		if q.Exchanges != 0 || q.BucketedScans == 0 {
			t.Errorf("Spark %s planned %s with %d exchanges and %d bucketed scans", rec.SparkVersion, q.Name, q.Exchanges, q.BucketedScans)
		}
		if why := sparkDiffers(rec.SparkVersion, q.Name); why != "" {
			t.Logf("Spark %s %s: not compared: %s", rec.SparkVersion, q.Name, why)
			continue
		}
		if got := engine[q.Name]; got != q.Checksum || got.Rows == 0 {
			t.Errorf("Spark %s %s: checksum %s, engine %s", rec.SparkVersion, q.Name, q.Checksum, got)
		}
	}
}

// checkSparkWritten validates the layout of the tables Spark wrote with bucketBy and runs the
// recorded join over them.
func checkSparkWritten(t *testing.T, rec *compatRecord, dir string) {
	t.Helper()
	if len(rec.SparkWritten.Tables) == 0 {
		t.Fatal("no Spark-written tables recorded")
	}
	cat := NewCatalog()
	for _, wt := range rec.SparkWritten.Tables {
		schema, err := store.ParseSchema(wt.Schema)
		if err != nil {
			t.Fatal(err)
		}
		layout := store.Layout{Buckets: wt.Buckets, BucketColumns: wt.BucketColumns, SortColumns: wt.SortColumns}
		tab, err := store.Open(filepath.Join(dir, wt.Name), schema, layout)
		if err != nil {
			t.Fatal(err)
		}
		if len(tab.Files) != len(wt.Files) || len(tab.Files) <= wt.Buckets {
			t.Fatalf("%s: %d files on disk, %d recorded (want tasks x buckets > %d)", wt.Name, len(tab.Files), len(wt.Files), wt.Buckets)
		}
		v, err := store.Validate(tab, 5)
		if err != nil {
			t.Fatal(err)
		}
		if err := v.Err(); err != nil || v.Rows == 0 {
			t.Fatalf("Spark %s table %s fails validation (%d rows): %v", rec.SparkVersion, wt.Name, v.Rows, err)
		}
		cat.Add(wt.Name, tab)
		// Negative control: the same files claimed bucketed on another column fail.
		for _, c := range schema {
			if !slices.Contains(wt.BucketColumns, c.Name) {
				wrong := *tab
				wrong.Layout.BucketColumns, wrong.Layout.SortColumns = []string{c.Name}, nil
				if v, err := store.Validate(&wrong, 1); err != nil || v.Misplaced == 0 {
					t.Fatalf("%s claimed bucketed on %s: validation finds nothing (%v)", wt.Name, c.Name, err)
				}
				break
			}
		}
	}
	q := rec.SparkWritten.Queries[0]
	root := joinNode(plan.SortMergeJoinStrategy, "Inner", "", []string{"k"}, []string{"k"},
		sortNode(fileScan("sw_a", true, "k", "x", "s", "d", "dt"), "k"), sortNode(fileScan("sw_b", true, "k", "o"), "k"))
	if got := run(t, root, cat).Checksum(); got != q.Checksum || q.Exchanges != 0 {
		t.Fatalf("join of Spark-written tables: engine %s, Spark %s with %d exchanges", got, q.Checksum, q.Exchanges)
	}
}

// TestSparkCompatLive runs oracle/engine_compat.py in every pyspark venv and records the
// results. Opt-in: BUCKETLINT_SPARK=1 (needs Java and the oracle venvs).
func TestSparkCompatLive(t *testing.T) {
	if os.Getenv("BUCKETLINT_SPARK") == "" {
		t.Skip("set BUCKETLINT_SPARK=1 to run against real Spark")
	}
	venvs := os.Getenv("BUCKETLINT_VENV_DIR")
	if venvs == "" {
		home, _ := os.UserHomeDir()
		venvs = filepath.Join(home, ".cache", "bucketlint")
	}
	pythons, _ := filepath.Glob(filepath.Join(venvs, "venv-*", "bin", "python"))
	if len(pythons) == 0 {
		t.Skipf("no pyspark venvs under %s", venvs)
	}
	dir := t.TempDir()
	cat, tables := writeCompatTables(t, dir)
	engine := engineChecksums(t, cat)
	manifest := map[string]any{"tables": manifestTables(t, cat, tables), "queries": manifestQueries()}
	mpath := filepath.Join(dir, "manifest.json")
	mb, _ := json.MarshalIndent(manifest, "", " ")
	if err := os.WriteFile(mpath, mb, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, py := range pythons {
		version := strings.TrimPrefix(filepath.Base(filepath.Dir(filepath.Dir(py))), "venv-")
		t.Run(version, func(t *testing.T) {
			out := filepath.Join(dir, "result-"+version+".json")
			written := filepath.Join(dir, "written-"+version)
			cmd := exec.CommandContext(t.Context(), py, "../../oracle/engine_compat.py", "--manifest", mpath, "--out", out, "--spark-written", written)
			if b, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("%v\n%s", err, b)
			}
			b, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			var rec compatRecord
			if err := json.Unmarshal(b, &rec); err != nil {
				t.Fatal(err)
			}
			rec.EngineChecksums = engine
			rec.Command = "BUCKETLINT_SPARK=1 go test ./engine/exec -run TestSparkCompatLive (runs " + rec.Command + ")"
			keep := filepath.Join(compatDir, "written-"+rec.SparkVersion)
			if err := os.RemoveAll(keep); err != nil {
				t.Fatal(err)
			}
			copyParquet(t, written, keep)
			rb, _ := json.MarshalIndent(&rec, "", " ")
			if err := os.WriteFile(filepath.Join(compatDir, "compat-"+rec.SparkVersion+".json"), append(rb, '\n'), 0o644); err != nil {
				t.Fatal(err)
			}
			checkRecord(t, &rec, engine)
			checkSparkWritten(t, &rec, keep)
		})
	}
}

func manifestTables(t *testing.T, cat *Catalog, tables []compatTable) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, ct := range tables {
		tab, _ := cat.Lookup(ct.name)
		abs, err := filepath.Abs(tab.Dir)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, map[string]any{
			"name": ct.name, "schema": tab.Schema.String(), "location": abs,
			"bucket_columns": ct.layout.BucketColumns, "sort_columns": ct.layout.SortColumns, "buckets": ct.layout.Buckets,
		})
	}
	return out
}

func manifestQueries() []map[string]string {
	var out []map[string]string
	for _, q := range compatQueries() {
		out = append(out, map[string]string{"name": q.name, "sql": q.sql})
	}
	return out
}

// copyParquet copies the .parquet files of each table directory under src to dst.
func copyParquet(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".parquet") {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if slices.Contains(strings.Split(rel, string(filepath.Separator)), "_temporary") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return err
		}
		return os.WriteFile(to, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

//go:build engine

package verify

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/advise"
	"github.com/bucketlint/bucketlint/engine/hash"
	"github.com/bucketlint/bucketlint/parser/explain"
	"github.com/bucketlint/bucketlint/parser/sql"
	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
)

const txnDDL = `CREATE TABLE finance.transactions (txn_id BIGINT, account_id BIGINT, amount DECIMAL(18,2), channel STRING, day DATE)
USING parquet PARTITIONED BY (day) CLUSTERED BY (account_id) SORTED BY (account_id) INTO 16 BUCKETS;
CREATE TABLE finance.accounts (account_id INT, customer_id BIGINT, status STRING) USING parquet CLUSTERED BY (account_id) INTO 4 BUCKETS;
SELECT t.account_id, t.day, count(*) AS txn_count, sum(t.amount) AS net
FROM finance.transactions t JOIN finance.accounts a ON t.account_id = a.account_id
WHERE a.status <> 'CLOSED' GROUP BY t.account_id, t.day;
`

// workload parses DDL and queries into tables and a workload.
func workload(tb testing.TB, src string) (map[string]*plan.Table, []advise.WeightedQuery) {
	tb.Helper()
	p, err := sql.New()
	if err != nil {
		tb.Fatal(err)
	}
	f, errs := p.ParseFile("w.sql", []byte(src))
	if len(errs) > 0 {
		tb.Fatal(errs)
	}
	tabs := map[string]*plan.Table{}
	for _, tb := range f.Tables {
		tabs[tb.Name] = tb
	}
	var w []advise.WeightedQuery
	for _, q := range f.Queries {
		w = append(w, advise.WeightedQuery{Query: q, Weight: 1})
	}
	return tabs, w
}

func simOptions(tb testing.TB) simulate.Options {
	tb.Helper()
	v, err := simulate.ParseVersion("3.5")
	if err != nil {
		tb.Fatal(err)
	}
	return simulate.Options{SparkVersion: v, BucketOf: hash.BucketOfLiteral, Confs: map[string]string{}}
}

// parseExplain is what the command passes as ConnectOptions.ParseExplain.
func parseExplain(text string) (plan.Node, error) {
	es, errs := explain.Parse("EXPLAIN", []byte(text))
	if err := errs.Err(); err != nil {
		return nil, err
	}
	if len(es) != 1 || es[0].Physical() == nil {
		return nil, fmt.Errorf("%d physical plans in Spark's EXPLAIN", len(es))
	}
	return es[0].Physical(), nil
}

// advised returns the scenarios of the advice for src.
func advised(t *testing.T, src string) []Scenario {
	t.Helper()
	tabs, w := workload(t, src)
	sc := FromAdvice(tabs, w, adviseFor(t, tabs, w))
	if len(sc) == 0 {
		t.Fatal("no scenario from the advice")
	}
	return sc
}

func runIn(t *testing.T, root string, sc []Scenario) []Result {
	t.Helper()
	res, err := Run(context.Background(), sc, Options{Rows: 5000, Seed: 7, Sim: simOptions(t), TempRoot: root})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestAdviceVerifies(t *testing.T) {
	t.Parallel()
	sc := advised(t, txnDDL)
	res := runIn(t, t.TempDir(), sc)
	r := res[0]
	if !r.Identical || !r.Reproduced() {
		t.Fatalf("advice did not reproduce: %+v", r)
	}
	if r.Before.Exchanges == 0 || r.After.Exchanges != 0 || r.After.ShuffledRows != 0 || r.Before.ShuffledRows == 0 {
		t.Fatalf("exchanges before %+v after %+v", r.Before, r.After)
	}
	if r.Rows == 0 {
		t.Fatal("the join returned no rows: the proof is empty")
	}
	acc, txn := r.Layout["finance.accounts"], r.Layout["finance.transactions"]
	if acc.Buckets == 0 || acc.Types["account_id"] != "bigint" || (txn.Buckets != 0 && txn.Buckets != acc.Buckets) {
		t.Fatalf("layout %+v", r.Layout)
	}
}

// TestWrongLayoutCaught writes the after-side data differently from what the catalogue
// declares: the bucket-local join must then lose rows.
func TestWrongLayoutCaught(t *testing.T) {
	t.Parallel()
	for name, spec := range map[string]*plan.BucketSpec{
		"count":  {NumBuckets: 64, Columns: []string{"account_id"}},
		"column": {NumBuckets: 200, Columns: []string{"customer_id"}},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			sc := advised(t, txnDDL)
			sc[0].Written = map[string]*plan.BucketSpec{"finance.accounts": spec}
			r := runIn(t, t.TempDir(), sc)[0]
			if r.Identical || r.Reproduced() || r.Diff == "" {
				t.Fatalf("a wrong layout verified: %+v", r)
			}
		})
	}
}

// TestTempDirsRemoved checks that Run leaves nothing behind and writes nowhere else: the
// temporary root is empty afterwards and the working directory is unchanged.
func TestTempDirsRemoved(t *testing.T) {
	root := t.TempDir()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadDir(wd)
	if err != nil {
		t.Fatal(err)
	}
	runIn(t, root, advised(t, txnDDL))
	left, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(left) != 0 {
		t.Fatalf("left behind in the temp root: %v", left)
	}
	after, err := os.ReadDir(wd)
	if err != nil {
		t.Fatal(err)
	}
	if len(after) != len(before) {
		t.Fatalf("the working directory changed: %d entries, was %d", len(after), len(before))
	}
}

func TestScenarioError(t *testing.T) {
	t.Parallel()
	sc := advised(t, txnDDL)
	sc[0].Data = map[string]TableData{"finance.accounts": {Path: "missing.csv"}}
	res, err := Run(context.Background(), sc, Options{Rows: 100, Sim: simOptions(t), TempRoot: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if r := res[0]; !strings.Contains(r.Error, "missing.csv") || r.Reproduced() {
		t.Fatalf("result %+v", r)
	}
}

// TestUnbucketedSideVerifies: events is bucketed, users is not; the advice buckets users
// like events and the join loses its Exchanges with the same rows.
func TestUnbucketedSideVerifies(t *testing.T) {
	t.Parallel()
	sc := advised(t, `CREATE TABLE analytics.events (event_id STRING, user_id BIGINT, platform STRING) USING parquet
CLUSTERED BY (user_id) SORTED BY (user_id) INTO 8 BUCKETS;
CREATE TABLE analytics.users (user_id BIGINT, plan STRING, is_employee BOOLEAN) USING parquet;
SELECT u.plan, e.platform, count(*) AS events FROM analytics.events e JOIN analytics.users u ON e.user_id = u.user_id
WHERE u.is_employee = false GROUP BY u.plan, e.platform;
`)
	r := runIn(t, t.TempDir(), sc)[0]
	if !r.Reproduced() || r.Rows == 0 {
		t.Fatalf("%+v", r)
	}
}

func adviseFor(tb testing.TB, tabs map[string]*plan.Table, w []advise.WeightedQuery) []advise.Recommendation {
	tb.Helper()
	return advise.Advise(tabs, w, advise.Options{Spark: simOptions(tb)})
}

// TestFixtureData reads accounts from a CSV file (as a user's fixture) and generates the
// transactions around it.
func TestFixtureData(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var csv strings.Builder
	csv.WriteString("account_id,customer_id,status\n")
	for i := range 300 {
		status := "OPEN"
		if i%7 == 0 {
			status = "CLOSED"
		}
		fmt.Fprintf(&csv, "%d,%d,%s\n", i, i*10, status)
	}
	path := filepath.Join(dir, "accounts.csv")
	if err := os.WriteFile(path, []byte(csv.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	sc := advised(t, txnDDL)
	sc[0].Data = map[string]TableData{
		"finance.accounts":     {Path: path},
		"finance.transactions": {Rows: 4000, Columns: map[string]ColumnGen{"account_id": {Cardinality: 350}, "day": {Cardinality: 2, Start: "2024-06-29"}}},
	}
	r := runIn(t, t.TempDir(), sc)[0]
	if !r.Reproduced() || r.InputRows["finance.accounts"] != 300 || r.Rows == 0 {
		t.Fatalf("%+v", r)
	}
}

// TestFilterLiteralStartsData: with no data spec, the generated day column starts at the
// date the query filters on, so the proof is not an empty result.
func TestFilterLiteralStartsData(t *testing.T) {
	t.Parallel()
	src := strings.Replace(txnDDL, "WHERE a.status <> 'CLOSED'", "WHERE t.day = DATE'2024-06-30' AND a.status <> 'CLOSED'", 1)
	r := runIn(t, t.TempDir(), advised(t, src))[0]
	if !r.Reproduced() || r.Rows == 0 {
		t.Fatalf("%+v", r)
	}
}

// TestMemoryBudget checks that the budget covers the tables' data: a budget too small for
// the generated rows stops the scenario before they are generated and says why. (What the
// loaded data leaves is the engine's budget; engine/exec tests that one.)
func TestMemoryBudget(t *testing.T) {
	t.Parallel()
	for name, c := range map[string]struct {
		budget int64
		want   string
	}{
		"data":   {64 << 10, "generated rows need about"},
		"enough": {64 << 20, ""},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			opt := Options{Rows: 20000, Seed: 7, Sim: simOptions(t), TempRoot: t.TempDir()}
			opt.Exec.MemoryBudget = c.budget
			res, err := Run(context.Background(), advised(t, txnDDL), opt)
			if err != nil {
				t.Fatal(err)
			}
			r := res[0]
			if c.want == "" {
				if r.Error != "" || !r.Reproduced() {
					t.Fatalf("within the budget: %+v", r)
				}
				return
			}
			if !strings.Contains(r.Error, c.want) || !strings.Contains(r.Error, "memory budget") {
				t.Fatalf("error %q, want one containing %q and the budget", r.Error, c.want)
			}
		})
	}
}

// TestProgressSteps checks that the steps Run reports only move forward, stay within the
// total, and reach the last step of the last scenario.
func TestProgressSteps(t *testing.T) {
	t.Parallel()
	var seen []Progress
	opt := Options{Rows: 2000, Seed: 7, Sim: simOptions(t), TempRoot: t.TempDir(), Progress: func(p Progress) { seen = append(seen, p) }}
	sc := advised(t, txnDDL)
	if _, err := Run(context.Background(), append(sc, sc...), opt); err != nil {
		t.Fatal(err)
	}
	if len(seen) == 0 {
		t.Fatal("no progress reported")
	}
	for i, p := range seen {
		if p.Total != 8 || p.Done < 0 || p.Done >= p.Total || (i > 0 && p.Done < seen[i-1].Done) || p.Msg == "" {
			t.Fatalf("step %d: %+v after %+v", i, p, seen[max(i-1, 0)])
		}
	}
	if last := seen[len(seen)-1]; last.Done != 7 || !strings.Contains(last.Msg, "running the query (after)") {
		t.Fatalf("last progress %+v", last)
	}
}

// TestOutDirKept checks that Options.OutDir receives the tables and their index and is
// kept, and that a directory that is not empty is refused before anything is written.
func TestOutDirKept(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "out")
	opt := Options{Rows: 2000, Seed: 7, Sim: simOptions(t), OutDir: out}
	res, err := Run(context.Background(), advised(t, txnDDL), opt)
	if err != nil {
		t.Fatal(err)
	}
	if !res[0].Reproduced() {
		t.Fatalf("%+v", res[0])
	}
	index, err := os.ReadFile(filepath.Join(out, "tables.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(index)), "\n")
	if len(lines) < 3 || lines[0] != "directory\ttable\tside\tlayout" {
		t.Fatalf("tables.tsv:\n%s", index)
	}
	for _, l := range lines[1:] {
		dir := strings.Split(l, "\t")[0]
		files := 0
		err := filepath.WalkDir(filepath.Join(out, dir), func(p string, _ os.DirEntry, err error) error {
			if strings.HasSuffix(p, ".parquet") {
				files++
			}
			return err
		})
		if err != nil || files == 0 {
			t.Fatalf("%s holds no Parquet files (%v)", dir, err)
		}
	}
	before, _ := os.ReadDir(out)
	if _, err := Run(context.Background(), advised(t, txnDDL), opt); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Fatalf("a second run into the same directory: %v", err)
	}
	if after, _ := os.ReadDir(out); len(after) != len(before) {
		t.Fatalf("the refused run changed the directory: %d entries, was %d", len(after), len(before))
	}
}

// TestSettingOnlyAdviceVerifies: tables bucketed alike into 8 and 4 buckets need no rewrite,
// only bucket coalescing switched on (issue 14: the after side ran without the setting and
// the advice "did not reproduce").
func TestSettingOnlyAdviceVerifies(t *testing.T) {
	t.Parallel()
	sc := advised(t, `CREATE TABLE a (k BIGINT, v INT) USING parquet CLUSTERED BY (k) INTO 8 BUCKETS;
CREATE TABLE b (k BIGINT, w INT) USING parquet CLUSTERED BY (k) INTO 4 BUCKETS;
SELECT a.k, v, w FROM a JOIN b ON a.k = b.k;
`)
	const coalesce = "spark.sql.bucketing.coalesceBucketsInJoin.enabled"
	if sc[0].AfterConfs[coalesce] != "true" {
		t.Fatalf("the scenario's after settings %v lack %s=true", sc[0].AfterConfs, coalesce)
	}
	r := runIn(t, t.TempDir(), sc)[0]
	if !r.Reproduced() || r.Rows == 0 || r.Before.Exchanges == 0 || r.After.Exchanges != 0 {
		t.Fatalf("%+v", r)
	}
	if len(r.Layout) != 0 || r.Settings[coalesce] != "true" {
		t.Fatalf("layout %v, settings %v: want no layout change and the setting", r.Layout, r.Settings)
	}
}

// TestOutDirConcurrentRuns starts two runs into the same new OutDir at once: exactly one
// writes there, the other is refused, and the index names only the winner's tables, each
// written once (issue 14: both passed the emptiness check and mixed their files).
func TestOutDirConcurrentRuns(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "out")
	sc := advised(t, txnDDL)
	errs := make(chan error, 2)
	start := make(chan struct{})
	for range 2 {
		go func() {
			<-start
			_, err := Run(context.Background(), sc, Options{Rows: 2000, Seed: 7, Sim: simOptions(t), OutDir: out})
			errs <- err
		}()
	}
	close(start)
	var failed []error
	for range 2 {
		if err := <-errs; err != nil {
			failed = append(failed, err)
		}
	}
	if len(failed) != 1 || !strings.Contains(failed[0].Error(), "another bucketlint verify") && !strings.Contains(failed[0].Error(), "not empty") {
		t.Fatalf("want one run refused, got %v", failed)
	}
	index, err := os.ReadFile(filepath.Join(out, "tables.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(index)), "\n")[1:]
	if len(entries) != len(lines)+1 { // the table directories and tables.tsv; the lock is gone
		t.Fatalf("%d entries for %d tables:\n%s", len(entries), len(lines), index)
	}
	for _, l := range lines {
		dir := strings.SplitN(l, "\t", 2)[0]
		if _, err := os.Stat(filepath.Join(out, dir)); err != nil {
			t.Fatalf("the index names %s: %v", dir, err)
		}
	}
}

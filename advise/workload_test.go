package advise_test

import (
	"os"
	"slices"
	"testing"

	"github.com/bucketlint/bucketlint/advise"
	"github.com/bucketlint/bucketlint/parser"
	"github.com/bucketlint/bucketlint/workload"
)

// TestWeightedAndMerged: Weighted keeps every query at its own place with its weight comment;
// Merged sums a query repeated in one session (case and spacing aside), and keeps apart one
// that runs under other settings.
func TestWeightedAndMerged(t *testing.T) {
	w := load(t, map[string]string{
		"a.sql": "CREATE TABLE t (k BIGINT, v STRING) USING parquet;\n" +
			"-- weight: 10\nSELECT k, count(*) FROM t GROUP BY k;\n" +
			"SELECT v, count(*) FROM t GROUP BY v;\n" +
			"select v,  COUNT(*) from t group by v;\n",
		"b.sql": "SET spark.sql.shuffle.partitions=8;\nSELECT v, count(*) FROM t GROUP BY v;\n",
	})
	weights := func(qs []advise.WeightedQuery) []float64 {
		out := make([]float64, len(qs))
		for i, q := range qs {
			out[i] = q.Weight
		}
		return out
	}
	for _, c := range []struct {
		name string
		got  []advise.WeightedQuery
		want []float64
	}{
		{"Weighted", advise.Weighted(w, w.Queries()), []float64{10, 1, 1, 1}},
		{"Merged", advise.Merged(w, w.Queries()), []float64{10, 2, 1}},
	} {
		if got := weights(c.got); !slices.Equal(got, c.want) {
			t.Errorf("%s weights %v, want %v", c.name, got, c.want)
		}
	}
}

// TestForQuery: the plan of one query under the layout advised for it alone, and the
// layout's name.
func TestForQuery(t *testing.T) {
	w := load(t, map[string]string{"q.sql": "CREATE TABLE a (k BIGINT) USING parquet CLUSTERED BY (k) INTO 8 BUCKETS;\n" +
		"CREATE TABLE b (k BIGINT) USING parquet;\n" +
		"SELECT * FROM a JOIN b ON a.k = b.k;\n"})
	q := w.Queries()[0].Query
	after, layout := advise.ForQuery(w, q)
	if after == nil || after.Exchanges != 0 || layout != "(b in 8 buckets on (k))" {
		t.Fatalf("ForQuery = %v, %q; want no shuffle after (b in 8 buckets on (k))", after, layout)
	}
	none := load(t, map[string]string{"q.sql": "SELECT 1;\n"})
	if after, layout := advise.ForQuery(none, none.Queries()[0].Query); after != nil || layout != "" {
		t.Errorf("ForQuery of a query without tables = %v, %q; want nothing", after, layout)
	}
}

// load writes files into a fresh working directory and resolves them as the commands do.
func load(t *testing.T, files map[string]string) *workload.Workload {
	t.Helper()
	t.Chdir(t.TempDir())
	names := make([]string, 0, len(files))
	for name, src := range files {
		if err := os.WriteFile(name, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	slices.Sort(names)
	p, errs := parser.Load(t.Context(), names, parser.LoadOptions{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	w, err := workload.New(p, workload.Config{})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

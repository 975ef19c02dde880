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
	dir := t.TempDir()
	t.Chdir(dir)
	files := map[string]string{
		"a.sql": "CREATE TABLE t (k BIGINT, v STRING) USING parquet;\n" +
			"-- weight: 10\nSELECT k, count(*) FROM t GROUP BY k;\n" +
			"SELECT v, count(*) FROM t GROUP BY v;\n" +
			"select v,  COUNT(*) from t group by v;\n",
		"b.sql": "SET spark.sql.shuffle.partitions=8;\nSELECT v, count(*) FROM t GROUP BY v;\n",
	}
	for name, src := range files {
		if err := os.WriteFile(name, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p, errs := parser.Load(t.Context(), []string{"a.sql", "b.sql"}, parser.LoadOptions{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	w, err := workload.New(p, workload.Config{})
	if err != nil {
		t.Fatal(err)
	}
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

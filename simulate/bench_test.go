package simulate

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/parser/sql"
	"github.com/bucketlint/bucketlint/plan"
)

// generatedWorkload builds 20 tables (some bucketed, sizes from KiB to TiB) and n queries:
// two- and three-way joins on random keys, aggregations, windows and unions.
func generatedWorkload(tb testing.TB, n int) (map[string]*plan.Table, []WeightedQuery) {
	tb.Helper()
	r := rand.New(rand.NewSource(1))
	var ddl strings.Builder
	cols := []string{"id", "k1", "k2", "k3", "v"}
	for i := 0; i < 20; i++ {
		fmt.Fprintf(&ddl, "CREATE TABLE t%d (id BIGINT, k1 INT, k2 INT, k3 STRING, v DOUBLE) USING parquet", i)
		if i%3 != 0 {
			fmt.Fprintf(&ddl, " CLUSTERED BY (%s) INTO %d BUCKETS", cols[r.Intn(3)], []int{4, 8, 16, 32, 64}[r.Intn(5)])
		}
		ddl.WriteString(";\n")
	}
	var qs strings.Builder
	for i := 0; i < n; i++ {
		a, b, c := r.Intn(20), r.Intn(20), r.Intn(20)
		k := cols[r.Intn(3)]
		switch i % 5 {
		case 0:
			fmt.Fprintf(&qs, "SELECT * FROM t%d x JOIN t%d y ON x.%s = y.%s;\n", a, b, k, k)
		case 1:
			fmt.Fprintf(&qs, "SELECT x.%s, count(*) FROM t%d x JOIN t%d y ON x.%s = y.%s AND x.k2 = y.k2 GROUP BY x.%s;\n", k, a, b, k, k, k)
		case 2:
			fmt.Fprintf(&qs, "SELECT * FROM t%d x JOIN t%d y ON x.id = y.id JOIN t%d z ON y.id = z.id;\n", a, b, c)
		case 3:
			fmt.Fprintf(&qs, "SELECT %s, sum(v) OVER (PARTITION BY %s ORDER BY v) FROM t%d;\n", k, k, a)
		default:
			fmt.Fprintf(&qs, "SELECT %s, count(*) FROM (SELECT %s FROM t%d UNION ALL SELECT %s FROM t%d) u GROUP BY %s;\n", k, k, a, k, b, k)
		}
	}
	p, err := sql.New()
	if err != nil {
		tb.Fatal(err)
	}
	f, errs := p.ParseFile("ddl.sql", []byte(ddl.String()+qs.String()))
	if len(errs) > 0 {
		tb.Fatal(errs)
	}
	tables := map[string]*plan.Table{}
	for i, t := range f.Tables {
		t.SizeInBytes = int64(1) << (10 + 2*(i%16))
		tables[t.Name] = t
	}
	var wl []WeightedQuery
	for i, q := range f.Queries {
		wl = append(wl, WeightedQuery{Query: q, Weight: float64(1 + i%7)})
	}
	if len(wl) != n {
		tb.Fatalf("generated %d queries, want %d", len(wl), n)
	}
	return tables, wl
}

// BenchmarkSimulate simulates a 1,000-query generated workload per iteration.
func BenchmarkSimulate(b *testing.B) {
	tables, wl := generatedWorkload(b, 1000)
	opt := Options{SparkVersion: Version{Major: 3, Minor: 5, Patch: -1}}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, q := range wl {
			if _, err := Simulate(tables, q.Query, opt); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.N*len(wl))/b.Elapsed().Seconds(), "queries/s")
}

// BenchmarkAdvise advises on the same 1,000-query workload per iteration (every query is
// simulated before and, per recommendation, after).
func BenchmarkAdvise(b *testing.B) {
	tables, wl := generatedWorkload(b, 1000)
	opt := AdviseOptions{Options: Options{SparkVersion: Version{Major: 3, Minor: 5, Patch: -1}}, ClusterCores: 64, PowerOfTwo: true}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if recs := Advise(tables, wl, opt); len(recs) == 0 {
			b.Fatal("no recommendations")
		}
	}
}

// TestGeneratedWorkload runs the generated workload once in every era, so the benchmarks'
// input is also a robustness test: no error, and the advice's claimed fixes hold.
func TestGeneratedWorkload(t *testing.T) {
	tables, wl := generatedWorkload(t, 200)
	for _, v := range []string{"3.0.1", "3.2", "3.5"} {
		ver, _ := ParseVersion(v)
		for _, q := range wl {
			if _, err := Simulate(tables, q.Query, Options{SparkVersion: ver}); err != nil {
				t.Fatal(err)
			}
		}
		for _, r := range Advise(tables, wl, AdviseOptions{Options: Options{SparkVersion: ver}, ClusterCores: 64, PowerOfTwo: true}) {
			for _, f := range r.Fixes {
				if after := outcome(r, f.Query); after != nil {
					if bad := fixedSides(after.Plan, f); bad != "" {
						t.Errorf("Spark %s: %s claims %s but still shuffles: %s", v, r.Table, f, bad)
					}
				}
			}
		}
	}
}

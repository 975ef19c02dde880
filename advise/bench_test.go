package advise

import (
	"fmt"
	"testing"

	"github.com/bucketlint/bucketlint/internal/gen"
	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
)

// generatedWorkload is gen.Workload's tables and queries, query i weighted 1 + i%7.
func generatedWorkload(tb testing.TB, n int) (map[string]*plan.Table, []WeightedQuery) {
	tb.Helper()
	tables, qs := gen.Workload(tb, n)
	wl := make([]WeightedQuery, len(qs))
	for i, q := range qs {
		wl[i] = WeightedQuery{Query: q, Weight: float64(1 + i%7)}
	}
	return tables, wl
}

// BenchmarkAdvise advises on a 1,000-query generated workload per iteration (every query is
// simulated before and, per recommendation, after).
func BenchmarkAdvise(b *testing.B) {
	tables, wl := generatedWorkload(b, 1000)
	opt := Options{Spark: simulate.Options{SparkVersion: simulate.Version{Major: 3, Minor: 5, Patch: -1}}, ClusterCores: 64, PowerOfTwo: true}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if recs := Advise(tables, wl, opt); len(recs) == 0 {
			b.Fatal("no recommendations")
		}
	}
}

// TestGeneratedWorkload advises on the generated workload once in every era, so the
// benchmark's input is also a robustness test: the advice's claimed fixes hold.
func TestGeneratedWorkload(t *testing.T) {
	tables, wl := generatedWorkload(t, 200)
	for _, v := range []string{"3.0.1", "3.2", "3.5"} {
		ver, _ := simulate.ParseVersion(v)
		for _, r := range Advise(tables, wl, Options{Spark: simulate.Options{SparkVersion: ver}, ClusterCores: 64, PowerOfTwo: true}) {
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

// BenchmarkJoinChain advises on one query joining n+1 unbucketed tables in a chain on id,
// for growing n: the time should grow by a low power of the ratio of the sizes (issue 14).
func BenchmarkJoinChain(b *testing.B) {
	opt := Options{Spark: simulate.Options{SparkVersion: simulate.Version{Major: 3, Minor: 5, Patch: -1}}, ClusterCores: 64, PowerOfTwo: true}
	for _, shape := range []struct {
		name  string
		shape gen.ChainShape
	}{{"next", gen.ChainNext}, {"first", gen.ChainFirst}} {
		for _, n := range []int{100, 200, 400, 1000} {
			tables, q := gen.JoinChain(b, n, false, shape.shape)
			wl := []WeightedQuery{{Query: q, Weight: 1}}
			b.Run(fmt.Sprintf("%s/%d", shape.name, n), func(b *testing.B) {
				b.ReportAllocs()
				cpu0 := gen.CPUTime()
				for i := 0; i < b.N; i++ {
					Advise(tables, wl, opt)
				}
				b.ReportMetric(float64((gen.CPUTime()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
			})
		}
	}
}

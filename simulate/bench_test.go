package simulate

import (
	"fmt"
	"testing"

	"github.com/bucketlint/bucketlint/internal/gen"
)

// BenchmarkSimulate simulates a 1,000-query generated workload per iteration.
func BenchmarkSimulate(b *testing.B) {
	tables, wl := gen.Workload(b, 1000)
	opt := Options{SparkVersion: Version{Major: 3, Minor: 5, Patch: -1}}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, q := range wl {
			if _, err := Simulate(tables, q, opt); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.N*len(wl))/b.Elapsed().Seconds(), "queries/s")
}

// TestGeneratedWorkload simulates the generated workload once in every era, so the
// benchmark's input is also a robustness test: no error.
func TestGeneratedWorkload(t *testing.T) {
	tables, wl := gen.Workload(t, 200)
	for _, v := range []string{"3.0.1", "3.2", "3.5"} {
		ver, _ := ParseVersion(v)
		for _, q := range wl {
			if _, err := Simulate(tables, q, Options{SparkVersion: ver}); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// BenchmarkJoinChain simulates one query joining n+1 tables in a chain, for growing n: the
// time per query should grow by about the ratio of the sizes (issue 14), not its square.
func BenchmarkJoinChain(b *testing.B) {
	opt := Options{SparkVersion: Version{Major: 3, Minor: 5, Patch: -1}}
	for _, shape := range []struct {
		name  string
		shape gen.ChainShape
	}{{"next", gen.ChainNext}, {"first", gen.ChainFirst}} {
		for _, n := range []int{100, 200, 400, 1000} {
			tables, q := gen.JoinChain(b, n, true, shape.shape)
			b.Run(fmt.Sprintf("%s/%d", shape.name, n), func(b *testing.B) {
				b.ReportAllocs()
				cpu0 := gen.CPUTime()
				for i := 0; i < b.N; i++ {
					if _, err := Simulate(tables, q, opt); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64((gen.CPUTime()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
			})
		}
	}
}

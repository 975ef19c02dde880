package exec

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortedInts checks the radix sort against a stable comparison sort on keys that use
// one byte, a few, all eight, negative values, a constant, and lengths around the
// small-input cut-over.
func TestSortedInts(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	gens := map[string]func() int64{
		"small":    func() int64 { return rng.Int64N(200) },
		"24-bit":   func() int64 { return rng.Int64N(1 << 24) },
		"negative": func() int64 { return rng.Int64N(2000) - 1000 },
		"full":     func() int64 { return int64(rng.Uint64()) },
		"extremes": func() int64 { return []int64{math.MinInt64, -1, 0, 1, math.MaxInt64}[rng.IntN(5)] },
		"constant": func() int64 { return 42 },
	}
	for name, gen := range gens {
		for _, n := range []int{0, 1, 255, 256, 257, 5000} {
			keys := make([]int64, n)
			for i := range keys {
				keys[i] = gen()
			}
			got := sortedInts(keys, make([]int32, n))
			want := make([]int32, n)
			for i := range want {
				want[i] = int32(i)
			}
			slices.SortStableFunc(want, func(a, b int32) int { return cmpOrdered(keys[a], keys[b]) })
			if !slices.Equal(got, want) {
				t.Errorf("%s, %d keys: radix order differs from the stable sort", name, n)
			}
		}
	}
}

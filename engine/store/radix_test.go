//go:build engine

package store

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortInt64Pairs checks the radix sort against a stable comparison sort on keys that
// use one byte, a few, all eight, negative values, extremes, a constant, and lengths around
// the small-input cut-over.
func TestSortInt64Pairs(t *testing.T) {
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
			vals := make([]int32, n)
			for i := range keys {
				keys[i], vals[i] = gen(), int32(i)*3
			}
			want := slices.Clone(vals)
			orig := slices.Clone(keys)
			slices.SortStableFunc(want, func(a, b int32) int { return cmp.Compare(orig[a/3], orig[b/3]) })
			SortInt64Pairs(keys, vals)
			if !slices.Equal(vals, want) {
				t.Errorf("%s, %d keys: order differs from the stable sort", name, n)
			}
			if !slices.IsSorted(keys) {
				t.Errorf("%s, %d keys: keys left unsorted", name, n)
			}
		}
	}
}

func BenchmarkSortInt64Pairs(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	src := make([]int64, 1_000_000)
	for i := range src {
		src[i] = rng.Int64N(1_000_000)
	}
	keys := make([]int64, len(src))
	vals := make([]int32, len(src))
	b.SetBytes(int64(len(src)) * 12)
	for b.Loop() {
		copy(keys, src)
		SortInt64Pairs(keys, vals)
	}
}

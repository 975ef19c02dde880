//go:build engine

package store

import "slices"

// SortInt64Pairs sorts keys ascending and applies the same moves to vals (len(vals) >=
// len(keys)), stably: pairs with equal keys keep their order. It is an LSD radix sort over
// only the key bytes that differ between keys (three passes for keys below 2^24, none for
// a constant key), each pass one streaming scatter of the pairs; short inputs use a
// comparison sort. keys is left sorted.
func SortInt64Pairs(keys []int64, vals []int32) {
	n := len(keys)
	vals = vals[:n]
	if n < 256 {
		type pair struct {
			k int64
			v int32
		}
		ps := make([]pair, n)
		for i := range ps {
			ps[i] = pair{keys[i], vals[i]}
		}
		slices.SortStableFunc(ps, func(a, b pair) int {
			switch {
			case a.k < b.k:
				return -1
			case a.k > b.k:
				return 1
			}
			return 0
		})
		for i, p := range ps {
			keys[i], vals[i] = p.k, p.v
		}
		return
	}
	// Flipping the sign bit makes the unsigned order of the keys their signed order.
	const sign = 1 << 63
	var counts [8][256]int
	for _, v := range keys {
		u := uint64(v) ^ sign
		counts[0][byte(u)]++
		counts[1][byte(u>>8)]++
		counts[2][byte(u>>16)]++
		counts[3][byte(u>>24)]++
		counts[4][byte(u>>32)]++
		counts[5][byte(u>>40)]++
		counts[6][byte(u>>48)]++
		counts[7][byte(u>>56)]++
	}
	src, dst := keys, make([]int64, n)
	vsrc, vdst := vals, make([]int32, n)
	for d := range 8 {
		c := &counts[d]
		shift := uint(8 * d)
		// A byte every key shares orders nothing.
		if c[byte((uint64(src[0])^sign)>>shift)] == n {
			continue
		}
		var offs [256]int
		sum := 0
		for b := range 256 {
			offs[b] = sum
			sum += c[b]
		}
		for i, k := range src {
			b := byte((uint64(k) ^ sign) >> shift)
			j := offs[b]
			offs[b] = j + 1
			dst[j] = k
			vdst[j] = vsrc[i]
		}
		src, dst, vsrc, vdst = dst, src, vdst, vsrc
	}
	if &src[0] != &keys[0] {
		copy(keys, src)
		copy(vals, vsrc)
	}
}

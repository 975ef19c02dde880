//go:build engine

package exec

import (
	"encoding/binary"
	"math"
	"math/bits"

	"github.com/bucketlint/bucketlint/engine/store"
)

// The engine's own key hash for hash tables. It is independent of Spark's Murmur3 on
// purpose: rows of one bucket share their Spark hash modulo the bucket count, and reusing
// those bits for the table index would cluster them (reference/engine.md §6.3).
const (
	mulA     = 0x9E3779B97F4A7C15
	mulB     = 0xBF58476D1CE4E5B9
	nullMark = 0x6A09E667F3BCC909
)

func mix(h, x uint64) uint64 { return (bits.RotateLeft64(h, 23) ^ x) * mulA }

// hashKeys sets dst[i] to the hash of the key columns of row i, for rows 0..n-1.
func hashKeys(dst []uint64, cols []*store.Vec, n int) {
	dst = dst[:n]
	clear(dst)
	for _, c := range cols {
		switch c.Kind {
		case store.KindInt64:
			for i, x := range c.Ints[:n] {
				dst[i] = mix(dst[i], uint64(x))
			}
		case store.KindFloat64:
			for i, x := range c.Floats[:n] {
				dst[i] = mix(dst[i], floatKey(x))
			}
		case store.KindBytes:
			for i := range n {
				dst[i] = mix(dst[i], bytesHash(c.Data[c.Offsets[i]:c.Offsets[i+1]]))
			}
		case store.KindInt128:
			for i, x := range c.Wide[:n] {
				dst[i] = mix(mix(dst[i], x.Lo), uint64(x.Hi))
			}
		}
		if c.Nulls != nil {
			for i := range n {
				if c.IsNull(i) {
					dst[i] ^= nullMark
				}
			}
		}
	}
	for i, h := range dst {
		h ^= h >> 31
		h *= mulB
		dst[i] = h ^ h>>29
	}
}

// floatKey is the bits of a double with every NaN and -0.0 normalised, as Spark's
// NormalizeFloatingNumbers does for join and grouping keys.
func floatKey(x float64) uint64 {
	switch {
	case math.IsNaN(x):
		return 0x7ff8000000000000
	case x == 0:
		return 0
	}
	return math.Float64bits(x)
}

func bytesHash(b []byte) uint64 {
	h := uint64(len(b)) * mulB
	for len(b) >= 8 {
		h = mix(h, binary.LittleEndian.Uint64(b))
		b = b[8:]
	}
	var tail uint64
	for i, c := range b {
		tail |= uint64(c) << (8 * i)
	}
	return mix(h, tail)
}

// keysEqual compares the key columns of row i of a and row j of b; NULL equals NULL (as
// grouping needs; joins drop NULL keys before probing).
func keysEqual(a []*store.Vec, i int, b []*store.Vec, j int) bool {
	for k, x := range a {
		y := b[k]
		xn, yn := x.IsNull(i), y.IsNull(j)
		if xn || yn {
			if xn != yn {
				return false
			}
			continue
		}
		switch x.Kind {
		case store.KindInt64:
			if x.Ints[i] != y.Ints[j] {
				return false
			}
		case store.KindFloat64:
			if floatKey(x.Floats[i]) != floatKey(y.Floats[j]) {
				return false
			}
		case store.KindBytes:
			if string(x.Data[x.Offsets[i]:x.Offsets[i+1]]) != string(y.Data[y.Offsets[j]:y.Offsets[j+1]]) {
				return false
			}
		case store.KindInt128:
			if x.Wide[i] != y.Wide[j] {
				return false
			}
		}
	}
	return true
}

// anyNull reports whether row i has a NULL in one of the columns.
func anyNull(cols []*store.Vec, i int) bool {
	for _, c := range cols {
		if c.IsNull(i) {
			return true
		}
	}
	return false
}

// tableShift returns the capacity (a power of two, at least twice n so the load stays at
// most 0.5) and the shift that takes a hash's top bits as a slot index.
func tableShift(n int) (capacity int, shift uint) {
	capacity = 16
	for capacity < 2*n {
		capacity <<= 1
	}
	return capacity, uint(64 - bits.TrailingZeros(uint(capacity)))
}

//go:build engine

package store

import (
	"fmt"

	"github.com/bucketlint/bucketlint/engine/hash"
)

// A Hasher computes Spark's Murmur3 row hashes and bucket ids of column vectors. It keeps
// conversion buffers between calls, so one Hasher serves one goroutine.
type Hasher struct {
	h   []int32
	i32 []int32
	i16 []int16
	i8  []int8
	f32 []float32
	b   []bool
}

// Murmur3 returns Spark's Murmur3Hash (seed 42) of rows [0, n) over the columns cols, in
// order: the hash of HashPartitioning and of the bucketed writer. The slice is reused by the
// next call.
func (s *Hasher) Murmur3(cols []*Vec, n int) []int32 {
	s.h = grow(s.h, n)
	hash.FillSeed(s.h)
	for _, c := range cols {
		s.column(c, n)
	}
	return s.h
}

// Buckets stores pmod(Murmur3Hash(cols), buckets) of rows [0, n) in dst.
func (s *Hasher) Buckets(dst []int32, cols []*Vec, n, buckets int) {
	h := s.Murmur3(cols, n)
	hash.Buckets(dst[:n], h, buckets)
}

func (s *Hasher) column(c *Vec, n int) {
	h := s.h[:n]
	nulls := c.NullBitmap()
	switch c.Type.Kind {
	case hash.KindDecimal:
		if c.Kind == KindInt128 {
			hash.Murmur3Int128s(h, c.Wide, nulls)
		} else {
			hash.Murmur3Int64s(h, c.Ints, nulls)
		}
	case hash.KindBigInt, hash.KindTimestamp, hash.KindTimestampNTZ:
		hash.Murmur3Int64s(h, c.Ints, nulls)
	case hash.KindInt, hash.KindDate:
		hash.Murmur3Int32s(h, s.int32s(c, n), nulls)
	case hash.KindSmallInt:
		s.i16 = grow(s.i16, n)
		for i := range n {
			s.i16[i] = int16(c.Ints[i])
		}
		hash.Murmur3Int16s(h, s.i16, nulls)
	case hash.KindTinyInt:
		s.i8 = grow(s.i8, n)
		for i := range n {
			s.i8[i] = int8(c.Ints[i])
		}
		hash.Murmur3Int8s(h, s.i8, nulls)
	case hash.KindBoolean:
		s.b = grow(s.b, n)
		for i := range n {
			s.b[i] = c.Ints[i] != 0
		}
		hash.Murmur3Bools(h, s.b, nulls)
	case hash.KindDouble:
		hash.Murmur3Float64s(h, c.Floats, nulls)
	case hash.KindFloat:
		hash.Murmur3Float32s(h, s.float32s(c, n), nulls)
	case hash.KindString, hash.KindBinary:
		hash.Murmur3Strings(h, c.Offsets, c.Data, nulls)
	default:
		panic(fmt.Sprintf("store: cannot hash %s", c.Type))
	}
}

// int32s returns rows [0, n) of an integer-like vector narrowed to int32, in a buffer the
// next call reuses.
func (s *Hasher) int32s(c *Vec, n int) []int32 {
	s.i32 = grow(s.i32, n)
	for i := range n {
		s.i32[i] = int32(c.Ints[i])
	}
	return s.i32
}

// float32s returns rows [0, n) of a float vector as float32, in a buffer the next call
// reuses.
func (s *Hasher) float32s(c *Vec, n int) []float32 {
	s.f32 = grow(s.f32, n)
	for i := range n {
		s.f32[i] = float32(c.Floats[i])
	}
	return s.f32
}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

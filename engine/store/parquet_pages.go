//go:build engine

package store

import (
	"bytes"
	"encoding/binary"
	"math"

	"github.com/parquet-go/parquet-go/format"

	"github.com/bucketlint/bucketlint/engine/hash"
)

// A pageEncoder builds the bodies of v1 data pages of a flat optional column, straight from
// a vector and a list of its rows: the definition levels (RLE/bit-packed hybrid, 4-byte
// length prefix), then the non-NULL values PLAIN-encoded. Its buffers are reused from page
// to page.
type pageEncoder struct {
	body []byte
	comp []byte
	// present holds a page's rows that are not NULL.
	present []int32
}

// pageRows returns how many of rows (at least one) go into the next page of v: as many as
// keep its PLAIN values within pageSize bytes.
func pageRows(v *Vec, rows []int32, width int) int {
	if v.Kind != KindBytes {
		return min(len(rows), max(pageSize/width, 1))
	}
	size := 0
	for i, r := range rows {
		size += 4 + int(v.Offsets[r+1]-v.Offsets[r])
		if size > pageSize && i > 0 {
			return i
		}
	}
	return len(rows)
}

// plainWidth is the PLAIN width in bytes of one value of physical type t (byte arrays: their
// length prefix), and 1 for booleans (an eighth, rounded up).
func plainWidth(t format.Type, fixed int) int {
	switch t {
	case format.Int32, format.Float:
		return 4
	case format.Int64, format.Double:
		return 8
	case format.FixedLenByteArray:
		return max(fixed, 1)
	}
	return 4 // booleans and byte arrays
}

// encode builds the uncompressed body of a page holding rows of v, whose physical type is t
// (fixed is the length of a FIXED_LEN_BYTE_ARRAY), and returns it with its count of NULLs.
func (e *pageEncoder) encode(v *Vec, rows []int32, t format.Type, fixed int) ([]byte, int) {
	nulls := 0
	if v.Nulls != nil {
		for _, r := range rows {
			if v.IsNull(int(r)) {
				nulls++
			}
		}
	}
	b := appendLevels(e.body[:0], v, rows, nulls)
	present := rows
	if nulls > 0 {
		present = e.present[:0]
		for _, r := range rows {
			if !v.IsNull(int(r)) {
				present = append(present, r)
			}
		}
		e.present = present
	}
	e.body = appendPlain(b, v, present, t, fixed)
	return e.body, nulls
}

// appendLevels appends the definition levels of rows of v, nulls of which are NULL, with
// their 4-byte length: one RLE run of 1s when none is NULL, else bit-packed groups of 8.
func appendLevels(b []byte, v *Vec, rows []int32, nulls int) []byte {
	start := len(b)
	b = append(b, 0, 0, 0, 0)
	if nulls == 0 {
		b = binary.AppendUvarint(b, uint64(len(rows))<<1)
		b = append(b, 1)
	} else {
		groups := (len(rows) + 7) / 8
		b = binary.AppendUvarint(b, uint64(groups)<<1|1)
		at := len(b)
		b = append(b, make([]byte, groups)...)
		for i, r := range rows {
			if !v.IsNull(int(r)) {
				b[at+i>>3] |= 1 << (uint(i) & 7)
			}
		}
	}
	binary.LittleEndian.PutUint32(b[start:], uint32(len(b)-start-4))
	return b
}

// appendPlain appends the PLAIN encoding of rows of v (none NULL) as physical type t.
func appendPlain(b []byte, v *Vec, rows []int32, t format.Type, fixed int) []byte {
	switch t {
	case format.Boolean:
		at := len(b)
		b = append(b, make([]byte, (len(rows)+7)/8)...)
		for i, r := range rows {
			if v.Ints[r] != 0 {
				b[at+i>>3] |= 1 << (uint(i) & 7)
			}
		}
	case format.Int32:
		for _, r := range rows {
			b = binary.LittleEndian.AppendUint32(b, uint32(int32(v.Ints[r])))
		}
	case format.Int64:
		for _, r := range rows {
			b = binary.LittleEndian.AppendUint64(b, uint64(v.Ints[r]))
		}
	case format.Float:
		for _, r := range rows {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(v.Floats[r])))
		}
	case format.Double:
		for _, r := range rows {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v.Floats[r]))
		}
	case format.FixedLenByteArray: // wide decimals
		for _, r := range rows {
			at := len(b)
			b = append(b, make([]byte, fixed)...)
			v.Wide[r].PutBytes(b[at:])
		}
	default: // byte arrays
		for _, r := range rows {
			s := v.Data[v.Offsets[r]:v.Offsets[r+1]]
			b = binary.LittleEndian.AppendUint32(b, uint32(len(s)))
			b = append(b, s...)
		}
	}
	return b
}

// chunkStats gathers a column chunk's statistics as its pages are written: the NULL count,
// and the minimum and maximum of the types whose order Parquet and Spark agree on (signed
// integers, dates, timestamps and decimals, unsigned bytes for strings and binary, signed
// big-endian for wide decimals). Floating-point and boolean columns get no bounds.
type chunkStats struct {
	nulls    int64
	seen     bool
	lo, hi   int64
	wlo, whi hash.Int128
	blo, bhi []byte
}

// add folds the non-NULL rows of v into the statistics.
func (s *chunkStats) add(v *Vec, rows []int32, t format.Type) {
	for _, r := range rows {
		if v.Nulls != nil && v.IsNull(int(r)) {
			s.nulls++
			continue
		}
		switch t {
		case format.Int32, format.Int64:
			x := v.Ints[r]
			if !s.seen || x < s.lo {
				s.lo = x
			}
			if !s.seen || x > s.hi {
				s.hi = x
			}
		case format.FixedLenByteArray:
			x := v.Wide[r]
			if !s.seen || x.Cmp(s.wlo) < 0 {
				s.wlo = x
			}
			if !s.seen || x.Cmp(s.whi) > 0 {
				s.whi = x
			}
		case format.ByteArray:
			x := v.Data[v.Offsets[r]:v.Offsets[r+1]]
			if !s.seen || bytes.Compare(x, s.blo) < 0 {
				s.blo = x
			}
			if !s.seen || bytes.Compare(x, s.bhi) > 0 {
				s.bhi = x
			}
		default:
			continue
		}
		s.seen = true
	}
}

// statistics returns the chunk's statistics in the file's form (both the deprecated min/max
// fields and min_value/max_value, as parquet-go and parquet-mr write them).
func (s *chunkStats) statistics(t format.Type, fixed int) format.Statistics {
	st := format.Statistics{NullCount: s.nulls}
	if !s.seen {
		return st
	}
	var lo, hi []byte
	switch t {
	case format.Int32:
		lo = binary.LittleEndian.AppendUint32(nil, uint32(int32(s.lo)))
		hi = binary.LittleEndian.AppendUint32(nil, uint32(int32(s.hi)))
	case format.Int64:
		lo = binary.LittleEndian.AppendUint64(nil, uint64(s.lo))
		hi = binary.LittleEndian.AppendUint64(nil, uint64(s.hi))
	case format.FixedLenByteArray:
		lo, hi = make([]byte, fixed), make([]byte, fixed)
		s.wlo.PutBytes(lo)
		s.whi.PutBytes(hi)
	case format.ByteArray:
		lo, hi = bytes.Clone(s.blo), bytes.Clone(s.bhi)
	default:
		return st
	}
	st.Min, st.Max, st.MinValue, st.MaxValue = lo, hi, lo, hi
	return st
}

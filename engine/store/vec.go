//go:build engine

package store

import (
	"slices"

	"github.com/bucketlint/bucketlint/engine/hash"
)

// BatchSize is the number of rows readers put in one batch.
const BatchSize = 4096

// A Vec is one typed column vector. Exactly one of Ints, Floats, Wide or Offsets+Data is used,
// according to the physical kind of Type (see KindOf). Nulls is a bitmap as engine/hash
// defines it (bit i%64 of word i/64 set when row i is NULL); nil means no row is NULL.
// A NULL row still occupies a slot in the value slice, holding the zero value.
type Vec struct {
	Type hash.Type
	Kind Kind
	// Ints holds integer-like values: booleans as 0/1, dates as days since the epoch,
	// timestamps in microseconds, decimals as unscaled values.
	Ints   []int64
	Floats []float64
	// Wide holds the unscaled values of decimals wider than 18 digits.
	Wide []hash.Int128
	// Offsets has Len()+1 elements; row i is Data[Offsets[i]:Offsets[i+1]].
	Offsets []int32
	Data    []byte
	Nulls   []uint64
	// Codes, when it has one code per row (len(Codes) == Len()), says the rows were read from
	// a dictionary-encoded Parquet column chunk: row i holds value number Codes[i] of its
	// dictionary of DictLen values, and NULL rows hold code DictLen. Rows with equal codes
	// hold equal values (the converse need not hold), so joins and aggregations may look a
	// value up once per code. Codes is dropped by Reset; appending rows leaves it shorter
	// than the vector, where it no longer applies. See HasCodes.
	Codes   []int32
	DictLen int
}

// recycle empties the vector, keeping the memory of its values and codes.
func (v *Vec) recycle() {
	codes := v.Codes[:0]
	v.Reset()
	v.Codes = codes
}

// HasCodes reports whether v.Codes applies to every row.
func (v *Vec) HasCodes() bool { return v.Codes != nil && len(v.Codes) == v.Len() }

// NewVec returns an empty vector of type t with room for capacity rows. It panics on types
// KindOf rejects; schemas are checked when they are built.
func NewVec(t hash.Type, capacity int) *Vec {
	k, err := KindOf(t)
	if err != nil {
		panic("store: " + err.Error())
	}
	v := &Vec{Type: t, Kind: k}
	switch k {
	case KindInt64:
		v.Ints = make([]int64, 0, capacity)
	case KindFloat64:
		v.Floats = make([]float64, 0, capacity)
	case KindBytes:
		v.Offsets = make([]int32, 1, capacity+1)
	case KindInt128:
		v.Wide = make([]hash.Int128, 0, capacity)
	}
	return v
}

// Len returns the number of rows.
func (v *Vec) Len() int {
	switch v.Kind {
	case KindInt64:
		return len(v.Ints)
	case KindFloat64:
		return len(v.Floats)
	case KindBytes:
		return len(v.Offsets) - 1
	case KindInt128:
		return len(v.Wide)
	}
	return 0
}

// IsNull reports whether row i is NULL.
func (v *Vec) IsNull(i int) bool {
	w := i >> 6
	return w < len(v.Nulls) && v.Nulls[w]&(1<<(uint(i)&63)) != 0
}

// Bytes returns row i of a string or binary vector; the slice aliases v.Data.
func (v *Vec) Bytes(i int) []byte { return v.Data[v.Offsets[i]:v.Offsets[i+1]] }

// Reset empties the vector, keeping its memory.
func (v *Vec) Reset() {
	v.Ints = v.Ints[:0]
	v.Floats = v.Floats[:0]
	v.Wide = v.Wide[:0]
	if v.Kind == KindBytes {
		v.Offsets = append(v.Offsets[:0], 0)
	}
	v.Data = v.Data[:0]
	v.Nulls = v.Nulls[:0]
	if len(v.Nulls) == 0 {
		v.Nulls = nil
	}
	v.Codes, v.DictLen = nil, 0
}

// NullBitmap returns the null bitmap extended with zero words to cover every row, as the
// engine/hash kernels need, or nil when no row is NULL.
func (v *Vec) NullBitmap() []uint64 {
	if v.Nulls == nil {
		return nil
	}
	for need := hash.NullWords(v.Len()); len(v.Nulls) < need; {
		v.Nulls = append(v.Nulls, 0)
	}
	return v.Nulls
}

// markNull marks row i NULL, growing the bitmap.
func (v *Vec) markNull(i int) {
	need := hash.NullWords(i + 1)
	for len(v.Nulls) < need {
		v.Nulls = append(v.Nulls, 0)
	}
	hash.SetNull(v.Nulls, i)
}

// AppendNull appends a NULL row.
func (v *Vec) AppendNull() {
	i := v.Len()
	switch v.Kind {
	case KindInt64:
		v.Ints = append(v.Ints, 0)
	case KindFloat64:
		v.Floats = append(v.Floats, 0)
	case KindBytes:
		v.Offsets = append(v.Offsets, int32(len(v.Data)))
	case KindInt128:
		v.Wide = append(v.Wide, hash.Int128{})
	}
	v.markNull(i)
}

// AppendInt appends an integer-like value.
func (v *Vec) AppendInt(x int64) { v.Ints = append(v.Ints, x) }

// AppendWide appends the unscaled value of a decimal wider than 18 digits.
func (v *Vec) AppendWide(x hash.Int128) { v.Wide = append(v.Wide, x) }

// Decimal128 returns row i of a decimal vector of any precision as a 128-bit unscaled value.
func (v *Vec) Decimal128(i int) hash.Int128 {
	if v.Kind == KindInt128 {
		return v.Wide[i]
	}
	return hash.Int128Of(v.Ints[i])
}

// AppendFloat appends a float or double value.
func (v *Vec) AppendFloat(x float64) { v.Floats = append(v.Floats, x) }

// AppendBytes appends a string or binary value.
func (v *Vec) AppendBytes(b []byte) {
	v.Data = append(v.Data, b...)
	v.Offsets = append(v.Offsets, int32(len(v.Data)))
}

// AppendString appends a string value.
func (v *Vec) AppendString(s string) {
	v.Data = append(v.Data, s...)
	v.Offsets = append(v.Offsets, int32(len(v.Data)))
}

// AppendRows appends the rows of src listed in rows (all rows, in order, when rows is nil).
// src must have the same kind.
func (v *Vec) AppendRows(src *Vec, rows []int32) {
	base := v.Len()
	if rows == nil {
		v.appendRange(src, 0, src.Len())
		if src.Nulls != nil {
			for i := range src.Len() {
				if src.IsNull(i) {
					v.markNull(base + i)
				}
			}
		}
		return
	}
	switch v.Kind {
	case KindInt64:
		n0 := len(v.Ints)
		v.Ints = slices.Grow(v.Ints, len(rows))[:n0+len(rows)]
		dst, srcInts := v.Ints[n0:], src.Ints
		for j, r := range rows {
			dst[j] = srcInts[r]
		}
	case KindFloat64:
		n0 := len(v.Floats)
		v.Floats = slices.Grow(v.Floats, len(rows))[:n0+len(rows)]
		dst, srcFloats := v.Floats[n0:], src.Floats
		for j, r := range rows {
			dst[j] = srcFloats[r]
		}
	case KindInt128:
		n0 := len(v.Wide)
		v.Wide = slices.Grow(v.Wide, len(rows))[:n0+len(rows)]
		dst, srcWide := v.Wide[n0:], src.Wide
		for j, r := range rows {
			dst[j] = srcWide[r]
		}
	case KindBytes:
		for _, r := range rows {
			v.Data = append(v.Data, src.Data[src.Offsets[r]:src.Offsets[r+1]]...)
			v.Offsets = append(v.Offsets, int32(len(v.Data)))
		}
	}
	if src.Nulls != nil {
		for j, r := range rows {
			if src.IsNull(int(r)) {
				v.markNull(base + j)
			}
		}
	}
}

// appendRange appends the values (not the nulls) of rows [from, to) of src.
func (v *Vec) appendRange(src *Vec, from, to int) {
	switch v.Kind {
	case KindInt64:
		v.Ints = append(v.Ints, src.Ints[from:to]...)
	case KindFloat64:
		v.Floats = append(v.Floats, src.Floats[from:to]...)
	case KindInt128:
		v.Wide = append(v.Wide, src.Wide[from:to]...)
	case KindBytes:
		start := src.Offsets[from]
		shift := int32(len(v.Data)) - start
		v.Data = append(v.Data, src.Data[start:src.Offsets[to]]...)
		for _, o := range src.Offsets[from+1 : to+1] {
			v.Offsets = append(v.Offsets, o+shift)
		}
	}
}

// AppendRow appends row r of src (which has the same kind).
func (v *Vec) AppendRow(src *Vec, r int) {
	if src.IsNull(r) {
		v.AppendNull()
		return
	}
	switch v.Kind {
	case KindInt64:
		v.Ints = append(v.Ints, src.Ints[r])
	case KindFloat64:
		v.Floats = append(v.Floats, src.Floats[r])
	case KindBytes:
		v.AppendBytes(src.Bytes(r))
	case KindInt128:
		v.Wide = append(v.Wide, src.Wide[r])
	}
}

// MemBytes estimates the memory the vector's values occupy.
func (v *Vec) MemBytes() int64 {
	return int64(8*cap(v.Ints) + 8*cap(v.Floats) + 16*cap(v.Wide) + 4*cap(v.Offsets) + cap(v.Data) + 8*cap(v.Nulls) + 4*cap(v.Codes))
}

// DataBytes is the size of row values as they would travel through a shuffle: 8 bytes per
// fixed-width value (16 for a wide decimal), the length of each string, and nothing for
// NULLs.
func (v *Vec) DataBytes(rows []int32) int64 {
	if v.Kind != KindBytes {
		width := int64(8)
		if v.Kind == KindInt128 {
			width = 16
		}
		if rows == nil {
			return width * int64(v.Len())
		}
		return width * int64(len(rows))
	}
	if rows == nil {
		return int64(v.Offsets[len(v.Offsets)-1] - v.Offsets[0])
	}
	var n int64
	for _, r := range rows {
		n += int64(v.Offsets[r+1] - v.Offsets[r])
	}
	return n
}

// truncate drops the rows from n on, keeping the memory (and the codes).
func (v *Vec) truncate(n int) {
	if n >= v.Len() {
		return
	}
	if v.HasCodes() {
		v.Codes = v.Codes[:n]
	}
	switch v.Kind {
	case KindInt64:
		v.Ints = v.Ints[:n]
	case KindFloat64:
		v.Floats = v.Floats[:n]
	case KindInt128:
		v.Wide = v.Wide[:n]
	case KindBytes:
		v.Offsets = v.Offsets[:n+1]
		v.Data = v.Data[:v.Offsets[n]]
	}
	if v.Nulls == nil {
		return
	}
	w := hash.NullWords(n)
	if len(v.Nulls) > w {
		v.Nulls = v.Nulls[:w]
	}
	if w > 0 && n&63 != 0 {
		v.Nulls[w-1] &= 1<<(uint(n)&63) - 1
	}
}

// grow makes room for n more rows without reallocating.
func (v *Vec) grow(n int) {
	switch v.Kind {
	case KindInt64:
		v.Ints = slices.Grow(v.Ints, n)
	case KindFloat64:
		v.Floats = slices.Grow(v.Floats, n)
	case KindInt128:
		v.Wide = slices.Grow(v.Wide, n)
	case KindBytes:
		v.Offsets = slices.Grow(v.Offsets, n)
	}
}

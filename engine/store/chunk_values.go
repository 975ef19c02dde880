//go:build engine

package store

import (
	"errors"
	"fmt"
	"slices"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// appendValues appends the rows of a data page's value section to v: PLAIN values or
// dictionary indexes, one per row that present marks (every row when present is nil).
func (d *chunkDecoder) appendValues(enc format.Encoding, data []byte, kind parquet.Kind, rows int, present []bool, v *Vec) error {
	nv := rows
	if present != nil {
		nv = 0
		for _, p := range present {
			if p {
				nv++
			}
		}
	}
	base := v.Len()
	switch enc {
	case format.Plain:
		if err := d.appendPlain(data, kind, nv, present, v); err != nil {
			return err
		}
	case format.PlainDictionary, format.RLEDictionary: //nolint:staticcheck // parquet-mr's v1 writer, Spark's default, marks dictionary data pages PLAIN_DICTIONARY
		if err := d.appendIndexed(data, kind, nv, present, v); err != nil {
			return err
		}
	default:
		return errNotCovered
	}
	for i, p := range present {
		if !p {
			v.markNull(base + i)
		}
	}
	return nil
}

// appendIndexed decodes nv dictionary indexes (a bit width byte, then hybrid runs) and appends
// the dictionary's values at them.
func (d *chunkDecoder) appendIndexed(data []byte, kind parquet.Kind, nv int, present []bool, v *Vec) error {
	if d.dict.n < 0 {
		return errors.New("dictionary-encoded page without a dictionary page")
	}
	// Without NULLs the indexes are decoded straight into the vector's codes.
	direct := d.coding && present == nil
	var idx []int32
	if direct {
		at := len(v.Codes)
		v.Codes = slices.Grow(v.Codes, nv)[:at+nv]
		idx = v.Codes[at:]
	} else {
		d.idx = slices.Grow(d.idx[:0], nv)[:nv]
		idx = d.idx
	}
	if nv > 0 {
		if len(data) == 0 {
			return errors.New("dictionary indexes missing")
		}
		if _, err := decodeIndexes(idx, data[1:], int(data[0])); err != nil {
			return fmt.Errorf("dictionary indexes: %w", err)
		}
	}
	bad := -1
	switch kind {
	case parquet.Int32, parquet.Int64:
		v.Ints, bad = gather(v.Ints, d.dict.ints, idx, present)
	case parquet.Float, parquet.Double:
		v.Floats, bad = gather(v.Floats, d.dict.floats, idx, present)
	case parquet.ByteArray:
		offs, data := d.dict.offs, d.dict.data
		k := 0
		for i := range max(len(present), len(idx)) {
			if present == nil || present[i] {
				j := idx[k]
				k++
				if uint(j) >= uint(d.dict.n) {
					bad = k - 1
					break
				}
				v.Data = append(v.Data, data[offs[j]:offs[j+1]]...)
			}
			v.Offsets = append(v.Offsets, int32(len(v.Data)))
		}
	}
	if bad >= 0 {
		return fmt.Errorf("dictionary index %d outside the dictionary of %d values", uint32(idx[bad]), d.dict.n)
	}
	if d.coding && !direct {
		k := 0
		for _, p := range present {
			c := int32(d.dict.n) // the code of NULL
			if p {
				c = idx[k]
				k++
			}
			v.Codes = append(v.Codes, c)
		}
	}
	return nil
}

// gather appends dict[idx[k]] for each row present marks (each of idx when present is nil)
// and the zero value for the others. An index outside dict stops it: it returns the position
// in idx of that index (else -1), and out is then to be discarded.
func gather[T any](out, dict []T, idx []int32, present []bool) ([]T, int) {
	rows := len(idx)
	if present != nil {
		rows = len(present)
	}
	base := len(out)
	out = slices.Grow(out, rows)[:base+rows]
	dst := out[base:]
	if present == nil {
		for i, j := range idx {
			if uint(j) >= uint(len(dict)) {
				return out, i
			}
			dst[i] = dict[j]
		}
		return out, -1
	}
	var zero T
	k := 0
	for i, p := range present {
		if !p {
			dst[i] = zero
			continue
		}
		j := idx[k]
		if uint(j) >= uint(len(dict)) {
			return out, k
		}
		dst[i] = dict[j]
		k++
	}
	return out, -1
}

// appendPlain appends nv PLAIN values, spread over the rows present marks when not nil.
func (d *chunkDecoder) appendPlain(data []byte, kind parquet.Kind, nv int, present []bool, v *Vec) error {
	d.coding = false // parquet-mr falls back to PLAIN pages when a dictionary grows too large
	width := 0
	switch kind {
	case parquet.Int64, parquet.Double:
		width = 8
	case parquet.Int32, parquet.Float:
		width = 4
	case parquet.ByteArray:
		if present == nil {
			var err error
			v.Data, v.Offsets, err = plainByteArrays(v.Data, v.Offsets, data, nv)
			return err
		}
		last := int32(len(v.Data))
		var err error
		if v.Data, d.offs, err = plainByteArrays(v.Data, d.offs[:0], data, nv); err != nil {
			return err
		}
		k := 0
		for _, p := range present {
			if p {
				last = d.offs[k]
				k++
			}
			v.Offsets = append(v.Offsets, last)
		}
		return nil
	}
	if len(data) < width*nv {
		return fmt.Errorf("page of %d values holds %d bytes", nv, len(data))
	}
	if present == nil {
		switch kind {
		case parquet.Int64:
			v.Ints = plainInt64s(v.Ints, data, nv)
		case parquet.Int32:
			v.Ints = plainInt32s(v.Ints, data, nv)
		case parquet.Double:
			v.Floats = plainFloat64s(v.Floats, data, nv)
		case parquet.Float:
			v.Floats = plainFloat32s(v.Floats, data, nv)
		}
		return nil
	}
	// Decode the values densely, then spread them over the rows.
	d.idx = slices.Grow(d.idx[:0], nv)[:nv]
	for i := range d.idx {
		d.idx[i] = int32(i)
	}
	switch kind {
	case parquet.Int64:
		d.ints = plainInt64s(d.ints[:0], data, nv)
		v.Ints, _ = gather(v.Ints, d.ints, d.idx, present)
	case parquet.Int32:
		d.ints = plainInt32s(d.ints[:0], data, nv)
		v.Ints, _ = gather(v.Ints, d.ints, d.idx, present)
	case parquet.Double:
		d.floats = plainFloat64s(d.floats[:0], data, nv)
		v.Floats, _ = gather(v.Floats, d.floats, d.idx, present)
	case parquet.Float:
		d.floats = plainFloat32s(d.floats[:0], data, nv)
		v.Floats, _ = gather(v.Floats, d.floats, d.idx, present)
	}
	return nil
}

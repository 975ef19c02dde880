//go:build engine

package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding"
	"github.com/parquet-go/parquet-go/format"

	"github.com/bucketlint/bucketlint/engine/hash"
)

// openParquet reads the footer of the Parquet file f (at path) for page reading. The
// footer is checked first (see checkFooter): parquet-go allocates what it claims. parquet-go
// panics on some malformed schemas (a DECIMAL of no valid physical type); such a panic is
// the file's error here, whoever calls.
func openParquet(f *os.File, path string) (pf *parquet.File, err error) {
	defer func() {
		if r := recover(); r != nil {
			pf, err = nil, fmt.Errorf("read %s: corrupt parquet file: %v", path, r)
		}
	}()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("stat %s: %w", path, err)
	}
	if err := checkFooter(f, st.Size()); err != nil {
		return nil, fmt.Errorf("read parquet %s: %w", path, err)
	}
	pf, err = parquet.OpenFile(f, st.Size(), parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		return nil, fmt.Errorf("read parquet %s: %w", path, err)
	}
	return pf, nil
}

// timeScale returns the factor converting a file's INT64 timestamp unit to microseconds:
// multiply when positive, divide by -scale when negative.
func timeScale(n parquet.Node) int64 {
	lt := n.Type().LogicalType()
	if lt == nil {
		return 1
	}
	ts, ok := lt.Value.(*format.TimestampType)
	if !ok {
		return 1
	}
	switch ts.Unit.Value.(type) {
	case *format.MilliSeconds:
		return 1000
	case *format.NanoSeconds:
		return -1000
	}
	return 1
}

// readChunk appends every value of one column chunk to v, reading page by page.
func readChunk(cc parquet.ColumnChunk, leaf parquet.LeafColumn, v *Vec) (err error) {
	pages := cc.Pages()
	defer func() {
		if cerr := pages.Close(); cerr != nil && err == nil {
			err = cerr
		}
	}()
	scale := timeScale(leaf.Node)
	maxDef := byte(leaf.MaxDefinitionLevel)
	for {
		p, err := pages.ReadPage()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		err = appendPage(v, p, maxDef, scale)
		parquet.Release(p)
		if err != nil {
			return err
		}
	}
}

// appendPage appends one page's rows. Values of optional columns are stored without their
// NULLs, so a cursor k walks the values while i walks the rows.
func appendPage(v *Vec, p parquet.Page, maxDef byte, scale int64) error {
	n := int(p.NumValues())
	defs := p.DefinitionLevels()
	if maxDef == 0 || p.NumNulls() == 0 {
		defs = nil
	}
	data := p.Data()
	var idx []int32
	kind := p.Type().Kind()
	if d := p.Dictionary(); d != nil {
		idx = data.Int32()
		data = d.Page().Data()
		kind = d.Type().Kind()
	}
	src := source{data: data, idx: idx, kind: kind, scale: scale}
	if err := src.check(v); err != nil {
		return err
	}
	if err := src.checkCounts(defs, maxDef, n); err != nil {
		return err
	}
	if v.Type.Kind == hash.KindDecimal && (v.Kind == KindInt128 || kind == parquet.FixedLenByteArray || kind == parquet.ByteArray) {
		src.appendDecimals(v, defs, maxDef, n)
		return nil
	}
	if defs == nil && idx == nil && src.bulk(v, n) {
		return nil
	}
	if defs == nil && idx != nil && src.bulkDict(v, n) {
		return nil
	}
	if defs != nil && idx == nil && src.withNulls(v, defs[:n], maxDef) {
		return nil
	}
	k := 0
	for i := range n {
		if defs != nil && defs[i] < maxDef {
			v.AppendNull()
			continue
		}
		src.appendTo(v, k)
		k++
	}
	return nil
}

// bulk appends n plain values without NULLs in one go, when the kind allows it.
func (s *source) bulk(v *Vec, n int) bool {
	switch {
	case s.kind == parquet.Int64 && s.scale == 1:
		v.Ints = append(v.Ints, s.data.Int64()[:n]...)
	case s.kind == parquet.Int32:
		for _, x := range s.data.Int32()[:n] {
			v.Ints = append(v.Ints, int64(x))
		}
	case s.kind == parquet.Double:
		v.Floats = append(v.Floats, s.data.Double()[:n]...)
	case s.kind == parquet.ByteArray:
		b, off := s.data.ByteArray()
		base := int32(len(v.Data)) - int32(off[0])
		v.Data = append(v.Data, b[off[0]:off[n]]...)
		for _, o := range off[1 : n+1] {
			v.Offsets = append(v.Offsets, int32(o)+base)
		}
	default:
		return false
	}
	return true
}

// withNulls appends plain values interleaved with NULLs: one loop per kind, the value
// cursor k advancing only on non-NULL rows.
func (s *source) withNulls(v *Vec, defs []byte, maxDef byte) bool {
	base := v.Len()
	switch {
	case s.kind == parquet.Int64 && s.scale == 1:
		vals, k := s.data.Int64(), 0
		for _, d := range defs {
			var x int64
			if d == maxDef {
				x = vals[k]
				k++
			}
			v.Ints = append(v.Ints, x)
		}
	case s.kind == parquet.Int32:
		vals, k := s.data.Int32(), 0
		for _, d := range defs {
			var x int64
			if d == maxDef {
				x = int64(vals[k])
				k++
			}
			v.Ints = append(v.Ints, x)
		}
	case s.kind == parquet.Double:
		vals, k := s.data.Double(), 0
		for _, d := range defs {
			var x float64
			if d == maxDef {
				x = vals[k]
				k++
			}
			v.Floats = append(v.Floats, x)
		}
	case s.kind == parquet.ByteArray:
		b, off := s.data.ByteArray()
		k := 0
		for _, d := range defs {
			if d == maxDef {
				v.Data = append(v.Data, b[off[k]:off[k+1]]...)
				k++
			}
			v.Offsets = append(v.Offsets, int32(len(v.Data)))
		}
	default:
		return false
	}
	for i, d := range defs {
		if d != maxDef {
			v.markNull(base + i)
		}
	}
	return true
}

// bulkDict appends n dictionary-indexed values without NULLs.
func (s *source) bulkDict(v *Vec, n int) bool {
	idx := s.idx[:n]
	switch s.kind {
	case parquet.Int64:
		if s.scale != 1 {
			return false
		}
		dict := s.data.Int64()
		for _, i := range idx {
			v.Ints = append(v.Ints, dict[i])
		}
	case parquet.Int32:
		dict := s.data.Int32()
		for _, i := range idx {
			v.Ints = append(v.Ints, int64(dict[i]))
		}
	case parquet.Double:
		dict := s.data.Double()
		for _, i := range idx {
			v.Floats = append(v.Floats, dict[i])
		}
	case parquet.ByteArray:
		b, off := s.data.ByteArray()
		for _, i := range idx {
			v.Data = append(v.Data, b[off[i]:off[i+1]]...)
			v.Offsets = append(v.Offsets, int32(len(v.Data)))
		}
	default:
		return false
	}
	return true
}

// source is the decoded values of one page, dictionary-indexed or plain.
type source struct {
	data  encoding.Values
	idx   []int32
	kind  parquet.Kind
	scale int64
}

func (s *source) check(v *Vec) error {
	ok := false
	switch v.Kind {
	case KindInt64:
		ok = s.kind == parquet.Int32 || s.kind == parquet.Int64 || s.kind == parquet.Boolean || s.kind == parquet.Int96
	case KindFloat64:
		ok = s.kind == parquet.Float || s.kind == parquet.Double
	case KindBytes:
		ok = s.kind == parquet.ByteArray
	case KindInt128:
		ok = s.kind == parquet.Int32 || s.kind == parquet.Int64
	}
	if v.Type.Kind == hash.KindDecimal && (s.kind == parquet.FixedLenByteArray || s.kind == parquet.ByteArray) {
		ok = true
	}
	if !ok {
		return fmt.Errorf("cannot read parquet %s values as %s", s.kind, v.Type)
	}
	return nil
}

// checkCounts checks that a page holds what its rows need: a definition level per row, no
// level above maxDef, a value per non-NULL row, and dictionary indexes inside the dictionary.
func (s *source) checkCounts(defs []byte, maxDef byte, n int) error {
	values := n
	if defs != nil {
		if len(defs) < n {
			return fmt.Errorf("page of %d rows has %d definition levels", n, len(defs))
		}
		values = 0
		for _, d := range defs[:n] {
			switch {
			case d == maxDef:
				values++
			case d > maxDef:
				return fmt.Errorf("definition level %d above the column's maximum %d", d, maxDef)
			}
		}
	}
	have := s.count()
	if s.idx != nil {
		if len(s.idx) < values {
			return fmt.Errorf("page of %d values has %d dictionary indexes", values, len(s.idx))
		}
		for _, i := range s.idx[:values] {
			if i < 0 || int(i) >= have {
				return fmt.Errorf("dictionary index %d outside the dictionary of %d values", i, have)
			}
		}
		return nil
	}
	if have < values {
		return fmt.Errorf("page of %d values holds %d", values, have)
	}
	return nil
}

// count returns the number of values in the page's data (the dictionary's, for an indexed page).
func (s *source) count() int {
	switch s.kind {
	case parquet.Boolean:
		return len(s.data.Boolean()) * 8
	case parquet.Int32:
		return len(s.data.Int32())
	case parquet.Int64:
		return len(s.data.Int64())
	case parquet.Int96:
		return len(s.data.Int96())
	case parquet.Float:
		return len(s.data.Float())
	case parquet.Double:
		return len(s.data.Double())
	case parquet.ByteArray:
		_, off := s.data.ByteArray()
		return max(len(off)-1, 0)
	case parquet.FixedLenByteArray:
		b, size := s.data.FixedLenByteArray()
		if size <= 0 {
			return 0
		}
		return len(b) / size
	}
	return 0
}

// appendTo appends value k. The switch is per value but on a local kind, with no interface
// call, and decoding dominates anyway.
func (s *source) appendTo(v *Vec, k int) {
	if s.idx != nil {
		k = int(s.idx[k])
	}
	switch s.kind {
	case parquet.Int32:
		v.Ints = append(v.Ints, int64(s.data.Int32()[k]))
	case parquet.Int64:
		x := s.data.Int64()[k]
		if s.scale > 1 {
			x *= s.scale
		} else if s.scale < 0 {
			x /= -s.scale
		}
		v.Ints = append(v.Ints, x)
	case parquet.Boolean:
		bits := s.data.Boolean()
		v.Ints = append(v.Ints, int64(bits[k/8]>>(k%8)&1))
	case parquet.Int96:
		v.Ints = append(v.Ints, int96Micros(s.data.Int96()[k]))
	case parquet.Float:
		v.Floats = append(v.Floats, float64(s.data.Float()[k]))
	case parquet.Double:
		v.Floats = append(v.Floats, s.data.Double()[k])
	case parquet.ByteArray:
		b, off := s.data.ByteArray()
		v.AppendBytes(b[off[k]:off[k+1]])
	}
}

// appendDecimals appends n rows of a decimal column stored in any physical type Parquet
// allows (INT32, INT64, or big-endian two's complement in FIXED_LEN_BYTE_ARRAY or BINARY) to
// a vector of either width. Values wider than the vector's precision are the file's error;
// they are kept as read.
func (s *source) appendDecimals(v *Vec, defs []byte, maxDef byte, n int) {
	if v.Kind == KindInt128 && s.kind == parquet.FixedLenByteArray {
		s.appendFixedDecimals(v, defs, maxDef, n)
		return
	}
	var flba []byte
	var size int
	var ba []byte
	var off []uint32
	switch s.kind {
	case parquet.FixedLenByteArray:
		flba, size = s.data.FixedLenByteArray()
	case parquet.ByteArray:
		ba, off = s.data.ByteArray()
	}
	k := 0
	for i := range n {
		if defs != nil && defs[i] < maxDef {
			v.AppendNull()
			continue
		}
		j := k
		if s.idx != nil {
			j = int(s.idx[k])
		}
		k++
		var x hash.Int128
		switch s.kind {
		case parquet.Int32:
			x = hash.Int128Of(int64(s.data.Int32()[j]))
		case parquet.Int64:
			x = hash.Int128Of(s.data.Int64()[j])
		case parquet.FixedLenByteArray:
			x = hash.Int128FromBytes(flba[j*size : (j+1)*size])
		case parquet.ByteArray:
			x = hash.Int128FromBytes(ba[off[j]:off[j+1]])
		}
		if v.Kind == KindInt128 {
			v.Wide = append(v.Wide, x)
		} else {
			v.Ints = append(v.Ints, int64(x.Lo))
		}
	}
}

// appendFixedDecimals is appendDecimals for FIXED_LEN_BYTE_ARRAY values into a wide vector,
// the layout Spark and engine/store write: one tight loop, NULLs marked afterwards.
func (s *source) appendFixedDecimals(v *Vec, defs []byte, maxDef byte, n int) {
	data, size := s.data.FixedLenByteArray()
	base := len(v.Wide)
	v.Wide = slices.Grow(v.Wide, n)[:base+n]
	out := v.Wide[base:]
	k := 0
	for i := range out {
		if defs != nil && defs[i] < maxDef {
			out[i] = hash.Int128{}
			continue
		}
		j := k
		if s.idx != nil {
			j = int(s.idx[k])
		}
		k++
		out[i] = hash.Int128FromBytes(data[j*size : j*size+size])
	}
	for i, d := range defs {
		if d < maxDef {
			v.markNull(base + i)
		}
	}
}

// int96Micros converts Spark's legacy INT96 timestamp (nanoseconds of day, Julian day) to
// microseconds since the epoch.
func int96Micros(x [3]uint32) int64 {
	var b [12]byte
	binary.LittleEndian.PutUint32(b[0:], x[0])
	binary.LittleEndian.PutUint32(b[4:], x[1])
	binary.LittleEndian.PutUint32(b[8:], x[2])
	nanos := int64(binary.LittleEndian.Uint64(b[0:8]))
	day := int64(binary.LittleEndian.Uint32(b[8:12]))
	const julianEpoch = 2440588
	return (day-julianEpoch)*int64(24*time.Hour/time.Microsecond) + nanos/1000
}

// checkReadable reports an error for SQL types the reader cannot fill.
func checkReadable(t hash.Type) error {
	_, err := KindOf(t)
	return err
}

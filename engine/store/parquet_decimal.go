//go:build engine

package store

import (
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"

	"github.com/bucketlint/bucketlint/engine/hash"
)

// signedFixedType is a FIXED_LEN_BYTE_ARRAY type for decimals whose statistics order values
// as the DECIMAL logical type requires: as signed big-endian two's complement numbers.
// parquet-go orders every fixed-length byte array as unsigned bytes, so a row group or page
// holding negative and positive decimals would get a minimum above its maximum, and readers
// that prune with statistics or the column index (Spark's filter push-down through
// parquet-mr) would skip rows a filter keeps.
type signedFixedType struct{ parquet.Type }

func (t signedFixedType) Compare(a, b parquet.Value) int {
	return hash.Int128FromBytes(a.ByteArray()).Cmp(hash.Int128FromBytes(b.ByteArray()))
}

func (t signedFixedType) NewColumnBuffer(columnIndex, numValues int) parquet.ColumnBuffer {
	return signedFixedBuffer{t.Type.NewColumnBuffer(columnIndex, numValues)}
}

func (t signedFixedType) NewColumnIndexer(sizeLimit int) parquet.ColumnIndexer {
	return unorderedIndexer{t.Type.NewColumnIndexer(sizeLimit)}
}

// signedFixedBuffer hands out pages with signed bounds.
type signedFixedBuffer struct{ parquet.ColumnBuffer }

func (b signedFixedBuffer) Page() parquet.Page { return signedFixedPage{b.ColumnBuffer.Page()} }

// signedFixedPage is a page whose Bounds compare values as signed numbers.
type signedFixedPage struct{ parquet.Page }

func (p signedFixedPage) Bounds() (minValue, maxValue parquet.Value, ok bool) {
	vals := p.Data()
	data, size := vals.FixedLenByteArray()
	if size == 0 || len(data) < size {
		return parquet.Value{}, parquet.Value{}, false
	}
	lo, hi := data[:size], data[:size]
	loX, hiX := hash.Int128FromBytes(lo), hash.Int128FromBytes(hi)
	for i := size; i+size <= len(data); i += size {
		b := data[i : i+size]
		x := hash.Int128FromBytes(b)
		if x.Cmp(loX) < 0 {
			lo, loX = b, x
		}
		if x.Cmp(hiX) > 0 {
			hi, hiX = b, x
		}
	}
	return parquet.FixedLenByteArrayValue(lo), parquet.FixedLenByteArrayValue(hi), true
}

// unorderedIndexer records the column index as parquet-go does but declares the pages'
// bounds unordered: parquet-go derives the boundary order from an unsigned comparison,
// which is wrong for signed decimals, and readers binary-search ordered bounds.
type unorderedIndexer struct{ parquet.ColumnIndexer }

func (x unorderedIndexer) ColumnIndex() format.ColumnIndex {
	ci := x.ColumnIndexer.ColumnIndex()
	ci.BoundaryOrder = format.Unordered
	return ci
}

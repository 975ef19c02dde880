//go:build engine

package store

import (
	"bufio"
	"fmt"
	"os"

	"github.com/parquet-go/parquet-go"

	"github.com/bucketlint/bucketlint/engine/hash"
)

// parquetNode returns the Parquet type Spark writes for a SQL type and reads back as that
// type (reference/engine.md §4.4): signed INT(8/16/32/64), STRING byte arrays, DATE,
// TIMESTAMP(MICROS) adjusted to UTC (timestamp) or not (timestamp_ntz), and DECIMAL on INT32,
// INT64 or FIXED_LEN_BYTE_ARRAY as Spark's own writer chooses by precision
// (ParquetWriteSupport.makeDecimalWriter, non-legacy format).
func parquetNode(t hash.Type) (parquet.Node, error) {
	var n parquet.Node
	switch t.Kind {
	case hash.KindBoolean:
		n = parquet.Leaf(parquet.BooleanType)
	case hash.KindTinyInt:
		n = parquet.Int(8)
	case hash.KindSmallInt:
		n = parquet.Int(16)
	case hash.KindInt:
		n = parquet.Int(32)
	case hash.KindBigInt:
		n = parquet.Int(64)
	case hash.KindFloat:
		n = parquet.Leaf(parquet.FloatType)
	case hash.KindDouble:
		n = parquet.Leaf(parquet.DoubleType)
	case hash.KindString:
		n = parquet.String()
	case hash.KindBinary:
		n = parquet.Leaf(parquet.ByteArrayType)
	case hash.KindDate:
		n = parquet.Date()
	case hash.KindTimestamp:
		n = parquet.Timestamp(parquet.Microsecond)
	case hash.KindTimestampNTZ:
		n = parquet.TimestampAdjusted(parquet.Microsecond, false)
	case hash.KindDecimal:
		phys := parquet.Type(parquet.Int64Type)
		switch {
		case t.Precision <= 9:
			phys = parquet.Int32Type
		case t.Precision > hash.MaxLongDigits:
			phys = signedFixedType{parquet.FixedLenByteArrayType(MinBytesForPrecision(t.Precision))}
		}
		n = parquet.Decimal(t.Scale, t.Precision, phys)
	default:
		return nil, fmt.Errorf("type %s cannot be written to parquet", t)
	}
	// PLAIN, the encoding every Spark reader since 3.0 decodes (Spark's own writer falls back
	// to it). The library's default for byte arrays is DELTA_LENGTH_BYTE_ARRAY, which the
	// vectorized readers of Spark 3.0–3.3 refuse ("Unsupported encoding") and Spark 3.4
	// misreads in v1 data pages (engine/testdata/spark/compat-3.4.4.json).
	return parquet.Optional(parquet.Encoded(n, &parquet.Plain)), nil
}

// MinBytesForPrecision is Spark's Decimal.minBytesForPrecision: the fewest bytes of big-endian
// two's complement that hold every unscaled value of a decimal of precision p (9 for 19
// digits, 16 for 38), the FIXED_LEN_BYTE_ARRAY length Spark writes.
func MinBytesForPrecision(p int) int {
	limit := hash.Pow10Int128(p)
	for n := 1; ; n++ {
		// 2^(8n-1) >= 10^p
		if bits := 8*n - 1; bits >= 127 || hash.Int128Of(1).Shl(bits).Cmp(limit) >= 0 {
			return n
		}
	}
}

// parquetSchema returns the file schema of the columns cols of s and, for each of them, its
// leaf column index in the file (parquet-go orders group fields by name).
func parquetSchema(s Schema, cols []int) (*parquet.Schema, []int, error) {
	g := parquet.Group{}
	for _, c := range cols {
		n, err := parquetNode(s[c].Type)
		if err != nil {
			return nil, nil, fmt.Errorf("column %s: %w", s[c].Name, err)
		}
		g[s[c].Name] = n
	}
	ps := parquet.NewSchema("spark_schema", g)
	leaf := make([]int, len(cols))
	for i, c := range cols {
		lc, ok := ps.Lookup(s[c].Name)
		if !ok {
			return nil, nil, fmt.Errorf("internal error: column %s missing from parquet schema", s[c].Name)
		}
		leaf[i] = lc.ColumnIndex
	}
	return ps, leaf, nil
}

// fileWriter writes rows of a batch into one Parquet file, column by column.
type fileWriter struct {
	schema *parquet.Schema
	cols   []int // batch column of each written column
	leaf   []int // parquet leaf index of each written column
	vals   []parquet.Value
	// wide holds the big-endian bytes of a chunk of wide decimals; the values point into it.
	wide  []byte
	codec snappyCodec
}

const (
	writeChunk = 4096
	// rowGroupRows caps a row group (Spark's own writer cuts them at 128 MiB).
	rowGroupRows = 1 << 20
	// pageSize is the data page size Spark's writer uses (parquet.page.size, 1 MiB); pages
	// of parquet-go's default 256 KiB made the bucket-local join benchmark about 5% slower
	// to read, 64 KiB pages 10%.
	pageSize = 1 << 20
)

func newFileWriter(s Schema, cols []int, codec snappyCodec) (*fileWriter, error) {
	ps, leaf, err := parquetSchema(s, cols)
	if err != nil {
		return nil, err
	}
	return &fileWriter{schema: ps, cols: cols, leaf: leaf, vals: make([]parquet.Value, writeChunk), codec: codec}, nil
}

// write creates path (which must not exist) and writes rows of b in the given order. Each
// chunk of rows goes into the file's column writers one column at a time, so no row-major
// copy of the values is built and regrouped.
func (w *fileWriter) write(path string, b *Batch, rows []int32) (err error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("create %s: %w", path, err)
	}
	defer func() {
		if cerr := f.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("close %s: %w", path, cerr)
		}
	}()
	// A fresh writer per file: one writer reused across files with Reset produced files
	// that Spark 3.5.9 rejected (InvalidRecordException), while parquet-go read them.
	bw := bufio.NewWriterSize(f, 1<<20)
	pw := parquet.NewGenericWriter[any](bw, w.schema, parquet.DataPageVersion(1),
		parquet.Compression(w.codec), parquet.PageBufferSize(pageSize), parquet.CreatedBy("bucketlint", "0", ""))
	cw := pw.ColumnWriters()
	inGroup := 0
	for start := 0; start < len(rows); {
		if inGroup == rowGroupRows {
			if err := pw.Flush(); err != nil {
				return fmt.Errorf("write %s: %w", path, err)
			}
			inGroup = 0
		}
		end := min(start+writeChunk, len(rows), start+rowGroupRows-inGroup)
		chunk := rows[start:end]
		vals := w.vals[:len(chunk)]
		for k, c := range w.cols {
			w.wide = fillColumn(vals, w.leaf[k], b.Cols[c], chunk, w.wide)
			if _, err := cw[w.leaf[k]].WriteRowValues(vals); err != nil {
				return fmt.Errorf("write %s: %w", path, err)
			}
		}
		inGroup += len(chunk)
		start = end
	}
	if err := pw.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// fillColumn stores the Parquet values of rows of v, column leaf of the file, into cells:
// one type switch per column and chunk, then a tight loop. Wide decimals are encoded into
// buf, which it returns grown for reuse.
func fillColumn(cells []parquet.Value, leaf int, v *Vec, rows []int32, buf []byte) []byte {
	switch v.Type.Kind {
	case hash.KindBoolean:
		for j, r := range rows {
			cells[j] = parquet.BooleanValue(v.Ints[r] != 0).Level(0, 1, leaf)
		}
	case hash.KindTinyInt, hash.KindSmallInt, hash.KindInt, hash.KindDate:
		for j, r := range rows {
			cells[j] = parquet.Int32Value(int32(v.Ints[r])).Level(0, 1, leaf)
		}
	case hash.KindDecimal:
		switch {
		case v.Kind == KindInt128:
			width := MinBytesForPrecision(v.Type.Precision)
			buf = grow(buf, len(rows)*width)
			for j, r := range rows {
				b := buf[j*width : (j+1)*width]
				v.Wide[r].PutBytes(b)
				cells[j] = parquet.FixedLenByteArrayValue(b).Level(0, 1, leaf)
			}
		case v.Type.Precision <= 9:
			for j, r := range rows {
				cells[j] = parquet.Int32Value(int32(v.Ints[r])).Level(0, 1, leaf)
			}
		default:
			for j, r := range rows {
				cells[j] = parquet.Int64Value(v.Ints[r]).Level(0, 1, leaf)
			}
		}
	case hash.KindFloat:
		for j, r := range rows {
			cells[j] = parquet.FloatValue(float32(v.Floats[r])).Level(0, 1, leaf)
		}
	case hash.KindDouble:
		for j, r := range rows {
			cells[j] = parquet.DoubleValue(v.Floats[r]).Level(0, 1, leaf)
		}
	case hash.KindString, hash.KindBinary:
		for j, r := range rows {
			cells[j] = parquet.ByteArrayValue(v.Data[v.Offsets[r]:v.Offsets[r+1]]).Level(0, 1, leaf)
		}
	default:
		for j, r := range rows {
			cells[j] = parquet.Int64Value(v.Ints[r]).Level(0, 1, leaf)
		}
	}
	if v.Nulls != nil {
		for j, r := range rows {
			if v.IsNull(int(r)) {
				cells[j] = parquet.Value{}.Level(0, 0, leaf)
			}
		}
	}
	return buf
}

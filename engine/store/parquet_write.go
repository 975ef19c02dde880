//go:build engine

package store

import (
	"fmt"

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
			phys = parquet.FixedLenByteArrayType(MinBytesForPrecision(t.Precision))
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

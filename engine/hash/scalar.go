package hash

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// Options select the Spark behaviour that changed between versions. The zero value is
// Spark 3.2 and later (3.2–4.x).
type Options struct {
	// RawNegativeZero hashes float and double -0.0 by its own bits, as Spark before 3.2
	// did. Spark 3.2 (SPARK-35207) hashes -0.0 as 0.0 in Murmur3Hash and HiveHash.
	RawNegativeZero bool
}

// OptionsFor returns the Options of a Spark version written "3.1", "3.5.3" or
// "4.0.0-preview2".
func OptionsFor(version string) (Options, error) {
	majorS, rest, _ := strings.Cut(version, ".")
	minorS, _, _ := strings.Cut(rest, ".")
	minorS, _, _ = strings.Cut(minorS, "-")
	major, err1 := strconv.Atoi(majorS)
	minor, err2 := strconv.Atoi(minorS)
	if err1 != nil || err2 != nil || major < 0 || minor < 0 {
		return Options{}, fmt.Errorf("spark version %q: want major.minor[.patch]", version)
	}
	return Options{RawNegativeZero: major < 3 || major == 3 && minor < 2}, nil
}

// Murmur3 returns Spark's Murmur3Hash of one row (seed 42; Spark 3.2 and later): the hash
// whose pmod by the bucket count is the row's bucket id (see [Bucket]).
func Murmur3(values []Value) int32 { return Options{}.Murmur3(values) }

// Murmur3 returns Spark's Murmur3Hash of one row for the Spark versions o describes:
// columns left to right, each column's hash the seed of the next, starting from [Seed].
func (o Options) Murmur3(values []Value) int32 {
	h := Seed
	for _, v := range values {
		h = o.Murmur3Value(v, h)
	}
	return h
}

// Murmur3Value returns the Murmur3 hash of one value with the given seed, following
// InterpretedHashFunction.hash in Spark's hash.scala. NULL (and the zero Value) returns
// seed unchanged.
func (o Options) Murmur3Value(v Value, seed int32) int32 {
	if v.null {
		return seed
	}
	switch v.typ.Kind {
	case KindBoolean, KindTinyInt, KindSmallInt, KindInt, KindDate:
		return Murmur3Int(int32(v.n), seed)
	case KindBigInt, KindTimestamp, KindTimestampNTZ:
		return Murmur3Long(v.n, seed)
	case KindFloat:
		return Murmur3Int(int32(floatBits(math.Float32frombits(uint32(v.n)), o.RawNegativeZero)), seed)
	case KindDouble:
		return Murmur3Long(int64(doubleBits(math.Float64frombits(uint64(v.n)), o.RawNegativeZero)), seed)
	case KindDecimal:
		if v.big == nil {
			return Murmur3Long(v.n, seed)
		}
		return Murmur3Bytes(javaBytes(v.big), seed)
	case KindString, KindBinary:
		return hashString(v.s, seed)
	case KindArray:
		h := seed
		for _, e := range v.elems {
			h = o.Murmur3Value(e, h)
		}
		return h
	}
	return seed
}

// Hive returns Spark's HiveHash of one row (Spark 3.2 and later), the hash of Hive-format
// bucketed tables (see [HiveBucket]).
func Hive(values []Value) int32 { return Options{}.Hive(values) }

// Hive returns Spark's HiveHash of one row: h = 31*h + hash(column) from h = 0, where a
// NULL column hashes to 0 (HiveHash.eval in hash.scala).
func (o Options) Hive(values []Value) int32 {
	var h int32
	for _, v := range values {
		h = 31*h + o.HiveValue(v)
	}
	return h
}

// HiveValue returns the HiveHash of one value (HiveHashFunction.hash in Spark's hash.scala,
// after Hive 1.2.1's ObjectInspectorUtils.hashCode): int-like values and dates are their own
// hash, bigint xor-folds its halves, floats and doubles hash their canonical bits the same
// way, strings and binary fold r = 31*r + signed byte, decimals hash as Hive's normalised
// java.math.BigDecimal, timestamps as Hive's TimestampWritable. NULL hashes to 0.
func (o Options) HiveValue(v Value) int32 {
	if v.null {
		return 0
	}
	switch v.typ.Kind {
	case KindBoolean, KindTinyInt, KindSmallInt, KindInt, KindDate:
		return int32(v.n)
	case KindBigInt:
		return hiveLong(v.n)
	case KindTimestamp, KindTimestampNTZ:
		// timestamp_ntz: Spark's generated code (genHashTimestamp) treats it like
		// timestamp; the interpreted path xor-folds the long instead. Generated code is
		// what writes tables, so follow it.
		return hiveTimestamp(v.n)
	case KindFloat:
		return int32(floatBits(math.Float32frombits(uint32(v.n)), o.RawNegativeZero))
	case KindDouble:
		return hiveLong(int64(doubleBits(math.Float64frombits(uint64(v.n)), o.RawNegativeZero)))
	case KindDecimal:
		if v.big == nil {
			return hiveDecimal64(v.n, v.typ.Scale)
		}
		return hiveDecimal(v.big, v.typ.Scale)
	case KindString, KindBinary:
		return hiveString(v.s)
	case KindArray:
		var h int32
		for _, e := range v.elems {
			h = 31*h + o.HiveValue(e)
		}
		return h
	}
	return 0
}

// floatBits is java.lang.Float.floatToIntBits (every NaN is 0x7fc00000) with -0.0 mapped
// to 0.0 unless raw.
func floatBits(f float32, raw bool) uint32 {
	switch {
	case f != f:
		return 0x7fc00000
	case f == 0 && !raw:
		return 0
	}
	return math.Float32bits(f)
}

// doubleBits is java.lang.Double.doubleToLongBits (every NaN is 0x7ff8000000000000) with
// -0.0 mapped to 0.0 unless raw.
func doubleBits(f float64, raw bool) uint64 {
	switch {
	case f != f:
		return 0x7ff8000000000000
	case f == 0 && !raw:
		return 0
	}
	return math.Float64bits(f)
}

// javaBytes returns java.math.BigInteger.toByteArray of v: the shortest big-endian two's
// complement encoding, at least one byte.
func javaBytes(v *big.Int) []byte {
	n := (v.BitLen()+8)/8 + 1 // room for the sign bit
	b := make([]byte, n)
	if v.Sign() >= 0 {
		v.FillBytes(b)
	} else {
		// two's complement of -|v| in n bytes: ^(|v| - 1)
		m := new(big.Int).Sub(new(big.Int).Neg(v), big.NewInt(1))
		m.FillBytes(b)
		for i := range b {
			b[i] = ^b[i]
		}
	}
	return minimalTwosComplement(b)
}

// minimalTwosComplement drops the leading bytes of a big-endian two's complement number
// that only repeat its sign, as BigInteger.toByteArray never writes them.
func minimalTwosComplement(b []byte) []byte {
	for len(b) > 1 && (b[0] == 0 && b[1]&0x80 == 0 || b[0] == 0xff && b[1]&0x80 != 0) {
		b = b[1:]
	}
	return b
}

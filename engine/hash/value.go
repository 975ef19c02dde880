package hash

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"
)

// A Value is one typed SQL value, possibly NULL, for the scalar API. Values are immutable;
// build them with the constructors ([Int], [String], [Decimal], [Null], ...) or [ParseValue].
// The zero Value has no type; it hashes like NULL.
type Value struct {
	typ  Type
	null bool
	// n holds boolean (0/1), integer, date (days), timestamp (micros), the raw IEEE bits of
	// float and double, and the unscaled value of a decimal of precision <= 18.
	n int64
	// big is the unscaled value of a decimal of precision > 18.
	big *big.Int
	// s holds the bytes of a string or binary value.
	s string
	// elems are the elements of an array.
	elems []Value
}

// Null returns the SQL NULL of type t.
func Null(t Type) Value { return Value{typ: t, null: true} }

// Boolean returns a boolean value.
func Boolean(v bool) Value {
	if v {
		return Value{typ: Type{Kind: KindBoolean}, n: 1}
	}
	return Value{typ: Type{Kind: KindBoolean}}
}

// TinyInt returns a tinyint value.
func TinyInt(v int8) Value { return Value{typ: Type{Kind: KindTinyInt}, n: int64(v)} }

// SmallInt returns a smallint value.
func SmallInt(v int16) Value { return Value{typ: Type{Kind: KindSmallInt}, n: int64(v)} }

// Int returns an int value.
func Int(v int32) Value { return Value{typ: Type{Kind: KindInt}, n: int64(v)} }

// BigInt returns a bigint value.
func BigInt(v int64) Value { return Value{typ: Type{Kind: KindBigInt}, n: v} }

// Float returns a float value.
func Float(v float32) Value {
	return Value{typ: Type{Kind: KindFloat}, n: int64(math.Float32bits(v))}
}

// Double returns a double value.
func Double(v float64) Value {
	return Value{typ: Type{Kind: KindDouble}, n: int64(math.Float64bits(v))}
}

// String returns a string value holding the bytes of s (Spark hashes the UTF-8 bytes as
// they are; s is not validated).
func String(s string) Value { return Value{typ: Type{Kind: KindString}, s: s} }

// Binary returns a binary value holding a copy of b.
func Binary(b []byte) Value { return Value{typ: Type{Kind: KindBinary}, s: string(b)} }

// Date returns a date value, days since 1970-01-01 (Spark's internal representation).
func Date(days int32) Value { return Value{typ: Type{Kind: KindDate}, n: int64(days)} }

// Timestamp returns a timestamp value, microseconds since 1970-01-01 00:00:00 UTC.
func Timestamp(micros int64) Value { return Value{typ: Type{Kind: KindTimestamp}, n: micros} }

// TimestampNTZ returns a timestamp_ntz value: the microseconds that separate its wall-clock
// time, read as UTC, from the epoch.
func TimestampNTZ(micros int64) Value {
	return Value{typ: Type{Kind: KindTimestampNTZ}, n: micros}
}

// Decimal64 returns a decimal(p,s) value whose unscaled value is unscaled, so that 12.50 in
// decimal(10,2) is Decimal64(1250, 10, 2). It fails when the type is invalid or unscaled has
// more than p digits.
func Decimal64(unscaled int64, p, s int) (Value, error) {
	return Decimal(big.NewInt(unscaled), p, s)
}

// Decimal returns a decimal(p,s) value whose unscaled value is unscaled (which is copied).
// It fails when the type is invalid or unscaled has more than p digits.
func Decimal(unscaled *big.Int, p, s int) (Value, error) {
	t := DecimalType(p, s)
	if err := t.validate(); err != nil {
		return Value{}, err
	}
	if digits(unscaled) > p {
		return Value{}, fmt.Errorf("unscaled value %s has more than %d digits", unscaled, p)
	}
	if p <= MaxLongDigits {
		return Value{typ: t, n: unscaled.Int64()}, nil
	}
	return Value{typ: t, big: new(big.Int).Set(unscaled)}, nil
}

// digits returns the number of decimal digits of |v| (1 for 0).
func digits(v *big.Int) int {
	s := v.String()
	return len(strings.TrimPrefix(s, "-"))
}

// Array returns an array<elem> value. Every element must have type elem (or be its NULL).
func Array(elem Type, elems ...Value) (Value, error) {
	for i, e := range elems {
		if !sameType(e.typ, elem) {
			return Value{}, fmt.Errorf("array element %d has type %s, want %s", i, e.typ, elem)
		}
	}
	return Value{typ: ArrayType(elem), elems: append([]Value(nil), elems...)}, nil
}

func sameType(a, b Type) bool {
	if a.Kind != b.Kind || a.Precision != b.Precision || a.Scale != b.Scale {
		return false
	}
	if a.Kind == KindArray {
		return a.Elem != nil && b.Elem != nil && sameType(*a.Elem, *b.Elem)
	}
	return true
}

// Type returns the value's type.
func (v Value) Type() Type { return v.typ }

// IsNull reports whether v is SQL NULL.
func (v Value) IsNull() bool { return v.null }

// Unscaled returns the unscaled value of a decimal, nil for other kinds and NULL.
func (v Value) Unscaled() *big.Int {
	switch {
	case v.null || v.typ.Kind != KindDecimal:
		return nil
	case v.big != nil:
		return new(big.Int).Set(v.big)
	}
	return big.NewInt(v.n)
}

// String returns the value as a user would type it for ParseValue: NULL as \N, dates as
// 2024-01-31, timestamps as 2024-01-31 12:00:00[.ffffff] (UTC), decimals with exactly
// their scale's fractional digits, binary as X'hex'.
func (v Value) String() string {
	if v.null {
		return `\N`
	}
	switch v.typ.Kind {
	case KindBoolean:
		return strconv.FormatBool(v.n != 0)
	case KindTinyInt, KindSmallInt, KindInt, KindBigInt:
		return strconv.FormatInt(v.n, 10)
	case KindFloat:
		return formatFloat(float64(math.Float32frombits(uint32(v.n))), 32)
	case KindDouble:
		return formatFloat(math.Float64frombits(uint64(v.n)), 64)
	case KindDecimal:
		return formatDecimal(v.Unscaled(), v.typ.Scale)
	case KindString:
		return v.s
	case KindBinary:
		return fmt.Sprintf("X'%X'", v.s)
	case KindDate:
		return time.Unix(v.n*secondsPerDay, 0).UTC().Format(time.DateOnly)
	case KindTimestamp, KindTimestampNTZ:
		return time.UnixMicro(v.n).UTC().Format("2006-01-02 15:04:05.999999")
	case KindArray:
		parts := make([]string, len(v.elems))
		for i, e := range v.elems {
			parts[i] = e.String()
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return "invalid"
}

const secondsPerDay = 86400

// formatFloat writes f as Java prints it for the usual cases: NaN, Infinity, -Infinity, and
// a decimal point in whole numbers (1.0).
func formatFloat(f float64, bitSize int) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	s := strconv.FormatFloat(f, 'g', -1, bitSize)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}

// formatDecimal writes unscaled * 10^-scale in plain notation with scale fractional digits.
func formatDecimal(unscaled *big.Int, scale int) string {
	s := new(big.Int).Abs(unscaled).String()
	if scale > 0 {
		if len(s) <= scale {
			s = strings.Repeat("0", scale-len(s)+1) + s
		}
		s = s[:len(s)-scale] + "." + s[len(s)-scale:]
	}
	if unscaled.Sign() < 0 {
		s = "-" + s
	}
	return s
}

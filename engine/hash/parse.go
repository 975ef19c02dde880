package hash

import (
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// NullText is how a user types SQL NULL for ParseValue (as in Hive's text format).
const NullText = `\N`

// ParseValue parses s, a value of type t as a user types it on the command line, using UTC
// for timestamps without an explicit offset. See [ParseValueIn].
func ParseValue(t Type, s string) (Value, error) {
	return ParseValueIn(t, s, time.UTC)
}

// ParseValueIn parses s, a value of type t as a user types it: \N is NULL for every type
// (\\N is the two-character string \N); booleans are true/false (also t/f, yes/no, y/n,
// 1/0, any case, as Spark's CAST accepts); integers and floats in decimal notation (NaN,
// Infinity and -Infinity for floats); decimals as 12.50 or -1.5e3, rounded half up to the
// type's scale like Spark's CAST, and rejected when they need more than its precision;
// strings as they are (char(n) padded with spaces to n characters, as Spark stores them);
// binary as X'00C8' (hex) or else the UTF-8 bytes of s; dates as 2024-01-31; timestamps as
// 2024-01-31 12:00:00[.ffffff] (or with a T), optionally with Z or an offset such as +02:00.
// A timestamp without an offset is read in loc, Spark's session time zone; timestamp_ntz
// takes no offset and is never shifted. A nil loc is UTC. Leading and trailing spaces are ignored except in
// strings and binary.
func ParseValueIn(t Type, s string, loc *time.Location) (Value, error) {
	if err := t.validate(); err != nil {
		return Value{}, err
	}
	if s == NullText {
		return Null(t), nil
	}
	if loc == nil {
		loc = time.UTC
	}
	v, err := parseValue(t, s, loc)
	if err != nil {
		return Value{}, fmt.Errorf("%s value %q: %w", t, s, err)
	}
	return v, nil
}

func parseValue(t Type, s string, loc *time.Location) (Value, error) {
	trimmed := strings.TrimSpace(s)
	switch t.Kind {
	case KindBoolean:
		return parseBool(trimmed)
	case KindTinyInt, KindSmallInt, KindInt, KindBigInt:
		return parseInt(t, trimmed)
	case KindFloat:
		f, err := parseFloat(trimmed, 32)
		return Float(float32(f)), err
	case KindDouble:
		f, err := parseFloat(trimmed, 64)
		return Double(f), err
	case KindDecimal:
		return parseDecimal(t, trimmed)
	case KindString:
		return parseString(t, s)
	case KindBinary:
		return parseBinary(s)
	case KindDate:
		days, err := parseDate(trimmed)
		return Date(days), err
	case KindTimestamp:
		micros, err := parseTimestamp(trimmed, loc, true)
		return Timestamp(micros), err
	case KindTimestampNTZ:
		micros, err := parseTimestamp(trimmed, time.UTC, false)
		return TimestampNTZ(micros), err
	}
	return Value{}, errors.New("values of this type cannot be parsed from text")
}

func parseBool(s string) (Value, error) {
	switch strings.ToLower(s) {
	case "true", "t", "yes", "y", "1":
		return Boolean(true), nil
	case "false", "f", "no", "n", "0":
		return Boolean(false), nil
	}
	return Value{}, errors.New("not a boolean (want true or false)")
}

func parseInt(t Type, s string) (Value, error) {
	bitSize := 64
	switch t.Kind {
	case KindTinyInt:
		bitSize = 8
	case KindSmallInt:
		bitSize = 16
	case KindInt:
		bitSize = 32
	}
	n, err := strconv.ParseInt(s, 10, bitSize)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return Value{}, fmt.Errorf("out of range for %s", t)
		}
		return Value{}, errors.New("not an integer")
	}
	return Value{typ: Type{Kind: t.Kind}, n: n}, nil
}

func parseFloat(s string, bitSize int) (float64, error) {
	switch s {
	case "Infinity", "+Infinity", "inf", "+inf":
		return math.Inf(1), nil
	case "-Infinity", "-inf":
		return math.Inf(-1), nil
	}
	f, err := strconv.ParseFloat(s, bitSize)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, errors.New("not a number")
	}
	return f, nil // out-of-range values are ±Infinity, as in Java
}

// MaxCharLength is the longest char(n) a value is padded to. Spark stores char(n) values
// padded with spaces to n characters; padding to char(100000000000) would allocate 100 GB,
// so longer char types are refused (varchar(n) is only checked, never padded: any n).
const MaxCharLength = 1 << 20

func parseString(t Type, s string) (Value, error) {
	if t.Char && t.Length > MaxCharLength {
		return Value{}, fmt.Errorf("char(%d) is longer than the %d characters bucketlint pads a value to", t.Length, MaxCharLength)
	}
	if s == `\`+NullText {
		s = NullText
	}
	v := String(s)
	if t.Length > 0 {
		n := utf8.RuneCountInString(s)
		if n > t.Length {
			return Value{}, fmt.Errorf("longer than %d characters", t.Length)
		}
		if t.Char {
			v.s += strings.Repeat(" ", t.Length-n)
		}
		v.typ = t
	}
	return v, nil
}

func parseBinary(s string) (Value, error) {
	if len(s) >= 3 && (s[0] == 'X' || s[0] == 'x') && s[1] == '\'' && s[len(s)-1] == '\'' {
		b, err := hex.DecodeString(s[2 : len(s)-1])
		if err != nil {
			return Value{}, errors.New("invalid hex digits in X'...'")
		}
		return Binary(b), nil
	}
	return Binary([]byte(s)), nil
}

// parseDecimal parses [+-]digits[.digits][e[+-]digits] and rounds it half up to t's scale.
func parseDecimal(t Type, s string) (Value, error) {
	mant, exp, err := splitDecimal(s)
	if err != nil {
		return Value{}, err
	}
	unscaled, ok := new(big.Int).SetString(mant, 10)
	if !ok {
		return Value{}, errors.New("not a decimal number")
	}
	shift := exp + t.Scale // unscaled value at t.Scale = mant * 10^shift
	switch {
	case unscaled.Sign() == 0: // zero at any exponent
	case shift >= 0:
		if shift > 2*MaxDecimalPrecision {
			return Value{}, fmt.Errorf("out of range for %s", t)
		}
		unscaled.Mul(unscaled, pow10(shift))
	case -shift > 4*MaxDecimalPrecision+len(mant): // far below half a unit of the scale
		unscaled.SetInt64(0)
	default:
		unscaled = roundHalfUp(unscaled, pow10(-shift))
	}
	if digits(unscaled) > t.Precision {
		return Value{}, fmt.Errorf("out of range for %s", t)
	}
	return Decimal(unscaled, t.Precision, t.Scale)
}

// splitDecimal returns the digits of s without its decimal point, with their sign, and the
// power of ten they must be multiplied by.
func splitDecimal(s string) (string, int, error) {
	bad := errors.New("not a decimal number")
	exp := 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.Atoi(s[i+1:])
		if err != nil || e > 1000 || e < -1000 {
			return "", 0, bad
		}
		exp, s = e, s[:i]
	}
	sign := ""
	if s != "" && (s[0] == '-' || s[0] == '+') {
		sign, s = s[:1], s[1:]
	}
	intPart, frac, _ := strings.Cut(s, ".")
	if intPart+frac == "" || !allDigits(intPart) || !allDigits(frac) {
		return "", 0, bad
	}
	return sign + intPart + frac, exp - len(frac), nil
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func pow10(n int) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil) }

// roundHalfUp returns v/d rounded half away from zero (java.math.RoundingMode.HALF_UP).
func roundHalfUp(v, d *big.Int) *big.Int {
	q, r := new(big.Int).QuoRem(v, d, new(big.Int))
	if r.Sign() != 0 && new(big.Int).Mul(new(big.Int).Abs(r), big.NewInt(2)).Cmp(d) >= 0 {
		q.Add(q, big.NewInt(int64(v.Sign())))
	}
	return q
}

//go:build engine

package store

import (
	"fmt"
	"strconv"
	"time"

	"github.com/bucketlint/bucketlint/engine/hash"
)

// AppendText appends row i of v as Spark casts it to a string (NULL as \N): dates as
// 2024-01-31, timestamps as 2024-01-31 12:00:00[.ffffff] in UTC, decimals with their
// scale's digits, booleans as true/false.
func AppendText(dst []byte, v *Vec, i int) []byte {
	if v.IsNull(i) {
		return append(dst, hash.NullText...)
	}
	switch v.Type.Kind {
	case hash.KindBoolean:
		return strconv.AppendBool(dst, v.Ints[i] != 0)
	case hash.KindDate:
		return time.Unix(v.Ints[i]*86400, 0).UTC().AppendFormat(dst, time.DateOnly)
	case hash.KindTimestamp, hash.KindTimestampNTZ:
		t := time.UnixMicro(v.Ints[i]).UTC()
		if t.Nanosecond() == 0 {
			return t.AppendFormat(dst, time.DateTime)
		}
		return t.AppendFormat(dst, "2006-01-02 15:04:05.999999")
	case hash.KindDecimal:
		if v.Kind == KindInt128 {
			return v.Wide[i].AppendDecimal(dst, v.Type.Scale)
		}
		return appendDecimal(dst, v.Ints[i], v.Type.Scale)
	case hash.KindFloat:
		return strconv.AppendFloat(dst, v.Floats[i], 'g', -1, 32)
	case hash.KindDouble:
		return strconv.AppendFloat(dst, v.Floats[i], 'g', -1, 64)
	case hash.KindString, hash.KindBinary:
		return append(dst, v.Bytes(i)...)
	}
	return strconv.AppendInt(dst, v.Ints[i], 10)
}

func appendDecimal(dst []byte, unscaled int64, scale int) []byte {
	if scale == 0 {
		return strconv.AppendInt(dst, unscaled, 10)
	}
	neg := unscaled < 0
	u := uint64(unscaled)
	if neg {
		dst = append(dst, '-')
		u = -u
	}
	digits := strconv.FormatUint(u, 10)
	for len(digits) <= scale {
		digits = "0" + digits
	}
	dst = append(dst, digits[:len(digits)-scale]...)
	dst = append(dst, '.')
	return append(dst, digits[len(digits)-scale:]...)
}

// AppendParsed parses s, a value of v's type as written in CSV, a partition directory or
// AppendText's output, and appends it. \N (and, for non-string types, the empty string)
// is NULL.
func AppendParsed(v *Vec, s string) error {
	if s == hash.NullText || s == HiveDefaultPartition || (s == "" && v.Kind != KindBytes) {
		v.AppendNull()
		return nil
	}
	switch v.Type.Kind {
	case hash.KindString, hash.KindBinary:
		v.AppendString(s)
		return nil
	case hash.KindFloat, hash.KindDouble:
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return fmt.Errorf("%s value %q: %w", v.Type, s, err)
		}
		if v.Type.Kind == hash.KindFloat {
			f = float64(float32(f))
		}
		v.AppendFloat(f)
		return nil
	}
	val, err := hash.ParseValue(v.Type, s)
	if err != nil {
		return fmt.Errorf("%s value %q: %w", v.Type, s, err)
	}
	if v.Kind == KindInt128 {
		x, ok := hash.Int128FromBig(val.Unscaled())
		if !ok {
			return fmt.Errorf("decimal %s out of range", val)
		}
		v.AppendWide(x)
		return nil
	}
	x, err := intOf(val)
	if err != nil {
		return err
	}
	v.AppendInt(x)
	return nil
}

// intOf returns the int64 representation of an integer-like value.
func intOf(val hash.Value) (int64, error) {
	t := val.Type()
	switch t.Kind {
	case hash.KindDecimal:
		u := val.Unscaled()
		if !u.IsInt64() {
			return 0, fmt.Errorf("decimal %s out of range", val)
		}
		return u.Int64(), nil
	case hash.KindDate:
		d, err := time.Parse(time.DateOnly, val.String())
		if err != nil {
			return 0, fmt.Errorf("date %s: %w", val, err)
		}
		return d.Unix() / 86400, nil
	case hash.KindTimestamp, hash.KindTimestampNTZ:
		ts, err := time.Parse("2006-01-02 15:04:05.999999", val.String())
		if err != nil {
			return 0, fmt.Errorf("timestamp %s: %w", val, err)
		}
		return ts.UnixMicro(), nil
	case hash.KindBoolean:
		if val.String() == "true" {
			return 1, nil
		}
		return 0, nil
	}
	x, err := strconv.ParseInt(val.String(), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s value %s: %w", t, val, err)
	}
	return x, nil
}

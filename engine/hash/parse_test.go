package hash

import (
	"math"
	"testing"
	"time"
)

func TestParseType(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, want, err string
	}{
		{"int", "int", ""},
		{" INTEGER ", "int", ""},
		{"BIGINT", "bigint", ""},
		{"long", "bigint", ""},
		{"smallint", "smallint", ""},
		{"byte", "tinyint", ""},
		{"boolean", "boolean", ""},
		{"real", "float", ""},
		{"double", "double", ""},
		{"decimal", "decimal(10,0)", ""},
		{"decimal(10,2)", "decimal(10,2)", ""},
		{"DECIMAL(38, 18)", "decimal(38,18)", ""},
		{"numeric(5)", "decimal(5,0)", ""},
		{"dec(19,4)", "decimal(19,4)", ""},
		{"string", "string", ""},
		{"char(5)", "char(5)", ""},
		{"varchar(20)", "varchar(20)", ""},
		{"binary", "binary", ""},
		{"date", "date", ""},
		{"timestamp", "timestamp", ""},
		{"timestamp_ltz", "timestamp", ""},
		{"timestamp_ntz", "timestamp_ntz", ""},
		{"array<int>", "array<int>", ""},
		{"array<array<string>>", "array<array<string>>", ""},
		{"", "", `type "": empty type`},
		{"decimal(39,0)", "", `type "decimal(39,0)": decimal precision 39 is outside 1..38`},
		{"decimal(5,6)", "", `type "decimal(5,6)": decimal scale 6 is outside 0..5`},
		{"decimal(a,1)", "", `type "decimal(a,1)": decimal precision must be an integer`},
		{"decimal(10,b)", "", `type "decimal(10,b)": decimal scale must be an integer`},
		{"char(0)", "", `type "char(0)": char length must be a positive integer`},
		{"map<int,int>", "", `type "map<int,int>": not a bucketable Spark SQL type`},
		{"array<map<int,int>>", "", `type "array<map<int,int>>": not a bucketable Spark SQL type`},
		{"interval", "", `type "interval": not a bucketable Spark SQL type`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			got, err := ParseType(tt.in)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("ParseType(%q) error = %v, want %q", tt.in, err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.String() != tt.want {
				t.Errorf("ParseType(%q) = %s, want %s", tt.in, got, tt.want)
			}
		})
	}
}

func TestParseValue(t *testing.T) {
	t.Parallel()
	tests := []struct {
		typ, in string
		want    Value // compared by hash, type and String
		err     string
	}{
		{"int", "123", Int(123), ""},
		{"int", " -7 ", Int(-7), ""},
		{"bigint", "9223372036854775807", BigInt(math.MaxInt64), ""},
		{"tinyint", "-128", TinyInt(-128), ""},
		{"smallint", "300", SmallInt(300), ""},
		{"boolean", "true", Boolean(true), ""},
		{"boolean", "No", Boolean(false), ""},
		{"float", "1.1", Float(1.1), ""},
		{"double", "-0.0", Double(math.Copysign(0, -1)), ""},
		{"double", "NaN", Double(math.NaN()), ""},
		{"double", "-Infinity", Double(math.Inf(-1)), ""},
		{"double", "1e400", Double(math.Inf(1)), ""},
		{"string", "SAV-100042", String("SAV-100042"), ""},
		{"string", " padded ", String(" padded "), ""},
		{"string", `\\N`, String(`\N`), ""},
		{"char(5)", "ab", Value{typ: Type{Kind: KindString, Length: 5, Char: true}, s: "ab   "}, ""},
		{"varchar(5)", "ab", Value{typ: Type{Kind: KindString, Length: 5}, s: "ab"}, ""},
		{"binary", "X'00C8'", Binary([]byte{0, 0xc8}), ""},
		{"binary", "abc", Binary([]byte("abc")), ""},
		{"date", "2024-01-31", Date(19753), ""},
		{"date", "1969-12-31", Date(-1), ""},
		{"date", "2024-1-5", Date(19727), ""},
		{"timestamp", "2024-01-31 12:00:00", Timestamp(1706702400000000), ""},
		{"timestamp", "2024-01-31T12:00:00.5", Timestamp(1706702400500000), ""},
		{"timestamp", "2024-01-31 12:00:00.1234567", Timestamp(1706702400123456), ""},
		{"timestamp", "2024-01-31 14:00:00+02:00", Timestamp(1706702400000000), ""},
		{"timestamp", "2024-01-31 12:00:00Z", Timestamp(1706702400000000), ""},
		{"timestamp", "2024-01-31 12:00", Timestamp(1706702400000000), ""},
		{"timestamp", "2024-01-31", Timestamp(1706659200000000), ""},
		{"timestamp", "1969-12-31 23:59:59.999999", Timestamp(-1), ""},
		{"timestamp_ntz", "2024-01-31 12:00:00", TimestampNTZ(1706702400000000), ""},
		{"decimal(10,2)", "12.50", mustDec(1250, 10, 2), ""},
		{"decimal(10,2)", "12.5", mustDec(1250, 10, 2), ""},
		{"decimal(10,2)", "-12", mustDec(-1200, 10, 2), ""},
		{"decimal(10,2)", "12.505", mustDec(1251, 10, 2), ""},
		{"decimal(10,2)", "-12.505", mustDec(-1251, 10, 2), ""},
		{"decimal(10,2)", "12.504", mustDec(1250, 10, 2), ""},
		{"decimal(10,2)", "1.5e2", mustDec(15000, 10, 2), ""},
		{"decimal(10,2)", ".5", mustDec(50, 10, 2), ""},
		{"decimal(38,0)", "12345678", mustDec(12345678, 38, 0), ""},
		{"decimal(10,2)", "0e999", mustDec(0, 10, 2), ""},
		{"decimal(10,2)", "1e-999", mustDec(0, 10, 2), ""},
		{"decimal(10,2)", "1e999", Value{}, `decimal(10,2) value "1e999": out of range for decimal(10,2)`},
		{"int", `\N`, Null(Type{Kind: KindInt}), ""},
		{"string", `\N`, Null(Type{Kind: KindString}), ""},
		{"int", "1.5", Value{}, `int value "1.5": not an integer`},
		{"int", "2147483648", Value{}, `int value "2147483648": out of range for int`},
		{"tinyint", "128", Value{}, `tinyint value "128": out of range for tinyint`},
		{"boolean", "maybe", Value{}, `boolean value "maybe": not a boolean (want true or false)`},
		{"double", "one", Value{}, `double value "one": not a number`},
		{"decimal(4,2)", "123.4", Value{}, `decimal(4,2) value "123.4": out of range for decimal(4,2)`},
		{"decimal(10,2)", "1.2.3", Value{}, `decimal(10,2) value "1.2.3": not a decimal number`},
		{"decimal(10,2)", "", Value{}, `decimal(10,2) value "": not a decimal number`},
		{"char(2)", "abc", Value{}, `char(2) value "abc": longer than 2 characters`},
		{"binary", "X'0G'", Value{}, `binary value "X'0G'": invalid hex digits in X'...'`},
		{"date", "31/01/2024", Value{}, `date value "31/01/2024": not a date (want yyyy-mm-dd)`},
		{"timestamp", "noon", Value{}, `timestamp value "noon": not a timestamp (want yyyy-mm-dd hh:mm:ss[.ffffff][+hh:mm])`},
		{"timestamp_ntz", "2024-01-31 12:00:00+02:00", Value{}, `timestamp_ntz value "2024-01-31 12:00:00+02:00": timestamp_ntz takes no time zone offset`},
		{"array<int>", "[1]", Value{}, `array<int> value "[1]": values of this type cannot be parsed from text`},
	}
	for _, tt := range tests {
		t.Run(tt.typ+"/"+tt.in, func(t *testing.T) {
			t.Parallel()
			typ, err := ParseType(tt.typ)
			if err != nil {
				t.Fatal(err)
			}
			got, err := ParseValue(typ, tt.in)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("error = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.String() != tt.want.String() || got.Type().String() != tt.want.Type().String() ||
				Murmur3([]Value{got}) != Murmur3([]Value{tt.want}) || got.IsNull() != tt.want.IsNull() {
				t.Errorf("got %s %s, want %s %s", got.Type(), got, tt.want.Type(), tt.want)
			}
		})
	}
}

func mustDec(unscaled int64, p, s int) Value {
	v, err := Decimal64(unscaled, p, s)
	if err != nil {
		return Null(DecimalType(p, s))
	}
	return v
}

func TestParseValueIn(t *testing.T) {
	t.Parallel()
	loc := time.FixedZone("UTC+2", 2*3600)
	ts := Type{Kind: KindTimestamp}
	got, err := ParseValueIn(ts, "2024-01-31 14:00:00", loc)
	if err != nil || got.String() != "2024-01-31 12:00:00" {
		t.Errorf("timestamp in UTC+2 = %s, %v; want 2024-01-31 12:00:00", got, err)
	}
	ntz, err := ParseValueIn(Type{Kind: KindTimestampNTZ}, "2024-01-31 14:00:00", loc)
	if err != nil || ntz.String() != "2024-01-31 14:00:00" {
		t.Errorf("timestamp_ntz is never shifted: got %s, %v", ntz, err)
	}
}

func TestValueString(t *testing.T) {
	t.Parallel()
	tests := []struct {
		v    Value
		want string
	}{
		{Null(Type{Kind: KindInt}), `\N`},
		{Boolean(true), "true"},
		{Float(1), "1.0"},
		{Double(1.5), "1.5"},
		{Double(math.NaN()), "NaN"},
		{Double(math.Inf(1)), "Infinity"},
		{mustDec(-5, 10, 2), "-0.05"},
		{mustDec(1250, 10, 2), "12.50"},
		{mustDec(7, 5, 0), "7"},
		{Binary([]byte{0, 0xc8}), "X'00C8'"},
		{Date(19753), "2024-01-31"},
		{Date(-1), "1969-12-31"},
		{Timestamp(1706702400500000), "2024-01-31 12:00:00.5"},
		{mustArray(t, Type{Kind: KindInt}, Int(1), Null(Type{Kind: KindInt})), `[1, \N]`},
		{Value{}, "invalid"},
	}
	for _, tt := range tests {
		if got := tt.v.String(); got != tt.want {
			t.Errorf("String() = %q, want %q", got, tt.want)
		}
	}
}

func TestDecimalConstructors(t *testing.T) {
	t.Parallel()
	if _, err := Decimal64(12345, 4, 0); err == nil || err.Error() != "unscaled value 12345 has more than 4 digits" {
		t.Errorf("Decimal64(12345, 4, 0) error = %v", err)
	}
	if _, err := Decimal64(1, 0, 0); err == nil {
		t.Error("decimal(0,0) accepted")
	}
	if _, err := Array(Type{Kind: KindInt}, BigInt(1)); err == nil || err.Error() != "array element 0 has type bigint, want int" {
		t.Errorf("Array type mismatch error = %v", err)
	}
	v := mustDec(-42, 10, 1)
	if v.Unscaled().Int64() != -42 || Int(1).Unscaled() != nil {
		t.Error("Unscaled")
	}
}

// TestSignedYears checks years before year 1, which Spark accepts with a sign and a
// timestamp in year 0 with a positive offset reaches: they parse, print and parse back.
func TestSignedYears(t *testing.T) {
	for _, c := range []struct{ typ, in, want string }{
		{"timestamp", "0000-1-1 0:00:00+0001", "-0001-12-31 23:59:00"},
		{"timestamp", "-0001-12-31 23:59:00", "-0001-12-31 23:59:00"},
		{"timestamp", "+2024-01-31 12:00:00", "2024-01-31 12:00:00"},
		{"date", "-0044-03-15", "-0044-03-15"},
		{"timestamp_ntz", "-0004-02-29 01:02:03", "-0004-02-29 01:02:03"},
	} {
		typ, err := ParseType(c.typ)
		if err != nil {
			t.Fatal(err)
		}
		v, err := ParseValue(typ, c.in)
		if err != nil {
			t.Fatalf("%s %q: %v", c.typ, c.in, err)
		}
		if got := v.String(); got != c.want {
			t.Errorf("%s %q printed %q, want %q", c.typ, c.in, got, c.want)
		}
		back, err := ParseValue(typ, v.String())
		if err != nil || back.String() != v.String() {
			t.Errorf("%s %q does not parse back: %v, %v", c.typ, v.String(), back, err)
		}
	}
}

// TestZoneNeedsSeconds: with an offset the seconds must be written, as Spark casts
// "2024-01-01 00:00+00:01" and "2024-01-01 00:00Z" to NULL (3.5.9 and 4.3.0).
func TestZoneNeedsSeconds(t *testing.T) {
	typ, err := ParseType("timestamp")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"2024-1-1 0:00+00:01", "2024-01-01 00:00Z", "2024-01-01 00:00 +00:01", "2024-01-01 00:00+0001"} {
		if v, err := ParseValue(typ, s); err == nil {
			t.Errorf("%q parsed to %s; Spark reads it as NULL", s, v)
		}
	}
	for s, want := range map[string]string{"2024-01-01 00:00:00 +00:01": "2023-12-31 23:59:00", "2024-01-01 00:00:00Z": "2024-01-01 00:00:00", "2024-1-1 0:00": "2024-01-01 00:00:00"} {
		v, err := ParseValue(typ, s)
		if err != nil || v.String() != want {
			t.Errorf("%q: %v %v, want %s", s, v, err, want)
		}
	}
}

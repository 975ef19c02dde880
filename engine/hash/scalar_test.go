package hash

import (
	"math"
	"math/big"
	"strings"
	"testing"
)

func mustDecimal(t *testing.T, unscaled string, p, s int) Value {
	t.Helper()
	u, ok := new(big.Int).SetString(unscaled, 10)
	if !ok {
		t.Fatalf("bad unscaled %q", unscaled)
	}
	v, err := Decimal(u, p, s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestMurmur3Facts checks the derived facts of reference/engine.md §1.3–1.4 and the
// Spark-parity vectors (seed 42) of DataFusion Comet's murmur3.rs and Velox's
// functions/sparksql/tests/HashTest.cpp (whose timestamp case came from the Spark CLI).
func TestMurmur3Facts(t *testing.T) {
	t.Parallel()
	u32 := func(u uint32) int32 { return int32(u) }
	tests := []struct {
		name string
		row  []Value
		want int32
	}{
		{"bigint 1", []Value{BigInt(1)}, -1712319331},
		{"all columns NULL", []Value{Null(Type{Kind: KindInt}), Null(Type{Kind: KindString})}, 42},
		{"no columns", nil, 42},
		{"double -0.0 as 0.0", []Value{Double(math.Copysign(0, -1))}, -1670924195},
		{"double 0.0", []Value{Double(0)}, -1670924195},
		{"CJK tail bytes sign-extended", []Value{String("天地")}, -1899966402},
		{"binary 00c8", []Value{Binary([]byte{0x00, 0xc8})}, -424716282},
		{"decimal(38,0) 12345678 as toByteArray, not i128", []Value{mustDecimal(t, "12345678", 38, 0)}, -277285195},
		{"two bigint columns = struct(1L, 2L)", []Value{BigInt(1), BigInt(2)}, -1181176833},
		{"comet tinyint 1", []Value{TinyInt(1)}, u32(0xdea578e3)},
		{"comet tinyint -1", []Value{TinyInt(-1)}, u32(0xa0590e3d)},
		{"comet tinyint max", []Value{TinyInt(math.MaxInt8)}, u32(0x43b4d8ed)},
		{"comet tinyint min", []Value{TinyInt(math.MinInt8)}, u32(0x422a1365)},
		{"comet int 0", []Value{Int(0)}, u32(0x379fae8f)},
		{"comet int max", []Value{Int(math.MaxInt32)}, u32(0x07fb67e7)},
		{"comet int min", []Value{Int(math.MinInt32)}, u32(0x2b1f0fc6)},
		{"comet bigint 0", []Value{BigInt(0)}, u32(0x9c67b85d)},
		{"comet bigint -1", []Value{BigInt(-1)}, u32(0xc8008529)},
		{"comet bigint max", []Value{BigInt(math.MaxInt64)}, u32(0xa05b5d7b)},
		{"comet bigint min", []Value{BigInt(math.MinInt64)}, u32(0xcd1e64fb)},
		{"comet float 1.0", []Value{Float(1)}, u32(0xe434cc39)},
		{"comet float -0.0", []Value{Float(float32(math.Copysign(0, -1)))}, u32(0x379fae8f)},
		{"comet float -1.0", []Value{Float(-1)}, u32(0xdc0da8eb)},
		{"comet float 1e11", []Value{Float(99999999999.99999999999)}, u32(0xcbdc340f)},
		{"comet float -1e11", []Value{Float(-99999999999.99999999999)}, u32(0xc0361c86)},
		{"comet float NaN", []Value{Float(float32(math.NaN()))}, u32(0xeb2eb18a)},
		{"comet float NaN payload", []Value{Float(math.Float32frombits(0x7f800001))}, u32(0xeb2eb18a)},
		{"comet float negative NaN", []Value{Float(math.Float32frombits(0xffc00000))}, u32(0xeb2eb18a)},
		{"comet double 1.0", []Value{Double(1)}, u32(0xe4876492)},
		{"comet double -1.0", []Value{Double(-1)}, u32(0x13d81357)},
		{"comet double 1e11", []Value{Double(99999999999.99999999999)}, u32(0xb87e1595)},
		{"comet double -1e11", []Value{Double(-99999999999.99999999999)}, u32(0xa0eef9f9)},
		{"comet double NaN", []Value{Double(math.NaN())}, u32(0xb3a005cf)},
		{"comet double NaN payload", []Value{Double(math.Float64frombits(0x7ff0000000000001))}, u32(0xb3a005cf)},
		{"comet double negative NaN", []Value{Double(math.Float64frombits(0xfff8000000000000))}, u32(0xb3a005cf)},
		{"comet string hello", []Value{String("hello")}, u32(3286402344)},
		{"comet string bar", []Value{String("bar")}, u32(2486176763)},
		{"comet string empty", []Value{String("")}, 142593372},
		{"comet string emoji", []Value{String("😁")}, 885025535},
		{"comet string CJK", []Value{String("天地")}, u32(2395000894)},
		{"comet string a", []Value{String("a")}, 1485273170},
		{"comet string ab", []Value{String("ab")}, u32(0xfa37157b)},
		{"comet string abc", []Value{String("abc")}, 1322437556},
		{"comet string abcd", []Value{String("abcd")}, u32(0xe860e5cc)},
		{"comet string abcde", []Value{String("abcde")}, 814637928},
		{"velox string Spark", []Value{String("Spark")}, 228093765},
		{"velox string a-z", []Value{String("abcdefghijklmnopqrstuvwxyz")}, -1990933474},
		{"velox string 12345678", []Value{String("12345678")}, 2036199019},
		{"velox long decimal 0", []Value{mustDecimal(t, "0", 38, 0)}, -783713497},
		{"velox long decimal -12345678", []Value{mustDecimal(t, "-12345678", 38, 0)}, -1198355617},
		{"velox long decimal max", []Value{mustDecimal(t, "99999999999999999999999999999999999999", 38, 0)}, -817514053},
		{"velox long decimal min", []Value{mustDecimal(t, "-99999999999999999999999999999999999999", 38, 0)}, 1400911110},
		{"velox timestamp from the Spark CLI", []Value{Timestamp(12345678)}, 1402875301},
		{"velox bigint 0xcafecafedeadbeef", []Value{BigInt(int64(-0x3501350121524111))}, -256235155},
		{"velox bigint 0xdeadbeefcafecafe", []Value{BigInt(int64(-0x2152411035013502))}, 673261790},
		{"velox bigint min = raw -0.0 bits", []Value{BigInt(math.MinInt64)}, -853646085},
		{"velox int 0xdeadbeef", []Value{Int(int32(-0x21524111))}, 141248195},
		{"velox int 0xcafecafe", []Value{Int(int32(-0x35013502))}, 638354558},
		{"velox smallint -1", []Value{SmallInt(-1)}, -1604776387},
		{"velox boolean false", []Value{Boolean(false)}, 933211791},
		{"velox boolean true", []Value{Boolean(true)}, -559580957},
		{"velox string, NULL int", []Value{String(""), Null(Type{Kind: KindInt})}, 142593372},
		{"velox NULL string, int", []Value{Null(Type{Kind: KindString}), Int(0)}, 933211791},
		{"velox string, int", []Value{String(""), Int(0)}, 1143746540},
		{"velox double 1", []Value{Double(1)}, -460888942},
		{"velox double Infinity", []Value{Double(math.Inf(1))}, 833680482},
		{"velox double -Infinity", []Value{Double(math.Inf(-1))}, 461104036},
		{"velox float NaN", []Value{Float(float32(math.NaN()))}, -349261430},
		{"velox float Infinity", []Value{Float(float32(math.Inf(1)))}, 2026854605},
		{"velox float -Infinity", []Value{Float(float32(math.Inf(-1)))}, 427440766},
		{"velox array<bigint> 1..5", []Value{mustArray(t, Type{Kind: KindBigInt}, BigInt(1), BigInt(2), BigInt(3), BigInt(4), BigInt(5))}, 2101165938},
		{"velox empty array", []Value{mustArray(t, Type{Kind: KindBigInt})}, 42},
		{"velox array<int> [1, NULL]", []Value{mustArray(t, Type{Kind: KindInt}, Int(1), Null(Type{Kind: KindInt}))}, -559580957},
		{"velox array<int> [NULL, 2]", []Value{mustArray(t, Type{Kind: KindInt}, Null(Type{Kind: KindInt}), Int(2))}, 1765031574},
		{"velox bigint columns 3, 4", []Value{BigInt(3), BigInt(4)}, 1717636039},
		{"velox bigint columns NULL, 4", []Value{Null(Type{Kind: KindBigInt}), BigInt(4)}, 1344313940},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := Murmur3(tt.row); got != tt.want {
				t.Errorf("Murmur3 = %d, want %d", got, tt.want)
			}
		})
	}
}

func TestMurmur3TypeRules(t *testing.T) {
	t.Parallel()
	dec := mustDecimal(t, "123", 10, 2) // 1.23
	wide := mustDecimal(t, "12345678", 38, 0)
	tests := []struct {
		name  string
		a, b  []Value
		equal bool
	}{
		{"decimal(10,2) 1.23 hashes like bigint 123", []Value{dec}, []Value{BigInt(123)}, true},
		{"int 1 and bigint 1 differ", []Value{Int(1)}, []Value{BigInt(1)}, false},
		{"tinyint, smallint, int and date of one number agree", []Value{TinyInt(-5)}, []Value{SmallInt(-5)}, true},
		{"date hashes as int days", []Value{Date(19753)}, []Value{Int(19753)}, true},
		{"timestamp hashes as bigint micros", []Value{Timestamp(1)}, []Value{BigInt(1)}, true},
		{"timestamp_ntz hashes as bigint micros", []Value{TimestampNTZ(7)}, []Value{BigInt(7)}, true},
		{"boolean true hashes as int 1", []Value{Boolean(true)}, []Value{Int(1)}, true},
		{"decimal(38,0) hashes toByteArray", []Value{wide}, []Value{Binary([]byte{0x00, 0xbc, 0x61, 0x4e})}, true},
		{"string and binary of the same bytes agree", []Value{String("ab")}, []Value{Binary([]byte("ab"))}, true},
		{"column order matters", []Value{Int(1), Int(2)}, []Value{Int(2), Int(1)}, false},
		{"NULL leaves the hash unchanged", []Value{Int(1), Null(Type{Kind: KindInt})}, []Value{Int(1)}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := Murmur3(tt.a) == Murmur3(tt.b); got != tt.equal {
				t.Errorf("Murmur3(%v) == Murmur3(%v) is %v, want %v", tt.a, tt.b, got, tt.equal)
			}
		})
	}
}

func TestRawNegativeZero(t *testing.T) {
	t.Parallel()
	negZero := math.Copysign(0, -1)
	old, err := OptionsFor("3.1.3")
	if err != nil {
		t.Fatal(err)
	}
	if !old.RawNegativeZero {
		t.Fatal("Spark 3.1.3 should hash -0.0 by its bits")
	}
	// Raw -0.0 bits are Long.MIN_VALUE (reference/engine.md §1.4).
	if got := old.Murmur3([]Value{Double(negZero)}); got != -853646085 {
		t.Errorf("3.1 double -0.0 = %d, want -853646085", got)
	}
	if got, want := old.Murmur3([]Value{Float(float32(negZero))}), Murmur3Int(math.MinInt32, Seed); got != want {
		t.Errorf("3.1 float -0.0 = %d, want %d", got, want)
	}
	if got := old.Murmur3([]Value{Double(math.NaN())}); got != Murmur3([]Value{Double(math.NaN())}) {
		t.Errorf("NaN is canonical in every version")
	}
}

func TestOptionsFor(t *testing.T) {
	t.Parallel()
	tests := []struct {
		version string
		raw     bool
		err     string
	}{
		{"2.4.8", true, ""},
		{"3.0", true, ""},
		{"3.1.3", true, ""},
		{"3.2.0", false, ""},
		{"3.5", false, ""},
		{"4.0.0-preview2", false, ""},
		{"4.1-SNAPSHOT", false, ""},
		{"x", false, `spark version "x": want major.minor[.patch]`},
		{"3", false, `spark version "3": want major.minor[.patch]`},
	}
	for _, tt := range tests {
		t.Run(tt.version, func(t *testing.T) {
			t.Parallel()
			o, err := OptionsFor(tt.version)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil || o.RawNegativeZero != tt.raw {
				t.Errorf("got %+v, %v; want RawNegativeZero %v", o, err, tt.raw)
			}
		})
	}
}

func TestBucket(t *testing.T) {
	t.Parallel()
	tests := []struct {
		hash int32
		n    int
		want int
		hive int
	}{
		{-1712319331, 8, 5, 5},    // hash(bigint 1): Go's % gives -3
		{42, 8, 2, 2},             // all-NULL row
		{-1, 200, 199, 47},        // pmod(-1, 200); hive: 0x7fffffff % 200
		{math.MinInt32, 16, 0, 0}, // -2^31
		{math.MinInt32, 200, 152, 0},
		{math.MaxInt32, 7, 1, 1},
		{5, 1, 0, 0},
		{5, 0, -1, -1},
		{5, -3, -1, -1},
	}
	for _, tt := range tests {
		if got := Bucket(tt.hash, tt.n); got != tt.want {
			t.Errorf("Bucket(%d, %d) = %d, want %d", tt.hash, tt.n, got, tt.want)
		}
		if got := HiveBucket(tt.hash, tt.n); got != tt.hive {
			t.Errorf("HiveBucket(%d, %d) = %d, want %d", tt.hash, tt.n, got, tt.hive)
		}
		dst := make([]int32, 1)
		Buckets(dst, []int32{tt.hash}, tt.n)
		if int(dst[0]) != tt.want {
			t.Errorf("Buckets(%d, %d) = %d, want %d", tt.hash, tt.n, dst[0], tt.want)
		}
		HiveBuckets(dst, []int32{tt.hash}, tt.n)
		if int(dst[0]) != tt.hive {
			t.Errorf("HiveBuckets(%d, %d) = %d, want %d", tt.hash, tt.n, dst[0], tt.hive)
		}
	}
}

func TestJavaBytes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		v    int64
		want []byte
	}{
		{0, []byte{0x00}},
		{1, []byte{0x01}},
		{127, []byte{0x7f}},
		{128, []byte{0x00, 0x80}},
		{12345678, []byte{0x00, 0xbc, 0x61, 0x4e}},
		{-1, []byte{0xff}},
		{-128, []byte{0x80}},
		{-129, []byte{0xff, 0x7f}},
		{-32768, []byte{0x80, 0x00}},
		{math.MinInt64, []byte{0x80, 0, 0, 0, 0, 0, 0, 0}},
	}
	for _, tt := range tests {
		if got := javaBytes(big.NewInt(tt.v)); string(got) != string(tt.want) {
			t.Errorf("javaBytes(%d) = % x, want % x", tt.v, got, tt.want)
		}
	}
	// 10^38 - 1, the largest decimal(38,0) magnitude, has 127 bits: 16 bytes with the sign.
	max38 := new(big.Int).Sub(pow10(38), big.NewInt(1))
	if got := javaBytes(max38); len(got) != 16 || got[0] != 0x4b {
		t.Errorf("javaBytes(10^38-1) = % x", got)
	}
	if got := javaBytes(new(big.Int).Neg(max38)); len(got) != 16 || got[0] != 0xb4 {
		t.Errorf("javaBytes(-(10^38-1)) = % x", got)
	}
}

func TestHiveFacts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		row  []Value
		want int32
	}{
		{"NULL column contributes 0", []Value{Int(1), Null(Type{Kind: KindInt}), Int(3)}, (1*31+0)*31 + 3},
		{"bigint folds halves", []Value{BigInt(1 << 32)}, 1},
		{"decimal zero", []Value{mustDecimal(t, "0", 10, 2)}, 0},
		{"decimal trailing zeros stripped", []Value{mustDecimal(t, "1800", 10, 2)}, 558},
		{"decimal scale kept when not zero", []Value{mustDecimal(t, "1801", 10, 2)}, 31*1801 + 2},
		{"wide decimal equals narrow", []Value{mustDecimal(t, "1800", 38, 2)}, 558},
		{"negative wide decimal", []Value{mustDecimal(t, "-99999999999999999999", 38, 0)}, hiveBigRef("-99999999999999999999", 0)},
		{"timestamp before the epoch", []Value{Timestamp(-1)}, hiveLong(0<<30 | -1000)},
		{"boolean false", []Value{Boolean(false)}, 0},
		{"string bytes signed", []Value{String("é")}, 31*int32(int8(-61)) + int32(int8(-87))},
		{"array folds 31*h + elem", []Value{mustArray(t, Type{Kind: KindInt}, Int(1), Int(2))}, 33},
		{"double -0.0 as 0.0", []Value{Double(math.Copysign(0, -1))}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := Hive(tt.row); got != tt.want {
				t.Errorf("Hive = %d, want %d", got, tt.want)
			}
		})
	}
}

// hiveBigRef computes BigDecimal.hashCode the slow way: the magnitude's 32-bit words,
// most significant first, folded as 31*h + word, times the sign, then 31*h + scale.
func hiveBigRef(unscaled string, scale int32) int32 {
	u, _ := new(big.Int).SetString(unscaled, 10)
	mag := new(big.Int).Abs(u)
	var words []uint32
	mask := big.NewInt(0xffffffff)
	for mag.Sign() > 0 {
		words = append([]uint32{uint32(new(big.Int).And(mag, mask).Uint64())}, words...)
		mag.Rsh(mag, 32)
	}
	var h uint32
	for _, w := range words {
		h = 31*h + w
	}
	hs := int32(h) * int32(u.Sign())
	return 31*hs + scale
}

func mustArray(t *testing.T, elem Type, elems ...Value) Value {
	t.Helper()
	v, err := Array(elem, elems...)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestHiveDecimalBytes(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		unscaled string
		scale    int
	}{
		{"0", 2},
		{"1800", 2},
		{"-1800", 2},
		{"1800", 0},
		{"-1", 0},
		{"5", 38},
		{"-1000000000000000000000000000000", 10},
		{"1000000000000000000000000000000", 38},
		{"99999999999999999999999999999999999999", 6},
		{"-99999999999999999999999999999999999999", 6},
		{"-9223372036854775808", 3},
		{"18446744073709551616", 1},
		{"-18446744073709551610", 1},
	} {
		u, _ := new(big.Int).SetString(tt.unscaled, 10)
		b := make([]byte, 16)
		full := javaBytes(u)
		fill := byte(0)
		if u.Sign() < 0 {
			fill = 0xff
		}
		for i := range b[:16-len(full)] {
			b[i] = fill
		}
		copy(b[16-len(full):], full)
		want := hiveDecimal(u, tt.scale)
		if got := hiveDecimalBytes(b, tt.scale); got != want {
			t.Errorf("hiveDecimalBytes(%s, %d) = %d, want %d", tt.unscaled, tt.scale, got, want)
		}
		if got := hiveDecimalBytes(full, tt.scale); got != want {
			t.Errorf("hiveDecimalBytes(minimal %s, %d) = %d, want %d", tt.unscaled, tt.scale, got, want)
		}
		if got, ref := want, hiveBigRef(stripZeros(tt.unscaled, tt.scale)); got != ref {
			t.Errorf("hiveDecimal(%s, %d) = %d, slow reference %d", tt.unscaled, tt.scale, got, ref)
		}
	}
}

// stripZeros returns the unscaled value and scale after Hive's normalisation, in text.
func stripZeros(unscaled string, scale int) (string, int32) {
	if strings.Trim(unscaled, "-0") == "" {
		return "0", 0
	}
	for scale > 0 && strings.HasSuffix(unscaled, "0") {
		unscaled = unscaled[:len(unscaled)-1]
		scale--
	}
	return unscaled, int32(scale)
}

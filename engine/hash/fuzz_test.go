package hash

import (
	"encoding/binary"
	"math"
	"math/big"
	"testing"
)

// byteReader hands out fuzz input a few bytes at a time, zeros once it runs out.
type byteReader struct{ b []byte }

func (r *byteReader) next(n int) []byte {
	out := make([]byte, n)
	k := copy(out, r.b)
	r.b = r.b[k:]
	return out
}

func (r *byteReader) u64() uint64 { return binary.LittleEndian.Uint64(r.next(8)) }

// fuzzColumns is one batch in every physical layout the kernels take.
type fuzzColumns struct {
	n       int
	nulls   [10][]uint64
	i8      []int8
	i16     []int16
	i32     []int32
	i64     []int64
	f32     []float32
	f64     []float64
	bools   []bool
	offsets []int32
	data    []byte
	wide    []byte // 16-byte big-endian two's complement decimal(38,4)
	dec64   []int64
}

const wideWidth = 16

func newFuzzColumns(data []byte) *fuzzColumns {
	r := &byteReader{b: data}
	n := len(data)/16 + 1
	if n > 200 {
		n = 200
	}
	c := &fuzzColumns{n: n, offsets: []int32{0}}
	for k := range c.nulls {
		c.nulls[k] = make([]uint64, NullWords(n))
	}
	for i := 0; i < n; i++ {
		mask := binary.LittleEndian.Uint16(r.next(2))
		for k := range c.nulls {
			if mask>>k&1 != 0 && mask>>15 != 0 { // rows are NULL-free half of the time
				SetNull(c.nulls[k], i)
			}
		}
		w := r.u64()
		c.i8 = append(c.i8, int8(w))
		c.i16 = append(c.i16, int16(w))
		c.i32 = append(c.i32, int32(w))
		c.i64 = append(c.i64, int64(r.u64()))
		c.f32 = append(c.f32, math.Float32frombits(uint32(w>>32)))
		c.f64 = append(c.f64, math.Float64frombits(r.u64()))
		c.bools = append(c.bools, w&(1<<40) != 0)
		s := r.next(int(w>>48) % 13)
		c.data = append(c.data, s...)
		c.offsets = append(c.offsets, int32(len(c.data)))
		wide := r.next(wideWidth)
		if wide[0]&0x40 != 0 { // keep within 38 digits: sign-extend the top byte
			wide[0] = 0xff
		} else {
			wide[0] = 0
		}
		c.wide = append(c.wide, wide...)
		c.dec64 = append(c.dec64, int64(w)%1_000_000_000_000_000_000)
	}
	return c
}

// row returns row i as scalar Values in column order.
func (c *fuzzColumns) row(t *testing.T, i int) []Value {
	t.Helper()
	wide := twosComplement(c.wide[i*wideWidth : (i+1)*wideWidth])
	wv, err := Decimal(wide, 38, 4)
	if err != nil {
		t.Fatalf("wide decimal %s: %v", wide, err)
	}
	dv, err := Decimal64(c.dec64[i], 18, 4)
	if err != nil {
		t.Fatalf("decimal64 %d: %v", c.dec64[i], err)
	}
	vals := []Value{
		TinyInt(c.i8[i]), SmallInt(c.i16[i]), Int(c.i32[i]), BigInt(c.i64[i]),
		Float(c.f32[i]), Double(c.f64[i]), Boolean(c.bools[i]),
		String(string(c.data[c.offsets[i]:c.offsets[i+1]])), wv, dv,
	}
	for k := range vals {
		if IsNull(c.nulls[k], i) {
			vals[k] = Null(vals[k].Type())
		}
	}
	return vals
}

func twosComplement(b []byte) *big.Int {
	v := new(big.Int).SetBytes(b)
	if len(b) > 0 && b[0]&0x80 != 0 {
		v.Sub(v, new(big.Int).Lsh(big.NewInt(1), uint(8*len(b))))
	}
	return v
}

func (c *fuzzColumns) murmur3(o Options) []int32 {
	h := make([]int32, c.n)
	FillSeed(h)
	Murmur3Int8s(h, c.i8, c.nulls[0])
	Murmur3Int16s(h, c.i16, c.nulls[1])
	Murmur3Int32s(h, c.i32, c.nulls[2])
	Murmur3Int64s(h, c.i64, c.nulls[3])
	o.Murmur3Float32s(h, c.f32, c.nulls[4])
	o.Murmur3Float64s(h, c.f64, c.nulls[5])
	Murmur3Bools(h, c.bools, c.nulls[6])
	Murmur3Strings(h, c.offsets, c.data, c.nulls[7])
	Murmur3Decimals(h, c.wide, wideWidth, c.nulls[8])
	Murmur3Int64s(h, c.dec64, c.nulls[9])
	return h
}

func (c *fuzzColumns) hive(o Options) []int32 {
	h := make([]int32, c.n)
	HiveInt8s(h, c.i8, c.nulls[0])
	HiveInt16s(h, c.i16, c.nulls[1])
	HiveInt32s(h, c.i32, c.nulls[2])
	HiveInt64s(h, c.i64, c.nulls[3])
	o.HiveFloat32s(h, c.f32, c.nulls[4])
	o.HiveFloat64s(h, c.f64, c.nulls[5])
	HiveBools(h, c.bools, c.nulls[6])
	HiveStrings(h, c.offsets, c.data, c.nulls[7])
	HiveDecimals(h, c.wide, wideWidth, 4, c.nulls[8])
	HiveDecimal64s(h, c.dec64, 4, c.nulls[9])
	return h
}

func checkKernels(t *testing.T, data []byte) {
	t.Helper()
	c := newFuzzColumns(data)
	checkInt128Kernels(t, c)
	for _, o := range []Options{{}, {RawNegativeZero: true}} {
		mh, hh := c.murmur3(o), c.hive(o)
		buckets, hiveBuckets := make([]int32, c.n), make([]int32, c.n)
		Buckets(buckets, mh, 200)
		HiveBuckets(hiveBuckets, hh, 64)
		for i := 0; i < c.n; i++ {
			row := c.row(t, i)
			if want := o.Murmur3(row); mh[i] != want {
				t.Fatalf("%+v row %d %v: kernels %d, scalar %d", o, i, row, mh[i], want)
			}
			if want := o.Hive(row); hh[i] != want {
				t.Fatalf("%+v row %d %v: hive kernels %d, scalar %d", o, i, row, hh[i], want)
			}
			if int(buckets[i]) != Bucket(mh[i], 200) || int(hiveBuckets[i]) != HiveBucket(hh[i], 64) {
				t.Fatalf("row %d: bucket kernels disagree with Bucket/HiveBucket", i)
			}
			if d := c.dec64[i]; hiveDecimal(big.NewInt(d), 4) != hiveDecimal64(d, 4) ||
				hiveDecimal(new(big.Int).Mul(big.NewInt(d), pow10(20)), 24) != hiveDecimal64(d, 4) {
				t.Fatalf("row %d: wide and 64-bit Hive decimal hashes of %d disagree", i, d)
			}
		}
	}
}

func FuzzMurmur3(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("SAV-100042 and some more bytes to fill a few rows of every column type"))
	special := make([]byte, 0, 64)
	for _, bits := range []uint64{0x8000000000000000, 0x7ff8000000000001, 0xfff0000000000000, 0x80000000_00000000} {
		special = binary.LittleEndian.AppendUint64(special, bits)
	}
	f.Add(special)
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xe5, 0xa4, 0xa9, 0xe5, 0x9c, 0xb0})
	f.Fuzz(checkKernels)
}

// FuzzParseValue checks that no input makes ParseValue panic, and that a parsed value
// prints as text that parses back to a value with the same hashes.
func FuzzParseValue(f *testing.F) {
	types := []string{
		"boolean", "tinyint", "smallint", "int", "bigint", "float", "double", "decimal(10,2)",
		"decimal(38,6)", "string", "char(4)", "binary", "date", "timestamp", "timestamp_ntz",
	}
	for i, s := range []string{
		"true", "-128", "300", "123", "-9", "1.1", "NaN", "12.505",
		"-1e30", "SAV-100042", "ab", "X'00C8'", "2024-01-31", "2024-01-31 12:00:00+02:00",
		"2024-01-31T12:00:00.123456", `\N`, "", " 1 ", "1e-2000", "9e99",
		"-99999999999999999999999999999999.9999995", "12345678901234567890.1234567", "-0.0000005",
	} {
		f.Add(uint8(i), s)
	}
	f.Fuzz(func(t *testing.T, ti uint8, s string) {
		typ, err := ParseType(types[int(ti)%len(types)])
		if err != nil {
			t.Fatal(err)
		}
		v, err := ParseValue(typ, s)
		if err != nil {
			return
		}
		back, err := ParseValue(typ, v.String())
		if err != nil {
			t.Fatalf("%s %q parsed to %s, which does not parse back: %v", typ, s, v, err)
		}
		if typ.Kind == KindString && v.String() == NullText {
			return // the string \N prints as NULL's text
		}
		if Murmur3([]Value{v}) != Murmur3([]Value{back}) || Hive([]Value{v}) != Hive([]Value{back}) {
			t.Fatalf("%s %q: %s and its reparse %s hash differently", typ, s, v, back)
		}
	})
}

// FuzzParseType checks that no input makes ParseType panic and that parsed types print
// as text that parses back to the same type.
func FuzzParseType(f *testing.F) {
	for _, s := range []string{"int", "decimal(10,2)", "array<array<char(3)>>", "decimal(", "array<>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		typ, err := ParseType(s)
		if err != nil {
			return
		}
		back, err := ParseType(typ.String())
		if err != nil || back.String() != typ.String() {
			t.Fatalf("%q parsed to %s, which reparses to %s, %v", s, typ, back, err)
		}
	})
}

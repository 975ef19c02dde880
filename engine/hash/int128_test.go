package hash

import (
	"math/big"
	"strings"
	"testing"
)

// checkInt128Kernels checks the Int128 kernels against the byte kernels and the scalar
// API over the fuzz batch's wide decimal column.
func checkInt128Kernels(t *testing.T, c *fuzzColumns) {
	t.Helper()
	src := make([]Int128, c.n)
	for i := range src {
		b := c.wide[i*wideWidth : (i+1)*wideWidth]
		src[i] = Int128FromBytes(b)
		want := twosComplement(b)
		if got := src[i].Big(); got.Cmp(want) != 0 {
			t.Fatalf("row %d: Int128FromBytes(%x).Big() = %s, want %s", i, b, got, want)
		}
		if back, ok := Int128FromBig(want); !ok || back != src[i] {
			t.Fatalf("row %d: Int128FromBig(%s) = %v, %v", i, want, back, ok)
		}
		v, err := Decimal(want, 38, 4)
		if err != nil {
			t.Fatal(err)
		}
		if got := string(src[i].AppendDecimal(nil, 4)); got != v.String() {
			t.Fatalf("row %d: AppendDecimal = %s, want %s", i, got, v.String())
		}
	}
	got, want := make([]int32, c.n), make([]int32, c.n)
	FillSeed(got)
	FillSeed(want)
	Murmur3Int128s(got, src, c.nulls[8])
	Murmur3Decimals(want, c.wide, wideWidth, c.nulls[8])
	hgot, hwant := make([]int32, c.n), make([]int32, c.n)
	HiveInt128s(hgot, src, 4, c.nulls[8])
	HiveDecimals(hwant, c.wide, wideWidth, 4, c.nulls[8])
	for i := range got {
		if got[i] != want[i] || hgot[i] != hwant[i] {
			t.Fatalf("row %d: Int128 kernels (%d, %d), byte kernels (%d, %d)", i, got[i], hgot[i], want[i], hwant[i])
		}
	}
}

func TestInt128Arithmetic(t *testing.T) {
	t.Parallel()
	max38 := new(big.Int).Sub(pow10(38), big.NewInt(1))
	cases := []*big.Int{
		big.NewInt(0), big.NewInt(1), big.NewInt(-1), big.NewInt(1 << 62), big.NewInt(-1 << 63),
		pow10(18), pow10(19), new(big.Int).Neg(pow10(19)), max38, new(big.Int).Neg(max38),
	}
	for _, a := range cases {
		x, ok := Int128FromBig(a)
		if !ok {
			t.Fatalf("Int128FromBig(%s) does not fit", a)
		}
		if x.IsInt64() != a.IsInt64() {
			t.Errorf("IsInt64(%s) = %v", a, x.IsInt64())
		}
		if x.Sign() != a.Sign() || x.Neg().Big().Cmp(new(big.Int).Neg(a)) != 0 {
			t.Errorf("sign or negation of %s wrong", a)
		}
		for _, b := range cases {
			y, _ := Int128FromBig(b)
			if got := x.Cmp(y); got != a.Cmp(b) {
				t.Errorf("Cmp(%s, %s) = %d", a, b, got)
			}
			sum := new(big.Int).Add(a, b)
			s, over := x.Add(y)
			if over != (sum.BitLen() > 127) || !over && s.Big().Cmp(sum) != 0 {
				t.Errorf("Add(%s, %s) = %s, %v", a, b, s.Big(), over)
			}
		}
		for _, m := range []uint64{0, 1, 10, 1e9, 1e18} {
			prod := new(big.Int).Mul(a, new(big.Int).SetUint64(m))
			p, over := x.MulSmall(m)
			if over != (prod.BitLen() > 127) || !over && p.Big().Cmp(prod) != 0 {
				t.Errorf("MulSmall(%s, %d) = %s, %v", a, m, p.Big(), over)
			}
		}
		if got := x.FitsDigits(Pow10Int128(38)); got != (new(big.Int).Abs(a).Cmp(max38) <= 0) {
			t.Errorf("FitsDigits(%s, 38) = %v", a, got)
		}
	}
	if _, ok := Int128FromBig(new(big.Int).Lsh(big.NewInt(1), 127)); ok {
		t.Error("2^127 fits in an Int128")
	}
}

func TestInt128AppendDecimal(t *testing.T) {
	t.Parallel()
	max38 := strings.Repeat("9", 38)
	cases := []struct {
		unscaled string
		scale    int
		want     string
	}{
		{"0", 0, "0"},
		{"0", 10, "0.0000000000"},
		{"-5", 3, "-0.005"},
		{"12345678901234567890", 2, "123456789012345678.90"},
		{"10000000000000000000", 0, "10000000000000000000"},
		{max38, 38, "0." + max38},
		{"-" + max38, 6, "-" + max38[:32] + "." + max38[32:]},
	}
	for _, c := range cases {
		v, _ := new(big.Int).SetString(c.unscaled, 10)
		x, _ := Int128FromBig(v)
		if got := string(x.AppendDecimal(nil, c.scale)); got != c.want {
			t.Errorf("AppendDecimal(%s, %d) = %s, want %s", c.unscaled, c.scale, got, c.want)
		}
	}
}

func TestInt128Bytes(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"0", "-1", "127", "-128", "12345678", "-99999999999999999999"} {
		v, _ := new(big.Int).SetString(s, 10)
		x, _ := Int128FromBig(v)
		for _, width := range []int{9, 16, 20} {
			b := make([]byte, width)
			x.PutBytes(b)
			if got := Int128FromBytes(b); got != x {
				t.Errorf("%s in %d bytes reads back as %s", s, width, got.Big())
			}
		}
		if got := Int128FromBytes(javaBytes(v)); got != x {
			t.Errorf("%s from toByteArray reads back as %s", s, got.Big())
		}
	}
}

func TestMurmur3Int128sAllocs(t *testing.T) {
	src := []Int128{Int128Of(-1), Int128Of(12345678), {Hi: 1 << 40, Lo: 7}}
	h := make([]int32, len(src))
	if n := testing.AllocsPerRun(100, func() { Murmur3Int128s(h, src, nil) }); n != 0 {
		t.Errorf("Murmur3Int128s allocates %v times per call", n)
	}
}

func BenchmarkMurmur3Int128s(b *testing.B) {
	const n = 4096
	src, h := make([]Int128, n), make([]int32, n)
	for i := range src {
		src[i], _ = Int128Of(int64(i)*7919 - 1<<40).MulSmall(1e15)
	}
	for b.Loop() {
		FillSeed(h)
		Murmur3Int128s(h, src, nil)
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

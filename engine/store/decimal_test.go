//go:build engine

package store

import (
	"context"
	"fmt"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/bucketlint/bucketlint/engine/hash"
)

func TestMinBytesForPrecision(t *testing.T) {
	t.Parallel()
	// Spark's Decimal.minBytesForPrecision for the precisions stored as byte arrays.
	want := map[int]int{19: 9, 20: 9, 21: 9, 22: 10, 28: 12, 29: 13, 38: 16, 9: 4, 18: 8}
	for p, n := range want {
		if got := MinBytesForPrecision(p); got != n {
			t.Errorf("MinBytesForPrecision(%d) = %d, want %d", p, got, n)
		}
	}
}

// extremes returns unscaled values at the edges of decimal(p,s): ±(10^p-1), ±10^18 around
// the int64 boundary when they fit, ±1, 0.
func extremes(p int) []*big.Int {
	top := new(big.Int).Sub(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(p)), nil), big.NewInt(1))
	out := []*big.Int{big.NewInt(0), big.NewInt(1), big.NewInt(-1), top, new(big.Int).Neg(top)}
	if p > 18 {
		edge := new(big.Int).SetUint64(1 << 63)
		out = append(out, edge, new(big.Int).Neg(edge), new(big.Int).Add(edge, big.NewInt(1)))
	}
	return out
}

// TestWideDecimalRoundTrip writes decimals at every precision boundary, with NULLs and
// negative values, and reads them back; the files use the FIXED_LEN_BYTE_ARRAY length Spark
// writes.
func TestWideDecimalRoundTrip(t *testing.T) {
	t.Parallel()
	var schema Schema
	for _, ty := range []string{"decimal(18,2)", "decimal(19,0)", "decimal(19,19)", "decimal(28,6)", "decimal(38,0)", "decimal(38,38)"} {
		schema = append(schema, Column{Name: "d" + strings.NewReplacer("(", "_", ",", "_", ")", "").Replace(ty[7:]), Type: mustType(t, ty)})
	}
	data := NewBatch(schema.Types(), 0)
	rows := 12
	for c, col := range schema {
		vals := extremes(col.Type.Precision)
		for r := range rows {
			if r%5 == 4 {
				data.Cols[c].AppendNull()
				continue
			}
			v := vals[r%len(vals)]
			dv, err := hash.Decimal(v, col.Type.Precision, col.Type.Scale)
			if err != nil {
				t.Fatal(err)
			}
			if err := AppendParsed(data.Cols[c], dv.String()); err != nil {
				t.Fatal(err)
			}
		}
	}
	data.Len = rows
	want := rowTexts(data)
	dir := filepath.Join(t.TempDir(), "t")
	layout := Layout{Buckets: 3, BucketColumns: []string{schema[1].Name, schema[4].Name}}
	if _, err := Write(context.Background(), dir, schema, data, layout, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	tab, err := Open(dir, schema, layout)
	if err != nil {
		t.Fatal(err)
	}
	got, err := tab.ReadAll(schema.AllColumns(), Pruning{})
	if err != nil {
		t.Fatal(err)
	}
	if g := rowTexts(got); !slices.Equal(g, want) {
		t.Fatalf("read back\n%s\nwant\n%s", strings.Join(g, "\n"), strings.Join(want, "\n"))
	}
	if v, err := Validate(tab, 5); err != nil || !v.OK() {
		t.Fatalf("validate: %+v, %v", v, err)
	}
	f, err := os.Open(tab.Files[0].Path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	pf, err := openParquet(f, tab.Files[0].Path)
	if err != nil {
		t.Fatal(err)
	}
	for _, col := range schema {
		leaf, ok := pf.Schema().Lookup(col.Name)
		if !ok {
			t.Fatalf("no column %s in the file", col.Name)
		}
		typ := leaf.Node.Type()
		wantKind := parquet.Int64
		if col.Type.Precision > hash.MaxLongDigits {
			wantKind = parquet.FixedLenByteArray
			if typ.Length() != MinBytesForPrecision(col.Type.Precision) {
				t.Errorf("%s stored in %d bytes, want %d", col.Type, typ.Length(), MinBytesForPrecision(col.Type.Precision))
			}
		}
		dec, _ := typ.LogicalType().Value.(interface{ String() string })
		if typ.Kind() != wantKind || dec == nil || !strings.HasPrefix(dec.String(), "DECIMAL(") {
			t.Errorf("%s stored as %s %v", col.Type, typ.Kind(), typ.LogicalType())
		}
	}
}

// TestReadDecimalsOfOtherWriters reads decimals stored as BINARY, as INT32 and INT64 into a
// wide column, and as FIXED_LEN_BYTE_ARRAY into a narrow one, as other writers (Hive,
// Impala, Spark's legacy format) produce them.
func TestReadDecimalsOfOtherWriters(t *testing.T) {
	t.Parallel()
	wide := mustType(t, "decimal(30,4)")
	narrow := mustType(t, "decimal(12,2)")
	g := parquet.Group{
		"bin":   parquet.Optional(parquet.Decimal(4, 30, parquet.ByteArrayType)),
		"i32":   parquet.Optional(parquet.Decimal(4, 9, parquet.Int32Type)),
		"i64":   parquet.Optional(parquet.Decimal(4, 18, parquet.Int64Type)),
		"flba":  parquet.Optional(parquet.Decimal(2, 12, parquet.FixedLenByteArrayType(6))),
		"flbaw": parquet.Optional(parquet.Decimal(4, 30, parquet.FixedLenByteArrayType(16))),
	}
	ps := parquet.NewSchema("spark_schema", g)
	path := filepath.Join(t.TempDir(), "other.parquet")
	big30, _ := new(big.Int).SetString("-12345678901234567890123456", 10)
	bigBytes := javaBytesForTest(big30)
	var full [16]byte
	x, _ := hash.Int128FromBig(big30)
	x.PutBytes(full[:])
	type row struct {
		bin, flba, flbaw []byte
		i32              int32
		i64              int64
		null             bool
	}
	in := []row{
		{bin: bigBytes, i32: -5, i64: 1 << 62, flba: []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0x85}, flbaw: full[:]},
		{null: true},
		{bin: []byte{0x01}, i32: 7, i64: -1, flba: []byte{0, 0, 0, 0, 0x30, 0x39}, flbaw: make([]byte, 16)},
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := parquet.NewGenericWriter[any](f, ps)
	cw := w.ColumnWriters()
	names := map[string]int{}
	for _, n := range []string{"bin", "i32", "i64", "flba", "flbaw"} {
		lc, _ := ps.Lookup(n)
		names[n] = lc.ColumnIndex
	}
	for _, r := range in {
		vals := map[string]parquet.Value{
			"bin": parquet.ByteArrayValue(r.bin), "i32": parquet.Int32Value(r.i32), "i64": parquet.Int64Value(r.i64),
			"flba": parquet.FixedLenByteArrayValue(r.flba), "flbaw": parquet.FixedLenByteArrayValue(r.flbaw),
		}
		for n, v := range vals {
			if r.null {
				v = parquet.Value{}.Level(0, 0, names[n])
			} else {
				v = v.Level(0, 1, names[n])
			}
			if _, err := cw[names[n]].WriteRowValues([]parquet.Value{v}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	schema := Schema{{"bin", wide}, {"i32", wide}, {"i64", wide}, {"flba", narrow}, {"flbaw", wide}}
	b, err := ReadParquetFile(path, schema)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"-1234567890123456789012.3456|-0.0005|461168601842738.7904|-1.23|-1234567890123456789012.3456",
		`\N|\N|\N|\N|\N`,
		"0.0001|0.0007|-0.0001|123.45|0.0000",
	}
	for r := range b.Len {
		var line []byte
		for c := range b.Cols {
			if c > 0 {
				line = append(line, '|')
			}
			line = AppendText(line, b.Cols[c], r)
		}
		if string(line) != want[r] {
			t.Errorf("row %d = %s, want %s", r, line, want[r])
		}
	}
}

// javaBytesForTest is BigInteger.toByteArray: minimal big-endian two's complement.
func javaBytesForTest(v *big.Int) []byte {
	x, _ := hash.Int128FromBig(v)
	var b [16]byte
	x.PutBytes(b[:])
	out := b[:]
	for len(out) > 1 && (out[0] == 0 && out[1]&0x80 == 0 || out[0] == 0xff && out[1]&0x80 != 0) {
		out = out[1:]
	}
	return out
}

// TestWideDecimalTextProperty checks that random values of every wide precision print and
// parse back to themselves, and hash as engine/hash's scalar function does.
func TestWideDecimalTextProperty(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	var h Hasher
	for p := hash.MaxLongDigits + 1; p <= hash.MaxDecimalPrecision; p++ {
		ty := hash.DecimalType(p, rng.IntN(p+1))
		v := NewVec(ty, 64)
		limit := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(p)), nil)
		var vals []*big.Int
		for range 64 {
			u := new(big.Int).SetUint64(rng.Uint64())
			u.Lsh(u, 64).Or(u, new(big.Int).SetUint64(rng.Uint64())).Mod(u, limit)
			if rng.IntN(2) == 0 {
				u.Neg(u)
			}
			if rng.IntN(4) == 0 {
				u.Quo(u, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(rng.IntN(p))), nil))
			}
			x, _ := hash.Int128FromBig(u)
			v.AppendWide(x)
			vals = append(vals, u)
		}
		back := NewVec(ty, 64)
		for i := range v.Len() {
			if err := AppendParsed(back, string(AppendText(nil, v, i))); err != nil {
				t.Fatal(err)
			}
		}
		if !slices.Equal(back.Wide, v.Wide) {
			t.Fatalf("%s: text round trip changed values", ty)
		}
		ids := make([]int32, v.Len())
		h.Buckets(ids, []*Vec{v}, v.Len(), 37)
		for i, u := range vals {
			dv, err := hash.Decimal(u, p, ty.Scale)
			if err != nil {
				t.Fatal(err)
			}
			if want := hash.Bucket(hash.Murmur3([]hash.Value{dv}), 37); int(ids[i]) != want {
				t.Fatalf("%s %s: bucket %d, scalar %d", ty, dv, ids[i], want)
			}
		}
	}
}

// TestWideDecimalStatisticsAreSigned checks the row-group statistics of a wide decimal
// column holding negative and positive values: the minimum and maximum are the signed
// extremes, so readers that prune with them (Spark's filter push-down) keep
// every matching row.
func TestWideDecimalStatisticsAreSigned(t *testing.T) {
	t.Parallel()
	schema := Schema{{Name: "d", Type: mustType(t, "decimal(38,10)")}}
	data := NewBatch(schema.Types(), 0)
	for _, s := range []string{"7071200000000.0000070712", "-9100000000.0000000091", "0.5", `\N`, "-0.0000000001", "12"} {
		if err := AppendParsed(data.Cols[0], s); err != nil {
			t.Fatal(err)
		}
		data.Len++
	}
	dir := filepath.Join(t.TempDir(), "t")
	tab, err := Write(context.Background(), dir, schema, data, Layout{}, WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(tab.Files[0].Path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	pf, err := openParquet(f, tab.Files[0].Path)
	if err != nil {
		t.Fatal(err)
	}
	text := func(b []byte) string { return string(hash.Int128FromBytes(b).AppendDecimal(nil, 10)) }
	stats := pf.Metadata().RowGroups[0].Columns[0].MetaData.Statistics
	if lo, hi := text(stats.MinValue), text(stats.MaxValue); lo != "-9100000000.0000000091" || hi != "7071200000000.0000070712" {
		t.Errorf("row-group statistics [%s, %s]", lo, hi)
	}
	// No page index is written, so no reader binary-searches page bounds.
	if cc := pf.Metadata().RowGroups[0].Columns[0]; cc.ColumnIndexOffset != 0 || cc.OffsetIndexOffset != 0 {
		t.Errorf("page index written at %d and %d", cc.ColumnIndexOffset, cc.OffsetIndexOffset)
	}
}

// BenchmarkWideDecimalParquet writes and reads back 1M rows of a decimal(38,10) column and a
// decimal(20,0) bucket key in 64 buckets, against the same table with decimal(18,2)
// values and a bigint key.
func BenchmarkWideDecimalParquet(b *testing.B) {
	const rows = 1 << 20
	for _, c := range []struct{ name, key, val string }{
		{"narrow", "bigint", "decimal(18,2)"}, {"wide", "decimal(20,0)", "decimal(38,10)"},
	} {
		g := GenSpec{Rows: rows, Seed: 1, Columns: []GenColumn{
			{Name: "k", Type: mustBenchType(b, c.key)},
			{Name: "v", Type: mustBenchType(b, c.val), Cardinality: 100000, NullFraction: 0.05},
		}}
		data, err := Generate(g)
		if err != nil {
			b.Fatal(err)
		}
		layout := Layout{Buckets: 64, BucketColumns: []string{"k"}}
		b.Run("write/"+c.name, func(b *testing.B) {
			for i := range b.N {
				dir := filepath.Join(b.TempDir(), fmt.Sprint(i))
				if _, err := Write(context.Background(), dir, g.Schema(), data, layout, WriteOptions{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
		})
		b.Run("read/"+c.name, func(b *testing.B) {
			tab, err := Write(context.Background(), filepath.Join(b.TempDir(), "t"), g.Schema(), data, layout, WriteOptions{})
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for range b.N {
				if got, err := tab.ReadAll(g.Schema().AllColumns(), Pruning{}); err != nil || got.Len != rows {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}

func mustBenchType(b *testing.B, s string) hash.Type {
	b.Helper()
	t, err := hash.ParseType(s)
	if err != nil {
		b.Fatal(err)
	}
	return t
}

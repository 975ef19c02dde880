//go:build engine

package store

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/bucketlint/bucketlint/engine/hash"
)

func mustType(t *testing.T, s string) hash.Type {
	t.Helper()
	ty, err := hash.ParseType(s)
	if err != nil {
		t.Fatal(err)
	}
	return ty
}

// allTypes generates one column of every supported type, with NULLs.
func allTypes(t *testing.T, rows int, seed uint64) GenSpec {
	t.Helper()
	var cols []GenColumn
	for i, ty := range []string{
		"bigint", "int", "smallint", "tinyint", "boolean", "string", "binary",
		"double", "float", "date", "timestamp", "timestamp_ntz", "decimal(9,2)", "decimal(18,4)",
		"decimal(19,0)", "decimal(28,6)", "decimal(38,10)",
	} {
		cols = append(cols, GenColumn{Name: "c" + string(rune('a'+i)), Type: mustType(t, ty), Cardinality: 50, NullFraction: 0.1})
	}
	cols[0].Name, cols[0].NullFraction, cols[0].Cardinality = "k", 0.05, 0
	return GenSpec{Rows: rows, Columns: cols, Seed: seed}
}

// rowTexts renders every live row of b as text, sorted: a multiset of rows.
func rowTexts(b *Batch) []string {
	var out []string
	var buf []byte
	for i := range b.Len {
		buf = buf[:0]
		for j, c := range b.Cols {
			if j > 0 {
				buf = append(buf, '|')
			}
			buf = AppendText(buf, c, i)
		}
		out = append(out, string(buf))
	}
	slices.Sort(out)
	return out
}

func TestRoundTripEveryTypeAndLayout(t *testing.T) {
	t.Parallel()
	g := allTypes(t, 3000, 7)
	data, err := Generate(g)
	if err != nil {
		t.Fatal(err)
	}
	schema := g.Schema()
	want := rowTexts(data)
	layouts := map[string]Layout{
		"unbucketed":            {},
		"bucketed":              {Buckets: 8, BucketColumns: []string{"k"}},
		"bucketed_two_columns":  {Buckets: 5, BucketColumns: []string{"ce", "cf"}},
		"sorted":                {Buckets: 4, BucketColumns: []string{"cf"}, SortColumns: []string{"k"}},
		"partitioned_bucketed":  {Buckets: 3, BucketColumns: []string{"k"}, PartitionColumns: []string{"cd"}},
		"tasks_times_buckets":   {Buckets: 6, BucketColumns: []string{"k"}, Tasks: 4},
		"partitioned_by_string": {PartitionColumns: []string{"cf"}},
	}
	for name, layout := range layouts {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			checkRoundTrip(t, schema, data, want, layout)
		})
	}
}

// checkRoundTrip writes data in layout, opens the table again and checks that every row reads
// back, that a bucketed table validates and holds every row in its buckets, and that sorted
// buckets are sorted.
func checkRoundTrip(t *testing.T, schema Schema, data *Batch, want []string, layout Layout) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "t")
	tab, err := Write(context.Background(), dir, schema, data, layout, WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if layout.Bucketing == HiveBucketing {
		for _, f := range tab.Files {
			if prefix := HiveBucketFileName(0, "", f.Bucket)[:8]; !strings.HasPrefix(filepath.Base(f.Path), prefix) {
				t.Fatalf("file %s of bucket %d lacks the prefix %s", f.Path, f.Bucket, prefix)
			}
		}
	}
	opened, err := Open(dir, schema, layout)
	if err != nil {
		t.Fatal(err)
	}
	if len(opened.Files) != len(tab.Files) {
		t.Fatalf("opened %d files, wrote %d", len(opened.Files), len(tab.Files))
	}
	got, err := opened.ReadAll(schema.AllColumns(), Pruning{})
	if err != nil {
		t.Fatal(err)
	}
	if g := rowTexts(got); !slices.Equal(g, want) {
		t.Fatalf("read back %d rows differing from the %d written; first got %q want %q", len(g), len(want), g[0], want[0])
	}
	if layout.Bucketed() {
		checkBuckets(t, tab, opened, layout, len(want))
	}
	if len(layout.SortColumns) > 0 {
		checkSorted(t, opened, schema.Index(layout.SortColumns[0]))
	}
}

// checkBuckets validates a bucketed table and counts the rows its buckets hold.
func checkBuckets(t *testing.T, written, opened *Table, layout Layout, rows int) {
	t.Helper()
	v, err := Validate(opened, 5)
	if err != nil {
		t.Fatal(err)
	}
	if !v.OK() || v.Rows != int64(rows) {
		t.Fatalf("validation: %+v", v)
	}
	if layout.Tasks > 1 && len(written.Files) <= layout.Buckets {
		t.Fatalf("%d tasks wrote only %d files", layout.Tasks, len(written.Files))
	}
	var n int
	for b := range layout.Buckets {
		if err := opened.ReadBucket(b, []int{0}, func(bt *Batch) error { n += bt.Len; return nil }); err != nil {
			t.Fatal(err)
		}
	}
	if n != rows {
		t.Fatalf("buckets hold %d rows, want %d", n, rows)
	}
}

func checkSorted(t *testing.T, tab *Table, col int) {
	t.Helper()
	for _, f := range tab.Files {
		err := tab.ReadFile(f, []int{col}, func(b *Batch) error {
			for i := 1; i < b.Len; i++ {
				if Compare(b.Cols[0], i-1, b.Cols[0], i) > 0 {
					t.Fatalf("%s: row %d out of order", f.Path, i)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

func TestFileNamesAreSparks(t *testing.T) {
	t.Parallel()
	g := GenSpec{Rows: 100, Seed: 1, Columns: []GenColumn{{Name: "id", Type: mustType(t, "int")}}}
	data, _ := Generate(g)
	dir := filepath.Join(t.TempDir(), "t")
	tab, err := Write(context.Background(), dir, g.Schema(), data, Layout{Buckets: 4, BucketColumns: []string{"id"}}, WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p := NewBucketParser()
	for _, f := range tab.Files {
		name := filepath.Base(f.Path)
		if !strings.HasPrefix(name, "part-00000-") || !strings.HasSuffix(name, ".c000.snappy.parquet") {
			t.Errorf("file name %s is not Spark's", name)
		}
		if id, ok := p.Bucket(name); !ok || id != f.Bucket {
			t.Errorf("file name %s parses to bucket %d, want %d", name, id, f.Bucket)
		}
	}
	for name, want := range map[string]int{"x_3.parquet": 3, "_00003": 3, "part-1-uuid_00012.c001.snappy.parquet": 12} {
		if got, ok := p.Bucket(name); !ok || got != want {
			t.Errorf("Bucket(%q) = %d, %v; want %d", name, got, ok, want)
		}
	}
	if _, ok := p.Bucket("part-00000-abc-c000.snappy.parquet"); ok {
		t.Error("an unbucketed name parsed as bucketed")
	}
}

func TestValidateCatchesPlantedRow(t *testing.T) {
	t.Parallel()
	g := GenSpec{Rows: 500, Seed: 3, Columns: []GenColumn{
		{Name: "k", Type: mustType(t, "bigint"), Cardinality: 40},
		{Name: "s", Type: mustType(t, "string"), NullFraction: 0.2},
	}}
	data, _ := Generate(g)
	dir := filepath.Join(t.TempDir(), "t")
	layout := Layout{Buckets: 4, BucketColumns: []string{"k"}}
	if _, err := Write(context.Background(), dir, g.Schema(), data, layout, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	// Plant key 1 (bucket pmod(hash(1L), 4) = 1) as the third row of a bucket-0 file.
	bad := NewBatch(g.Schema().Types(), 3)
	for _, k := range []int64{-7, 12, 1} {
		bad.Cols[0].AppendInt(k)
		bad.Cols[1].AppendString("planted")
		bad.Len++
	}
	var h Hasher
	ids := make([]int32, 3)
	h.Buckets(ids, bad.Cols[:1], 3, 4)
	w, err := newFileWriter(g.Schema(), []int{0, 1}, snappyCodec{})
	if err != nil {
		t.Fatal(err)
	}
	var rows []int32
	for i, id := range ids {
		if id == 0 || i == 2 {
			rows = append(rows, int32(i))
		}
	}
	if ids[2] != 1 {
		t.Fatalf("bucket of 1L = %d, want 1", ids[2])
	}
	planted := filepath.Join(dir, BucketFileName(99, "planted", 0))
	if err := w.write(planted, bad, rows); err != nil {
		t.Fatal(err)
	}
	tab, err := Open(dir, g.Schema(), layout)
	if err != nil {
		t.Fatal(err)
	}
	v, err := Validate(tab, 10)
	if err != nil {
		t.Fatal(err)
	}
	if v.Misplaced != 1 || len(v.First) != 1 {
		t.Fatalf("misplaced = %d (%v), want 1", v.Misplaced, v.First)
	}
	m := v.First[0]
	if m.File != planted || m.Row != int64(len(rows)-1) || m.Bucket != 1 || m.FileBucket != 0 || m.Key != "1" {
		t.Fatalf("misplaced row = %+v", m)
	}
	if v.Err() == nil {
		t.Fatal("Err() = nil for a misplaced row")
	}
}

func TestBucketIDsMatchScalarHash(t *testing.T) {
	t.Parallel()
	g := allTypes(t, 400, 11)
	data, _ := Generate(g)
	var h Hasher
	for c := range data.Cols {
		ids := make([]int32, data.Len)
		h.Buckets(ids, data.Cols[c:c+1], data.Len, 7)
		for r := range data.Len {
			val := scalarValue(t, data.Cols[c], r)
			if want := hash.Bucket(hash.Murmur3([]hash.Value{val}), 7); int(ids[r]) != want {
				t.Fatalf("column %s row %d (%s): bucket %d, scalar %d", g.Columns[c].Name, r, val, ids[r], want)
			}
		}
	}
}

// scalarValue converts row r of v to an engine/hash scalar value through its text form.
func scalarValue(t *testing.T, v *Vec, r int) hash.Value {
	t.Helper()
	if v.IsNull(r) {
		return hash.Null(v.Type)
	}
	switch v.Type.Kind {
	case hash.KindBinary:
		return hash.Binary(v.Bytes(r))
	case hash.KindDouble:
		return hash.Double(v.Floats[r])
	case hash.KindFloat:
		return hash.Float(float32(v.Floats[r]))
	case hash.KindTimestampNTZ:
		return hash.TimestampNTZ(v.Ints[r])
	case hash.KindTimestamp:
		return hash.Timestamp(v.Ints[r])
	}
	val, err := hash.ParseValue(v.Type, string(AppendText(nil, v, r)))
	if err != nil {
		t.Fatal(err)
	}
	return val
}

func TestWriteRefusesNonEmptyDir(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "mine.txt"), []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	g := GenSpec{Rows: 1, Columns: []GenColumn{{Name: "id", Type: mustType(t, "int")}}}
	data, _ := Generate(g)
	if _, err := Write(context.Background(), dir, g.Schema(), data, Layout{}, WriteOptions{}); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Fatalf("err = %v, want a not-empty error", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "mine.txt")); string(b) != "keep" {
		t.Fatal("user file changed")
	}
}

func TestReadCSVAndJSONLines(t *testing.T) {
	t.Parallel()
	schema, err := ParseSchema("id bigint, name string, amount decimal(10,2), day date, ok boolean")
	if err != nil {
		t.Fatal(err)
	}
	csvIn := "name,id,amount,day,ok\nann,1,12.50,2024-01-31,true\n\\N,2,,2020-02-29,false\n"
	jsonIn := `{"id":1,"name":"ann","amount":12.5,"day":"2024-01-31","ok":true}
{"id":2,"amount":null,"day":"2020-02-29","ok":false}
`
	a, err := ReadCSV(strings.NewReader(csvIn), schema)
	if err != nil {
		t.Fatal(err)
	}
	b, err := ReadJSONLines(strings.NewReader(jsonIn), schema)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`1|ann|12.50|2024-01-31|true`, `2|\N|\N|2020-02-29|false`}
	if got := rowTexts(a); !slices.Equal(got, want) {
		t.Errorf("csv rows %q, want %q", got, want)
	}
	if got := rowTexts(b); !slices.Equal(got, want) {
		t.Errorf("json rows %q, want %q", got, want)
	}
}

// TestWriteCutsRowGroups writes one file of more rows than a row group holds and reads
// every row back in order from the row groups the footer lists.
func TestWriteCutsRowGroups(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 1.1 million rows")
	}
	t.Parallel()
	rows := rowGroupRows + rowGroupRows/10
	g := GenSpec{Rows: rows, Seed: 3, Columns: []GenColumn{
		{Name: "k", Type: mustType(t, "bigint")},
		{Name: "s", Type: mustType(t, "string"), Cardinality: 9, NullFraction: 0.2},
	}}
	data, err := Generate(g)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "t")
	if _, err := Write(context.Background(), dir, g.Schema(), data, Layout{}, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	opened, err := Open(dir, g.Schema(), Layout{})
	if err != nil {
		t.Fatal(err)
	}
	if len(opened.Files) != 1 {
		t.Fatalf("%d files", len(opened.Files))
	}
	f, err := os.Open(opened.Files[0].Path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	if n := len(pf.RowGroups()); n != 2 {
		t.Errorf("%d row groups, want 2", n)
	}
	if n := pf.RowGroups()[0].NumRows(); n != rowGroupRows {
		t.Errorf("first row group holds %d rows, want %d", n, rowGroupRows)
	}
	got, err := opened.ReadAll(g.Schema().AllColumns(), Pruning{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Len != rows {
		t.Fatalf("read %d rows, want %d", got.Len, rows)
	}
	for i := range rows {
		if got.Cols[0].Ints[i] != data.Cols[0].Ints[i] || got.Cols[1].IsNull(i) != data.Cols[1].IsNull(i) ||
			Compare(got.Cols[1], i, data.Cols[1], i) != 0 && !data.Cols[1].IsNull(i) {
			t.Fatalf("row %d differs", i)
		}
	}
}

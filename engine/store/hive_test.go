//go:build engine

package store

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/engine/hash"
)

// hiveTypes generates one column of every type a Hive-format bucketed table can be bucketed
// on here, with NULLs; k is a bigint key.
func hiveTypes(t *testing.T, rows int, seed uint64) GenSpec {
	t.Helper()
	var cols []GenColumn
	for i, ty := range []string{
		"bigint", "int", "smallint", "tinyint", "boolean", "string", "binary",
		"double", "float", "date", "timestamp", "decimal(9,2)", "decimal(18,4)", "decimal(28,6)", "decimal(38,10)",
	} {
		cols = append(cols, GenColumn{Name: "c" + string(rune('a'+i)), Type: mustType(t, ty), Cardinality: 50, NullFraction: 0.1})
	}
	cols[0].Name, cols[0].NullFraction, cols[0].Cardinality = "k", 0.05, 0
	return GenSpec{Rows: rows, Columns: cols, Seed: seed}
}

func TestHiveRoundTrip(t *testing.T) {
	t.Parallel()
	g := hiveTypes(t, 2000, 5)
	data, err := Generate(g)
	if err != nil {
		t.Fatal(err)
	}
	schema := g.Schema()
	want := rowTexts(data)
	layouts := map[string]Layout{
		"bucketed":             {Buckets: 8, BucketColumns: []string{"k"}},
		"bucketed_two_columns": {Buckets: 5, BucketColumns: []string{"cf", "cj"}},
		"sorted":               {Buckets: 4, BucketColumns: []string{"cb"}, SortColumns: []string{"k"}},
		"partitioned_bucketed": {Buckets: 3, BucketColumns: []string{"k"}, PartitionColumns: []string{"cd"}},
		"tasks_times_buckets":  {Buckets: 6, BucketColumns: []string{"ch"}, Tasks: 4},
	}
	for name, layout := range layouts {
		layout.Bucketing = HiveBucketing
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			checkRoundTrip(t, schema, data, want, layout)
		})
	}
}

// TestHiveAndSparkSchemesDisagree shows the two schemes are told apart: Spark's datasource
// names carry no Hive prefix, and Hive files read as datasource files (their names end in
// _BBBBB too) fail Murmur3 validation.
func TestHiveAndSparkSchemesDisagree(t *testing.T) {
	t.Parallel()
	g := GenSpec{Rows: 400, Seed: 2, Columns: []GenColumn{{Name: "k", Type: mustType(t, "int"), Cardinality: 100}}}
	data, _ := Generate(g)
	spark := Layout{Buckets: 4, BucketColumns: []string{"k"}}
	hive := spark
	hive.Bucketing = HiveBucketing
	sparkDir, hiveDir := filepath.Join(t.TempDir(), "s"), filepath.Join(t.TempDir(), "h")
	if _, err := Write(context.Background(), sparkDir, g.Schema(), data, spark, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := Write(context.Background(), hiveDir, g.Schema(), data, hive, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(sparkDir, g.Schema(), hive); err == nil || !strings.Contains(err.Error(), "no bucket id") {
		t.Fatalf("datasource files opened as Hive files: err = %v", err)
	}
	tab, err := Open(hiveDir, g.Schema(), spark)
	if err != nil {
		t.Fatal(err)
	}
	v, err := Validate(tab, 1)
	if err != nil {
		t.Fatal(err)
	}
	if v.Misplaced == 0 {
		t.Fatal("a HiveHash layout passes Murmur3 validation")
	}
}

func TestHiveFileNames(t *testing.T) {
	t.Parallel()
	if got := HiveBucketFileName(7, "uuid", 3); got != "00003_0_part-00007-uuid_00003.c000.snappy.parquet" {
		t.Errorf("HiveBucketFileName = %s", got)
	}
	p := NewHiveBucketParser()
	for name, want := range map[string]int{
		"00003_0_part-00000-0e166fa2-e451-47b3-a239-0695f1390182_00003.c000.snappy.parquet": 3,
		"000003_0":        3,
		"000012_0_copy_1": 12,
		"00100_0.parquet": 100,
	} {
		if got, ok := p.Bucket(name); !ok || got != want {
			t.Errorf("Bucket(%q) = %d, %v; want %d", name, got, ok, want)
		}
	}
	for _, name := range []string{"part-00000-uuid_00003.c000.snappy.parquet", "x_3.parquet", "0003", "00003_x"} {
		if id, ok := p.Bucket(name); ok {
			t.Errorf("Bucket(%q) = %d, want no Hive bucket id", name, id)
		}
	}
}

func TestHiveValidateCatchesPlantedRow(t *testing.T) {
	t.Parallel()
	g := GenSpec{Rows: 500, Seed: 3, Columns: []GenColumn{
		{Name: "k", Type: mustType(t, "bigint"), Cardinality: 40},
		{Name: "s", Type: mustType(t, "string"), NullFraction: 0.2},
	}}
	data, _ := Generate(g)
	dir := filepath.Join(t.TempDir(), "t")
	layout := Layout{Buckets: 4, BucketColumns: []string{"k"}, Bucketing: HiveBucketing}
	if _, err := Write(context.Background(), dir, g.Schema(), data, layout, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	// Plant key 1 (HiveHash 1, bucket 1) as the third row of a bucket-0 file; 8 and 12
	// hash to 8 and 12, both bucket 0.
	bad := NewBatch(g.Schema().Types(), 3)
	for _, k := range []int64{8, 12, 1} {
		bad.Cols[0].AppendInt(k)
		bad.Cols[1].AppendString("planted")
		bad.Len++
	}
	var h Hasher
	ids := make([]int32, 3)
	h.HiveBuckets(ids, bad.Cols[:1], 3, 4)
	if !slices.Equal(ids, []int32{0, 0, 1}) {
		t.Fatalf("Hive buckets of 8, 12, 1 = %v, want [0 0 1]", ids)
	}
	w, err := newFileWriter(g.Schema(), []int{0, 1}, snappyCodec{})
	if err != nil {
		t.Fatal(err)
	}
	planted := filepath.Join(dir, HiveBucketFileName(99, "planted", 0))
	if err := w.write(planted, bad, []int32{0, 1, 2}); err != nil {
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
	if m := v.First[0]; m.File != planted || m.Row != 2 || m.Bucket != 1 || m.FileBucket != 0 || m.Key != "1" {
		t.Fatalf("misplaced row = %+v", m)
	}
}

func TestHiveBucketIDsMatchScalarHash(t *testing.T) {
	t.Parallel()
	g := hiveTypes(t, 400, 11)
	data, _ := Generate(g)
	var h Hasher
	ids := make([]int32, data.Len)
	for c := range data.Cols {
		h.HiveBuckets(ids, data.Cols[c:c+1], data.Len, 7)
		for r := range data.Len {
			val := scalarValue(t, data.Cols[c], r)
			if want := hash.HiveBucket(hash.Hive([]hash.Value{val}), 7); int(ids[r]) != want {
				t.Fatalf("column %s row %d (%s): Hive bucket %d, scalar %d", g.Columns[c].Name, r, val, ids[r], want)
			}
		}
	}
	// Several columns chain as 31*h + column, as the scalar hash does.
	cols := []*Vec{data.Cols[0], data.Cols[5], data.Cols[9]}
	h.HiveBuckets(ids, cols, data.Len, 13)
	for r := range data.Len {
		vals := []hash.Value{scalarValue(t, cols[0], r), scalarValue(t, cols[1], r), scalarValue(t, cols[2], r)}
		if want := hash.HiveBucket(hash.Hive(vals), 13); int(ids[r]) != want {
			t.Fatalf("row %d %v: Hive bucket %d, scalar %d", r, vals, ids[r], want)
		}
	}
}

// TestHiveHasherAllocatesNothing checks the per-batch kernels reuse the Hasher's buffers.
func TestHiveHasherAllocatesNothing(t *testing.T) {
	g := hiveTypes(t, BatchSize, 4)
	data, _ := Generate(g)
	var h Hasher
	ids := make([]int32, data.Len)
	h.HiveBuckets(ids, data.Cols, data.Len, 16)
	if n := testing.AllocsPerRun(5, func() { h.HiveBuckets(ids, data.Cols, data.Len, 16) }); n != 0 {
		t.Fatalf("%v allocations per batch", n)
	}
}

// TestHiveValidateOutOfRange renames a Hive bucket file to a bucket id past the bucket count.
func TestHiveValidateOutOfRange(t *testing.T) {
	t.Parallel()
	g := GenSpec{Rows: 200, Seed: 6, Columns: []GenColumn{{Name: "k", Type: mustType(t, "int"), Cardinality: 50}}}
	data, _ := Generate(g)
	dir := filepath.Join(t.TempDir(), "t")
	layout := Layout{Buckets: 4, BucketColumns: []string{"k"}, Bucketing: HiveBucketing}
	tab, err := Write(context.Background(), dir, g.Schema(), data, layout, WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// Hive's own name for the file of bucket 7: 000007_0.
	if err := os.Rename(tab.Files[0].Path, filepath.Join(dir, "000007_0")); err != nil {
		t.Fatal(err)
	}
	opened, err := Open(dir, g.Schema(), layout)
	if err != nil {
		t.Fatal(err)
	}
	v, err := Validate(opened, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(v.OutOfRange) != 1 || filepath.Base(v.OutOfRange[0]) != "000007_0" || v.OK() {
		t.Fatalf("out of range = %v, want 000007_0", v.OutOfRange)
	}
	if v.Misplaced != tab.Files[0].Rows {
		t.Fatalf("%d misplaced rows, want the renamed file's %d", v.Misplaced, tab.Files[0].Rows)
	}
	// An empty file past the bucket count: no misplaced row, still invalid.
	empty := &Validation{OutOfRange: v.OutOfRange, Bucketing: HiveBucketing}
	if err := empty.Err(); err == nil || !strings.Contains(err.Error(), "not below the bucket count") {
		t.Fatalf("Err() = %v", err)
	}
}

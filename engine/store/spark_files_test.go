//go:build engine

package store

import (
	"path/filepath"
	"testing"
)

// TestReadSparkWrittenParquet reads a file Spark 3.5.9 wrote with bucketBy (dictionary pages,
// NULLs, dates) as a Parquet fixture input.
func TestReadSparkWrittenParquet(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob("../testdata/spark/written-3.5.9/sw_a/*.parquet")
	if len(files) == 0 {
		t.Skip("no Spark-written fixture files")
	}
	schema, err := ParseSchema("k bigint, x int, s string, d double, dt date")
	if err != nil {
		t.Fatal(err)
	}
	var rows, nulls int
	for _, f := range files {
		b, err := ReadParquetFile(f, schema)
		if err != nil {
			t.Fatal(err)
		}
		rows += b.Len
		for i := range b.Len {
			if b.Cols[2].IsNull(i) {
				nulls++
			}
			if got := string(AppendText(nil, b.Cols[4], i)); got < "2020-01-01" || got > "2020-02-19" {
				t.Fatalf("%s row %d: date %s outside the generated range", f, i, got)
			}
		}
	}
	// Spark generated 1200 rows, s NULL when id % 13 == 0 (93 rows).
	if rows != 1200 || nulls != 93 {
		t.Fatalf("%d rows with %d NULL strings, want 1200 and 93", rows, nulls)
	}
}

//go:build engine

package store

import (
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"github.com/parquet-go/parquet-go/format"

	"github.com/bucketlint/bucketlint/engine/hash"
)

// TestWriterRoundTrip writes every type the engine writes, with NULLs (none, some, all),
// empty strings and more than one page per chunk, and reads the file back both with the
// chunk decoder and with parquet-go's page reader: both must give the rows written. It also
// checks the chunk statistics against the data.
func TestWriterRoundTrip(t *testing.T) {
	t.Parallel()
	types := []string{
		"boolean", "tinyint", "smallint", "int", "bigint", "float", "double", "string", "binary",
		"date", "timestamp", "timestamp_ntz", "decimal(9,2)", "decimal(18,2)", "decimal(38,10)",
	}
	var spec GenSpec
	spec.Rows, spec.Seed = 140_000, 3 // bigint pages hold 131,072 values: two pages
	for i, ty := range types {
		for j, nulls := range []float64{0, 0.3, 1} {
			spec.Columns = append(spec.Columns, GenColumn{
				Name: string(rune('a'+i)) + string(rune('0'+j)), Type: mustType(t, ty),
				Cardinality: 1000 * (j + 1), NullFraction: nulls,
			})
		}
	}
	data, err := Generate(spec)
	if err != nil {
		t.Fatal(err)
	}
	src := data.Cols[7*3+1] // string, some NULLs: every 11th value made empty
	strs := &Vec{Type: src.Type, Kind: KindBytes, Offsets: []int32{0}}
	for r := range data.Len {
		switch {
		case src.IsNull(r):
			strs.AppendNull()
		case r%11 == 0:
			strs.AppendString("")
		default:
			strs.AppendBytes(src.Bytes(r))
		}
	}
	data.Cols[7*3+1] = strs
	schema := spec.Schema()
	for _, opt := range []WriteOptions{{}, {FastCompression: true}, {Uncompressed: true}} {
		checkWritten(t, schema, data, opt)
	}
}

// checkWritten writes data with opt and reads it back both ways (see TestWriterRoundTrip).
func checkWritten(t *testing.T, schema Schema, data *Batch, opt WriteOptions) {
	t.Helper()
	tab, err := Write(context.Background(), filepath.Join(t.TempDir(), "t"), schema, data, Layout{}, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Files) != 1 {
		t.Fatalf("%d files", len(tab.Files))
	}
	path := tab.Files[0].Path
	direct, viaGo, errDirect, errGo := readBoth(path, schema)
	if errDirect != nil || errGo != nil {
		t.Fatalf("read: %v; via parquet-go: %v", errDirect, errGo)
	}
	want := data.Compact()
	if d := sameBatch(direct, want); d != "" {
		t.Errorf("%+v: chunk decoder: %s", opt, d)
	}
	if d := sameBatch(viaGo, want); d != "" {
		t.Errorf("%+v: parquet-go: %s", opt, d)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	pf, err := openParquet(f, path)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range pf.Metadata().RowGroups[0].Columns {
		name := c.MetaData.PathInSchema[0]
		checkStats(t, name, want.Cols[schema.Index(name)], want.Len, c.MetaData.Statistics)
	}
}

// checkStats checks a column chunk's NULL count, and its bounds for integer-like columns,
// against the rows of v.
func checkStats(t *testing.T, name string, v *Vec, n int, st format.Statistics) {
	t.Helper()
	var nulls int64
	lo, hi := int64(0), int64(0)
	seen := false
	for r := range n {
		if v.IsNull(r) {
			nulls++
			continue
		}
		if v.Kind == KindInt64 && v.Type.Kind != hash.KindBoolean {
			x := v.Ints[r]
			if !seen || x < lo {
				lo = x
			}
			if !seen || x > hi {
				hi = x
			}
			seen = true
		}
	}
	if st.NullCount != nulls {
		t.Errorf("column %s: null count %d, want %d", name, st.NullCount, nulls)
	}
	if !seen {
		return
	}
	var gotLo, gotHi int64
	switch len(st.MinValue) {
	case 4:
		gotLo, gotHi = int64(int32(binary.LittleEndian.Uint32(st.MinValue))), int64(int32(binary.LittleEndian.Uint32(st.MaxValue)))
	case 8:
		gotLo, gotHi = int64(binary.LittleEndian.Uint64(st.MinValue)), int64(binary.LittleEndian.Uint64(st.MaxValue))
	default:
		t.Errorf("column %s: bounds of %d bytes", name, len(st.MinValue))
		return
	}
	if gotLo != lo || gotHi != hi {
		t.Errorf("column %s: bounds [%d, %d], want [%d, %d]", name, gotLo, gotHi, lo, hi)
	}
}

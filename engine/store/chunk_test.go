//go:build engine

package store

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// schemaOf returns the engine schema of a Parquet file's top-level columns, from their
// physical and logical types.
func schemaOf(tb testing.TB, pf *parquet.File) Schema {
	tb.Helper()
	s, err := engineSchemaOf(pf)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

func engineSchemaOf(pf *parquet.File) (Schema, error) {
	var parts []string
	for _, f := range pf.Schema().Fields() {
		if !f.Leaf() || nestedAnnotation(f) != "" { // parquet-go's MAP, LIST and VARIANT types panic on Kind
			return nil, fmt.Errorf("no engine type for nested column %s", f.Name())
		}
		t := f.Type()
		lt := t.LogicalType()
		var name string
		var lv format.LogicalTypeValue
		if lt != nil {
			lv = lt.Value
		}
		switch x := lv.(type) {
		case *format.DecimalType:
			name = fmt.Sprintf("decimal(%d,%d)", x.Precision, x.Scale)
		case *format.DateType:
			name = "date"
		case *format.TimestampType:
			name = "timestamp"
		case *format.StringType:
			name = "string"
		default:
			name = map[parquet.Kind]string{
				parquet.Boolean: "boolean", parquet.Int32: "int", parquet.Int64: "bigint", parquet.Int96: "timestamp",
				parquet.Float: "float", parquet.Double: "double", parquet.ByteArray: "binary",
			}[t.Kind()]
		}
		if name == "" {
			return nil, fmt.Errorf("no engine type for column %s (%s)", f.Name(), t)
		}
		parts = append(parts, f.Name()+" "+name)
	}
	return ParseSchema(joinComma(parts))
}

func joinComma(parts []string) string {
	var b bytes.Buffer
	for i, p := range parts {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(p)
	}
	return b.String()
}

// readBoth reads every column of the file at path with the chunk decoder and with parquet-go's
// page reader.
func readBoth(path string, schema Schema) (direct, viaGo *Batch, errDirect, errGo error) {
	read := func(viaParquetGo bool) (*Batch, error) {
		t := &Table{Dir: path, Schema: schema, viaParquetGo: viaParquetGo}
		out := NewBatch(schema.Types(), 0)
		err := t.ReadFile(File{Path: path, Bucket: -1}, schema.AllColumns(), func(b *Batch) error {
			out.Append(b)
			return nil
		})
		return out, err
	}
	direct, errDirect = read(false)
	viaGo, errGo = read(true)
	return direct, viaGo, errDirect, errGo
}

// sameBatch reports how two batches differ, or "" when they hold the same rows, NULLs and
// values (a NULL row's slot holds the zero value in both).
func sameBatch(a, b *Batch) string {
	if a.Len != b.Len || len(a.Cols) != len(b.Cols) {
		return fmt.Sprintf("%d rows × %d columns, want %d × %d", a.Len, len(a.Cols), b.Len, len(b.Cols))
	}
	for c := range a.Cols {
		x, y := a.Cols[c], b.Cols[c]
		for i := range a.Len {
			if x.IsNull(i) != y.IsNull(i) {
				return fmt.Sprintf("column %d row %d: NULL %v, want %v", c, i, x.IsNull(i), y.IsNull(i))
			}
		}
		floatsSame := len(x.Floats) == len(y.Floats)
		for i := range x.Floats {
			floatsSame = floatsSame && math.Float64bits(x.Floats[i]) == math.Float64bits(y.Floats[i])
		}
		if !slices.Equal(x.Ints, y.Ints) || !floatsSame || !slices.Equal(x.Wide, y.Wide) ||
			!slices.Equal(x.Offsets, y.Offsets) || !bytes.Equal(x.Data, y.Data) {
			return fmt.Sprintf("column %d (%s): values differ", c, x.Type)
		}
	}
	return ""
}

// writeVariants writes the same rows as parquet-go writes them with each page version, codec,
// page size and encoding the chunk decoder reads (and some it leaves to parquet-go: RLE
// booleans, delta encodings), with NULLs in every optional column.
func writeVariants(tb testing.TB) []string {
	tb.Helper()
	type row struct {
		I64 *int64   `parquet:"i64,optional,dict"`
		I32 *int32   `parquet:"i32,optional"`
		F32 float32  `parquet:"f32"`
		F64 *float64 `parquet:"f64,optional,dict"`
		S   *string  `parquet:"s,optional,dict"`
		P   string   `parquet:"p,plain"`
		Q   *string  `parquet:"q,optional,plain"`
		D   int32    `parquet:"d,date,dict"`
		L   string   `parquet:"l"` // parquet-go's default: DELTA_LENGTH_BYTE_ARRAY
		B   bool     `parquet:"b"`
		X   int64    `parquet:"x,delta"`
		N   *int64   `parquet:"n,optional,dict"` // always NULL
	}
	rows := make([]row, 3000)
	for i := range rows {
		r := &rows[i]
		if i%7 != 0 {
			r.I64 = new(int64(i % 97 * 1_000_003))
		}
		if i%5 != 1 {
			r.I32 = new(int32(-i))
		}
		r.F32 = float32(i) / 3
		if i%11 != 0 {
			r.F64 = new(float64(i%13) * 1.5)
		}
		if i%3 != 0 {
			r.S = new(fmt.Sprintf("s%03d", i%41))
		}
		r.P = fmt.Sprint("plain-", i)
		r.L = r.P[:7]
		if i%4 == 0 {
			r.Q = new(fmt.Sprint(i))
		}
		r.D, r.B, r.X = int32(18000+i%60), i%2 == 0, int64(i*i)
	}
	dir := tb.TempDir()
	var paths []string
	for _, v := range []int{1, 2} {
		for _, codec := range []parquet.WriterOption{parquet.Compression(&parquet.Snappy), parquet.Compression(&parquet.Uncompressed)} {
			for _, page := range []int{512, 1 << 20} {
				path := filepath.Join(dir, fmt.Sprintf("v%d-%d-%d.parquet", v, len(paths), page))
				f, err := os.Create(path)
				if err != nil {
					tb.Fatal(err)
				}
				w := parquet.NewGenericWriter[row](f, parquet.DataPageVersion(v), codec, parquet.PageBufferSize(page))
				if _, err := w.Write(rows); err != nil {
					tb.Fatal(err)
				}
				if err := w.Close(); err != nil {
					tb.Fatal(err)
				}
				if err := f.Close(); err != nil {
					tb.Fatal(err)
				}
				paths = append(paths, path)
			}
		}
	}
	return paths
}

// TestChunkDecoderAgrees reads Spark-written files (3.5.9 and 4.3.0, bucketBy and Hive
// format) and parquet-go-written ones of every page version, codec, page size and encoding
// with the chunk decoder and with parquet-go's page reader: the same rows, NULLs and values.
func TestChunkDecoderAgrees(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob("../testdata/spark/*/*/*.parquet")
	files = append(files, writeVariants(t)...)
	covered := 0
	for _, path := range files {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		pf, err := openParquet(f, path)
		if err != nil {
			t.Fatal(err)
		}
		schema := schemaOf(t, pf)
		for _, rg := range pf.Metadata().RowGroups {
			for _, c := range rg.Columns {
				if c.MetaData.Type != format.Boolean && c.MetaData.Type != format.Int96 && c.MetaData.Type != format.FixedLenByteArray {
					covered++
				}
			}
		}
		_ = f.Close()
		direct, viaGo, errDirect, errGo := readBoth(path, schema)
		if errDirect != nil || errGo != nil {
			t.Fatalf("%s: chunk decoder: %v; parquet-go: %v", path, errDirect, errGo)
		}
		if d := sameBatch(direct, viaGo); d != "" {
			t.Errorf("%s (%s): %s", path, schema, d)
		}
	}
	if covered == 0 {
		t.Fatal("no column chunk of a type the chunk decoder reads")
	}
}

// TestChunkDecoderCovers checks that the chunk decoder, not parquet-go, reads the columns of
// Spark's bucketBy files (dictionary pages, nullable columns) and of parquet-go's v1 and v2
// pages: falling back would pass TestChunkDecoderAgrees but lose the speed.
func TestChunkDecoderCovers(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob("../testdata/spark/written-*/sw_a/*.parquet")
	files = append(files, writeVariants(t)...)
	for _, path := range files {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		pf, err := openParquet(f, path)
		if err != nil {
			t.Fatal(err)
		}
		st, _ := f.Stat()
		schema := schemaOf(t, pf)
		tab := &Table{Schema: schema}
		leaves, err := tab.leaves(pf, schema.AllColumns())
		if err != nil {
			t.Fatal(err)
		}
		d := new(chunkDecoder)
		for g, rg := range pf.Metadata().RowGroups {
			for i, leaf := range leaves {
				md := &rg.Columns[leaf.ColumnIndex].MetaData
				v := NewVec(schema[i].Type, 0)
				if !covers(leaf, md, v) {
					if md.Type != format.Boolean && md.Type != format.Int96 && md.Type != format.FixedLenByteArray {
						t.Errorf("%s column %s not covered", path, schema[i].Name)
					}
					continue
				}
				err := d.readChunkDirect(f, st.Size(), md, leaf, v, rg.NumRows)
				delta := slices.ContainsFunc(md.Encoding, func(e format.Encoding) bool {
					return e == format.DeltaBinaryPacked || e == format.DeltaLengthByteArray || e == format.DeltaByteArray
				})
				switch {
				case delta && err == nil:
					t.Errorf("%s column %s: delta-encoded pages read by the chunk decoder", path, schema[i].Name)
				case !delta && err != nil:
					t.Errorf("%s row group %d column %s: %v", path, g, schema[i].Name, err)
				}
				if err == nil {
					dict := slices.Contains(md.Encoding, format.PlainDictionary) || //nolint:staticcheck // parquet-mr's v1 writer, Spark's default, names dictionary pages PLAIN_DICTIONARY
						slices.Contains(md.Encoding, format.RLEDictionary)
					checkCodes(t, path, v, dict)
				}
			}
		}
		_ = f.Close()
	}
}

// checkCodes checks a vector's dictionary codes (required when dict says every page of its
// chunk was dictionary-encoded and the chunk has no PLAIN data page): one per row, NULL rows
// coded DictLen, rows of equal codes holding equal values.
func checkCodes(t *testing.T, path string, v *Vec, dict bool) {
	t.Helper()
	if !v.HasCodes() {
		if dict && strings.Contains(path, "written-") {
			t.Errorf("%s: a %s column of Spark's bucketBy without codes", path, v.Type)
		}
		return
	}
	first := map[int32]int{}
	for i, c := range v.Codes {
		if (c == int32(v.DictLen)) != v.IsNull(i) || c < 0 || c > int32(v.DictLen) {
			t.Fatalf("%s: row %d code %d of %d, NULL %v", path, i, c, v.DictLen, v.IsNull(i))
		}
		if j, ok := first[c]; !ok {
			first[c] = i
		} else if Compare(v, i, v, j) != 0 {
			t.Fatalf("%s: rows %d and %d share code %d, values differ", path, i, j, c)
		}
	}
}

// FuzzChunkDecoderAgrees: on any bytes, the chunk decoder never panics where parquet-go's
// reader does not (a panic becomes a "corrupt parquet file" error naming it), and when both
// read a file they read the same rows.
func FuzzChunkDecoderAgrees(f *testing.F) {
	schemas := fuzzSchemas(f)
	seeds := fuzzParquetSeeds(f)
	for _, path := range writeVariants(f)[:2] {
		b, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		seeds = append(seeds, b)
	}
	for _, s := range seeds {
		f.Add(uint8(0), s)
	}
	dir := fuzzDir(f)
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		path := writeFuzzFile(t, dir, fuzzFileName, data)
		var schema Schema
		if int(which) < len(schemas) {
			schema = schemas[which]
		} else {
			osf, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer osf.Close()
			pf, err := openParquet(osf, path)
			if err != nil {
				return
			}
			if schema, err = engineSchemaOf(pf); err != nil {
				return
			}
		}
		direct, viaGo, errDirect, errGo := readBoth(path, schema)
		const panicked = "corrupt parquet file:"
		if errDirect != nil && strings.Contains(errDirect.Error(), panicked) && (errGo == nil || !strings.Contains(errGo.Error(), panicked)) {
			t.Fatalf("chunk decoder: %v; parquet-go: %v", errDirect, errGo)
		}
		if errDirect == nil && errGo == nil {
			if d := sameBatch(direct, viaGo); d != "" {
				t.Fatalf("%s: %s", schema, d)
			}
		}
	})
}

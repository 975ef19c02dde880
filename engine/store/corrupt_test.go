//go:build engine

package store

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// sparkFile returns the bytes of a Parquet file Spark wrote (uncompressed dictionary and data
// pages, Snappy-compressed) and its schema.
func sparkFile(t *testing.T) ([]byte, Schema) {
	t.Helper()
	files, _ := filepath.Glob("../testdata/spark/written-3.5.9/sw_a/*.parquet")
	if len(files) == 0 {
		t.Skip("no Spark-written fixture files")
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	s, err := ParseSchema("k bigint, x int, s string, d double, dt date")
	if err != nil {
		t.Fatal(err)
	}
	return b, s
}

// firstPage returns the offset and length of the first page header of column chunk 0, and
// the header.
func firstPage(t *testing.T, file []byte) (int64, int, *format.PageHeader) {
	t.Helper()
	pf, err := parquet.OpenFile(bytes.NewReader(file), int64(len(file)))
	if err != nil {
		t.Fatal(err)
	}
	md := pf.Metadata().RowGroups[0].Columns[0].MetaData
	off := md.DataPageOffset
	if md.DictionaryPageOffset != 0 {
		off = md.DictionaryPageOffset
	}
	n, err := skipStruct(file[off:], 0)
	if err != nil {
		t.Fatal(err)
	}
	h := new(format.PageHeader)
	if err := thrift.Unmarshal(new(thrift.CompactProtocol), file[off:off+int64(n)], h); err != nil {
		t.Fatal(err)
	}
	return off, n, h
}

// splice returns file with n bytes at off replaced by b.
func splice(file []byte, off int64, n int, b []byte) []byte {
	out := append([]byte{}, file[:off]...)
	out = append(out, b...)
	return append(out, file[off+int64(n):]...)
}

// withPageHeader returns file with its first page header changed by edit.
func withPageHeader(t *testing.T, file []byte, edit func(*format.PageHeader)) []byte {
	t.Helper()
	off, n, h := firstPage(t, file)
	edit(h)
	b, err := thrift.Marshal(new(thrift.CompactProtocol), h)
	if err != nil {
		t.Fatal(err)
	}
	return splice(file, off, n, b)
}

// withFooter returns a file of magic numbers around footer.
func withFooter(footer []byte) []byte {
	out := append([]byte("PAR1"), footer...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(footer)))
	return append(out, "PAR1"...)
}

// TestCorruptParquetIsAnError: files cut short, with absurd sizes in the footer or a page
// header, or read with the wrong types or names give errors naming the file, without
// allocating what the corrupt sizes claim.
func TestCorruptParquetIsAnError(t *testing.T) {
	good, schema := sparkFile(t)
	n := len(good)
	hugeFooter := bytes.Clone(good)
	binary.LittleEndian.PutUint32(hugeFooter[n-8:], 0xfffffff0)
	off, hn, _ := firstPage(t, good)
	snappyBomb := splice(good, off+int64(hn), 1, []byte{0xff, 0xff, 0xff, 0xff, 0x0f})
	for _, c := range []struct {
		name   string
		file   []byte
		schema string
		want   string
	}{
		{"empty", nil, "", "too short"},
		{"truncated", good[:n/2], "", "not \"PAR1\""},
		{"truncated footer", append(bytes.Clone(good[:n-40]), good[n-8:]...), "", "footer"},
		{"footer longer than the file", hugeFooter, "", "does not fit in the file"},
		{"magic numbers only", []byte("PAR1PAR1"), "", "too short"},
		{"footer length from the magic number", []byte("PAR1xxxxPAR1"), "", "does not fit in the file"},
		// FileMetaData with field 2 (schema) a list of 2^31-1 structs, in 8 bytes.
		{"footer list of 2^31 elements", withFooter([]byte{0x15, 0x02, 0x19, 0xfc, 0xff, 0xff, 0xff, 0xff, 0x07, 0x00}), "", "corrupt footer"},
		{"page of 2 GiB", withPageHeader(t, good, func(h *format.PageHeader) { h.CompressedPageSize = 0x7fff0000 }), "", "bytes claimed"},
		{"page decompressing to 2 GiB", withPageHeader(t, good, func(h *format.PageHeader) { h.UncompressedPageSize = 0x7fff0000 }), "", "uncompressed size"},
		{"page of 2^31 values", withPageHeader(t, good, func(h *format.PageHeader) {
			if h.DictionaryPageHeader.Valid {
				h.DictionaryPageHeader.V.NumValues = 0x7fffffff
			}
			if h.DataPageHeader.Valid {
				h.DataPageHeader.V.NumValues = 0x7fffffff
			}
		}), "", "values out of range"},
		{"snappy block declaring 4 GiB", snappyBomb, "", "snappy block declares"},
		{"wrong physical type", good, "k string, x int", "cannot read parquet INT64 values as string"},
		{"wrong column name", good, "id bigint", "no column id in the file (its columns: k, x, s, d, dt)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "part-00000-x_00000.c000.snappy.parquet")
			if err := os.WriteFile(path, c.file, 0o644); err != nil {
				t.Fatal(err)
			}
			sc := schema
			if c.schema != "" {
				var err error
				if sc, err = ParseSchema(c.schema); err != nil {
					t.Fatal(err)
				}
			}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := ReadParquetFile(path, sc)
			runtime.ReadMemStats(&after)
			if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got error %v, want one naming the file and saying %q", err, c.want)
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
				t.Fatalf("allocated %d MiB for a %d-byte file", alloc>>20, len(c.file))
			}
		})
	}
}

//go:build engine

package store

import (
	"bytes"
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fuzzTypes are the SQL types the fuzz targets read: every type the store holds.
const fuzzTypes = "k bigint, ca int, cb smallint, cc tinyint, cd boolean, ce string, cf binary, " +
	"cg double, ch float, ci date, cj timestamp, ck timestamp_ntz, cl decimal(9,2), cm decimal(18,4), " +
	"cn decimal(19,0), co decimal(28,6), cp decimal(38,10)"

// fuzzSchemas are the schemas a fuzzed Parquet file is read with: the one it was written
// with, Spark's, and ones whose names or physical types do not match the file.
func fuzzSchemas(tb testing.TB) []Schema {
	tb.Helper()
	var out []Schema
	for _, s := range []string{
		fuzzTypes,
		"k bigint, x int, s string, d double, dt date",
		"k int, b bigint, s string, dt date, ts timestamp, dec decimal(10,3), d double, v double",
		"k string, ca double, ce bigint, cf decimal(38,10), cg date, cj boolean, cp int",
		"k decimal(38,10), s binary, dt timestamp, dec decimal(4,1), x float",
		"zz bigint, yy string",
	} {
		sc, err := ParseSchema(s)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, sc)
	}
	return out
}

// fuzzParquetSeeds returns files the store writes, Spark-written files, and mutations of
// one of them: truncated, a footer length beyond the file, a corrupted footer and page.
func fuzzParquetSeeds(f *testing.F) [][]byte {
	f.Helper()
	schema := fuzzSchemas(f)[0]
	g := GenSpec{Rows: 40, Seed: 3}
	for _, c := range schema {
		g.Columns = append(g.Columns, GenColumn{Name: c.Name, Type: c.Type, Cardinality: 10, NullFraction: 0.2})
	}
	data, err := Generate(g)
	if err != nil {
		f.Fatal(err)
	}
	tab, err := Write(context.Background(), filepath.Join(f.TempDir(), "t"), schema, data, Layout{Buckets: 2, BucketColumns: []string{"k"}}, WriteOptions{})
	if err != nil {
		f.Fatal(err)
	}
	var seeds [][]byte
	for _, file := range tab.Files {
		b, err := os.ReadFile(file.Path)
		if err != nil {
			f.Fatal(err)
		}
		seeds = append(seeds, b)
	}
	for _, dir := range []string{"written-3.5.9/sw_a", "hive-3.5.9/hv_int", "hive-3.5.9/hv_decimal", "hive-3.5.9/hv_timestamp"} {
		files, _ := filepath.Glob(filepath.Join("../testdata/spark", dir, "*.parquet"))
		if len(files) > 0 {
			b, err := os.ReadFile(files[0])
			if err != nil {
				f.Fatal(err)
			}
			seeds = append(seeds, b)
		}
	}
	good := seeds[0]
	n := len(good)
	footer := int(binary.LittleEndian.Uint32(good[n-8:]))
	seeds = append(seeds, nil, []byte("PAR1"), []byte("PAR1PAR1"), good[:n/2], good[:n-1], good[n/2:])
	absurd := bytes.Clone(good)
	binary.LittleEndian.PutUint32(absurd[n-8:], 0xfffffff0)
	seeds = append(seeds, absurd)
	for _, at := range []int{n - 8 - footer + 3, n - 8 - footer/2, 4, 12, 40} {
		m := bytes.Clone(good)
		m[at] ^= 0xff
		seeds = append(seeds, m)
	}
	return seeds
}

// fuzzFileName is the name of a fuzzed file: bucket 0 as Spark names it.
const fuzzFileName = "part-00000-6367799d-bb65-41fe-a087-6c48e7246eaa_00000.c000.snappy.parquet"

// fuzzDir returns a directory for the fuzzed files, reused by every input, in memory
// (/dev/shm) where there is one: writing each input to disk made writes most of a run's
// time, and the fuzzer then spent whole runs minimising the first inputs it kept.
func fuzzDir(f *testing.F) string {
	f.Helper()
	dir, err := os.MkdirTemp("/dev/shm", "bucketlint-fuzz-")
	if err != nil {
		return f.TempDir()
	}
	f.Cleanup(func() { _ = os.RemoveAll(dir) })
	return dir
}

// writeFuzzFile writes data as the one file of table directory dir and returns its path.
func writeFuzzFile(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// checkBatch fails unless every column of b holds b.Len rows.
func checkBatch(t *testing.T, b *Batch) {
	t.Helper()
	for i, c := range b.Cols {
		if c.Len() != b.Len {
			t.Fatalf("column %d has %d rows, batch %d", i, c.Len(), b.Len)
		}
	}
	_ = rowTexts(b)
}

// FuzzReadParquetFile: any bytes read with any schema give rows or an error naming the file,
// never a panic.
func FuzzReadParquetFile(f *testing.F) {
	schemas := fuzzSchemas(f)
	for _, s := range fuzzParquetSeeds(f) {
		for i := range schemas {
			f.Add(uint8(i), s)
		}
	}
	dir := fuzzDir(f)
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		path := writeFuzzFile(t, dir, fuzzFileName, data)
		b, err := ReadParquetFile(path, schemas[int(which)%len(schemas)])
		if err != nil {
			if !strings.Contains(err.Error(), path) {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		checkBatch(t, b)
	})
}

// FuzzValidateTable: a table directory holding any bytes as its bucket file opens, reads and
// validates, or fails with an error naming the file, never a panic.
func FuzzValidateTable(f *testing.F) {
	schemas := fuzzSchemas(f)
	for _, s := range fuzzParquetSeeds(f) {
		for i := range schemas {
			f.Add(uint8(i), false, s)
		}
		f.Add(uint8(2), true, s)
	}
	root := fuzzDir(f)
	spark, hiveDir := filepath.Join(root, "spark"), filepath.Join(root, "hive")
	for _, d := range []string{spark, hiveDir} {
		if err := os.Mkdir(d, 0o755); err != nil {
			f.Fatal(err)
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, hive bool, data []byte) {
		schema := schemas[int(which)%len(schemas)]
		layout := Layout{Buckets: 4, BucketColumns: []string{schema[0].Name}}
		dir, name := spark, fuzzFileName
		if hive {
			layout.Bucketing = HiveBucketing
			dir, name = hiveDir, "00000_0_"+name
		}
		path := writeFuzzFile(t, dir, name, data)
		tab, err := Open(filepath.Dir(path), schema, layout)
		if err != nil {
			t.Fatal(err)
		}
		named := func(err error) {
			t.Helper()
			if err != nil && !strings.Contains(err.Error(), path) {
				t.Fatalf("error without the file name: %v", err)
			}
		}
		named(tab.ReadBucket(0, schema.AllColumns(), func(b *Batch) error { checkBatch(t, b); return nil }))
		v, err := Validate(tab, 3)
		named(err)
		if err == nil && v.Files != 1 {
			t.Fatalf("validated %d files, want 1", v.Files)
		}
	})
}

// FuzzReadCSV: any text gives rows of every type or an error, never a panic.
func FuzzReadCSV(f *testing.F) {
	schema := fuzzSchemas(f)[0]
	var header []string
	for _, c := range schema {
		header = append(header, c.Name)
	}
	head := strings.Join(header, ",") + "\n"
	for _, s := range []string{
		"1,2,3,4,true,s,b,1.5,2.5,2024-01-31,2024-01-31 12:00:00,2024-01-31 12:00:00.123456,1.25,12345678901234.5678,1234567890123456789,1234567890123456789012.123456,1234567890123456789012345678.0123456789\n",
		"\\N,,,,,\\N,,,,,,,,,,,\n",
		"-9223372036854775808,-2147483648,-32768,-128,false,\"a,\"\"b\",,NaN,-Inf,0001-01-01,1970-01-01 00:00:00,9999-12-31 23:59:59.999999,-9999999.99,-99999999999999.9999,-9999999999999999999,0.000001,-9999999999999999999999999999.9999999999\n",
		"x,2,3,4,true,s,b,1.5,2.5,2024-01-31,,,,,,,\n",
		"1,2,3,4,maybe,s,b,1.5,2.5,2024-02-30,,,1.234,,,,1e400\n",
		"1,2\n",
	} {
		f.Add([]byte(head + s))
	}
	f.Add([]byte(""))
	f.Add([]byte("k\n1\n"))
	f.Add([]byte("\"k\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := ReadCSV(bytes.NewReader(data), schema)
		if err == nil {
			checkBatch(t, b)
		}
	})
}

// FuzzReadJSONLines: any text gives rows of every type or an error, never a panic.
func FuzzReadJSONLines(f *testing.F) {
	schema := fuzzSchemas(f)[0]
	for _, s := range []string{
		`{"k":1,"ca":2,"cb":3,"cc":4,"cd":true,"ce":"s","cf":"b","cg":1.5,"ch":2.5,"ci":"2024-01-31","cj":"2024-01-31 12:00:00","ck":1700000000000000,"cl":1.25,"cm":"12345678901234.5678","cn":1234567890123456789,"co":"1.5","cp":1234567890123456789012345678.0123456789}`,
		`{"k":null,"ce":"","cf":"","cd":"false","cg":"NaN","cl":"","cp":null}`,
		`{"k":1e3,"ca":1.5,"cb":99999,"cc":-129,"cd":1,"cj":1.5,"cp":1e40,"ci":20240131}`,
		`{"k":[1],"ce":{"a":1}}`,
		`{"k":1}` + "\n" + `{"k":`,
		`[1,2]`, `"x"`, `null`, `{}{}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := ReadJSONLines(bytes.NewReader(data), schema)
		if err == nil {
			checkBatch(t, b)
		}
	})
}

//go:build engine

package store

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/bucketlint/bucketlint/engine/hash"
)

func benchData(b *testing.B, rows int) (Schema, *Batch) {
	b.Helper()
	g := GenSpec{Rows: rows, Seed: 1, Columns: []GenColumn{
		{Name: "k", Type: hash.Type{Kind: hash.KindBigInt}},
		{Name: "v", Type: hash.Type{Kind: hash.KindBigInt}, Cardinality: 1000},
		{Name: "s", Type: hash.Type{Kind: hash.KindString}, Cardinality: 50000, NullFraction: 0.05},
	}}
	data, err := Generate(g)
	if err != nil {
		b.Fatal(err)
	}
	return g.Schema(), data
}

func rawBytes(data *Batch) int64 {
	var n int64
	for _, c := range data.Cols {
		n += c.DataBytes(nil)
	}
	return n
}

// BenchmarkWriteBucketed writes 1M rows into 64 buckets (hash, group, encode, snappy, files).
func BenchmarkWriteBucketed(b *testing.B) {
	const rows = 1 << 20
	schema, data := benchData(b, rows)
	b.SetBytes(rawBytes(data))
	b.ResetTimer()
	for i := range b.N {
		dir := filepath.Join(b.TempDir(), fmt.Sprint(i))
		if _, err := Write(context.Background(), dir, schema, data, Layout{Buckets: 64, BucketColumns: []string{"k"}}, WriteOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkReadBucketed reads the 64 bucket files back through the page API.
func BenchmarkReadBucketed(b *testing.B) {
	const rows = 1 << 20
	schema, data := benchData(b, rows)
	dir := filepath.Join(b.TempDir(), "t")
	tab, err := Write(context.Background(), dir, schema, data, Layout{Buckets: 64, BucketColumns: []string{"k"}}, WriteOptions{})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(rawBytes(data))
	b.ResetTimer()
	for range b.N {
		got, err := tab.ReadAll(schema.AllColumns(), Pruning{})
		if err != nil || got.Len != rows {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkBucketIDs hashes a bigint and a string column into bucket ids.
func BenchmarkBucketIDs(b *testing.B) {
	const rows = 1 << 20
	_, data := benchData(b, rows)
	ids := make([]int32, rows)
	var h Hasher
	b.ResetTimer()
	for range b.N {
		h.Buckets(ids, []*Vec{data.Cols[0], data.Cols[2]}, rows, 64)
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkHiveBucketIDs hashes the same columns with HiveHash into Hive bucket ids, a
// batch of BatchSize rows at a time as Validate does.
func BenchmarkHiveBucketIDs(b *testing.B) {
	const rows = BatchSize
	_, data := benchData(b, rows)
	ids := make([]int32, rows)
	var h Hasher
	b.ResetTimer()
	for range b.N {
		h.HiveBuckets(ids, []*Vec{data.Cols[0], data.Cols[2]}, rows, 64)
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

package hash

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

const benchRows = 4096

func benchInt64s() []int64 {
	r := rand.New(rand.NewPCG(1, 2))
	v := make([]int64, benchRows)
	for i := range v {
		v[i] = r.Int64()
	}
	return v
}

// benchStrings returns benchRows strings of about avg bytes as offsets and data.
func benchStrings(avg int) ([]int32, []byte) {
	r := rand.New(rand.NewPCG(3, 4))
	offsets := make([]int32, 1, benchRows+1)
	var data []byte
	for range benchRows {
		n := avg/2 + r.IntN(avg+1)
		for range n {
			data = append(data, byte('A'+r.IntN(26)))
		}
		offsets = append(offsets, int32(len(data)))
	}
	return offsets, data
}

func reportRows(b *testing.B) {
	b.Helper()
	b.ReportMetric(float64(b.N)*benchRows/b.Elapsed().Seconds(), "rows/s")
}

func BenchmarkMurmur3Int64s(b *testing.B) {
	src, h := benchInt64s(), make([]int32, benchRows)
	b.SetBytes(8 * benchRows)
	for b.Loop() {
		FillSeed(h)
		Murmur3Int64s(h, src, nil)
	}
	reportRows(b)
}

func BenchmarkMurmur3Int64sNulls(b *testing.B) {
	src, h := benchInt64s(), make([]int32, benchRows)
	nulls := make([]uint64, NullWords(benchRows))
	for i := 0; i < benchRows; i += 10 {
		SetNull(nulls, i)
	}
	b.SetBytes(8 * benchRows)
	for b.Loop() {
		FillSeed(h)
		Murmur3Int64s(h, src, nulls)
	}
	reportRows(b)
}

func BenchmarkMurmur3Int32s(b *testing.B) {
	src, h := make([]int32, benchRows), make([]int32, benchRows)
	for i, v := range benchInt64s() {
		src[i] = int32(v)
	}
	b.SetBytes(4 * benchRows)
	for b.Loop() {
		FillSeed(h)
		Murmur3Int32s(h, src, nil)
	}
	reportRows(b)
}

func BenchmarkMurmur3Float64s(b *testing.B) {
	src, h := make([]float64, benchRows), make([]int32, benchRows)
	for i, v := range benchInt64s() {
		src[i] = float64(v) / 3
	}
	b.SetBytes(8 * benchRows)
	for b.Loop() {
		FillSeed(h)
		Murmur3Float64s(h, src, nil)
	}
	reportRows(b)
}

func BenchmarkMurmur3Strings(b *testing.B) {
	for _, avg := range []int{8, 21, 64} {
		b.Run(fmt.Sprintf("avg%d", avg), func(b *testing.B) {
			offsets, data := benchStrings(avg)
			h := make([]int32, benchRows)
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				FillSeed(h)
				Murmur3Strings(h, offsets, data, nil)
			}
			reportRows(b)
		})
	}
}

func BenchmarkMurmur3Decimals(b *testing.B) {
	data, h := make([]byte, 16*benchRows), make([]int32, benchRows)
	r := rand.New(rand.NewPCG(5, 6))
	for i := range data {
		data[i] = byte(r.Uint32())
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		FillSeed(h)
		Murmur3Decimals(h, data, 16, nil)
	}
	reportRows(b)
}

func BenchmarkBuckets(b *testing.B) {
	for _, n := range []int{16, 200} {
		b.Run(fmt.Sprintf("n%d", n), func(b *testing.B) {
			h, dst := make([]int32, benchRows), make([]int32, benchRows)
			for i, v := range benchInt64s() {
				h[i] = int32(v)
			}
			b.SetBytes(4 * benchRows)
			for b.Loop() {
				Buckets(dst, h, n)
			}
			reportRows(b)
		})
	}
}

// BenchmarkBucketIDInt64s is the whole bucket-id computation of a bigint column.
func BenchmarkBucketIDInt64s(b *testing.B) {
	src, h := benchInt64s(), make([]int32, benchRows)
	b.SetBytes(8 * benchRows)
	for b.Loop() {
		FillSeed(h)
		Murmur3Int64s(h, src, nil)
		Buckets(h, h, 200)
	}
	reportRows(b)
}

func BenchmarkHiveInt64s(b *testing.B) {
	src, h := benchInt64s(), make([]int32, benchRows)
	b.SetBytes(8 * benchRows)
	for b.Loop() {
		clear(h)
		HiveInt64s(h, src, nil)
	}
	reportRows(b)
}

func BenchmarkHiveStrings(b *testing.B) {
	offsets, data := benchStrings(21)
	h := make([]int32, benchRows)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		clear(h)
		HiveStrings(h, offsets, data, nil)
	}
	reportRows(b)
}

// BenchmarkMurmur3Row is the scalar path, for comparison with the kernels.
func BenchmarkMurmur3Row(b *testing.B) {
	row := []Value{BigInt(1234567), String("SAV-100042"), Date(19753)}
	for b.Loop() {
		_ = Murmur3(row)
	}
}

package store

import (
	"github.com/klauspost/compress/s2"
	"github.com/parquet-go/parquet-go/format"
)

// fastSnappy is Parquet's SNAPPY codec with the fast block encoder. parquet-go's own codec
// uses s2's "better" Snappy encoder, which spends about twice the CPU for a few percent
// smaller pages; the blocks are plain Snappy either way, so Spark and every other reader
// decode them as usual.
type fastSnappy struct{}

func (fastSnappy) String() string { return "SNAPPY" }

func (fastSnappy) CompressionCodec() format.CompressionCodec { return format.Snappy }

func (fastSnappy) Encode(dst, src []byte) ([]byte, error) {
	return s2.EncodeSnappy(dst[:cap(dst)], src), nil
}

func (fastSnappy) Decode(dst, src []byte) ([]byte, error) {
	return s2.Decode(dst[:cap(dst)], src)
}

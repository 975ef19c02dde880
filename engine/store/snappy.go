package store

import (
	"github.com/klauspost/compress/s2"
	"github.com/parquet-go/parquet-go/format"
)

// snappyCodec is Parquet's SNAPPY codec with s2's "better" Snappy block encoder, writing
// into the page buffer it is given instead of a fresh one. Pages the better encoder
// writes decode about 1.7 times as fast as those of the fast encoder (2.4 against 1.4
// GB/s on random bigints, one core), while encoding costs about 1.45 times as much (330
// against 480 MB/s): tables are read at least as often as they are written, and every
// reader (Spark, DuckDB, the engine) gains. The blocks are plain Snappy either way.
type snappyCodec struct{}

func (snappyCodec) String() string { return "SNAPPY" }

func (snappyCodec) CompressionCodec() format.CompressionCodec { return format.Snappy }

func (snappyCodec) Encode(dst, src []byte) ([]byte, error) {
	return s2.EncodeSnappyBetter(dst[:cap(dst)], src), nil
}

func (snappyCodec) Decode(dst, src []byte) ([]byte, error) {
	return s2.Decode(dst[:cap(dst)], src)
}

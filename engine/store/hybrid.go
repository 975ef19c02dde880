//go:build engine

package store

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/parquet-go/bitpack"
)

// unpackPadding is the slack bitpack.Unpack may read past the last byte of a bit-packed run
// (bitpack.PaddingInt32); page buffers keep at least this much capacity beyond their length.
const unpackPadding = bitpack.PaddingInt32

// decodeIndexes decodes exactly len(dst) values of an RLE/bit-packed hybrid stream of the given
// bit width (Parquet's dictionary indexes and levels) from b, whose capacity must extend at
// least unpackPadding bytes past its length. Runs beyond len(dst) are ignored; fewer values
// than len(dst) is an error. Values are not checked against a dictionary here: gather does
// that as it reads them. It returns the largest value of the RLE runs (-1 when none), which
// the caller checks when it does not gather (levels).
func decodeIndexes(dst []int32, b []byte, width int) (int32, error) {
	if width < 0 || width > 32 {
		return 0, fmt.Errorf("bit width %d above 32", width)
	}
	hi := int32(-1)
	byteWidth := (width + 7) / 8
	for n := 0; n < len(dst); {
		h, k, err := readVarint(b)
		if err != nil {
			return 0, fmt.Errorf("runs end after %d of %d values", n, len(dst))
		}
		b = b[k:]
		if h&1 == 0 { // a run of h>>1 copies of one little-endian value of byteWidth bytes
			count := int(min(h>>1, uint64(len(dst)-n)))
			if len(b) < byteWidth {
				return 0, errTruncated
			}
			var buf [4]byte
			copy(buf[:], b[:byteWidth])
			x := int32(binary.LittleEndian.Uint32(buf[:]))
			if x < 0 {
				return 0, fmt.Errorf("value %d negative", x)
			}
			if h>>1 == 0 {
				return 0, errors.New("empty run")
			}
			run := dst[n : n+count]
			for i := range run {
				run[i] = x
			}
			hi = max(hi, x)
			n += count
			b = b[byteWidth:]
			continue
		}
		groups := h >> 1
		if groups == 0 {
			return 0, errors.New("empty run")
		}
		if groups > uint64(len(b)) {
			return 0, errTruncated
		}
		size := int(groups) * width
		if size > len(b) {
			return 0, errTruncated
		}
		count := int(min(groups*8, uint64(len(dst)-n)))
		run := dst[n : n+count]
		if width == 0 {
			clear(run)
		} else {
			if cap(b) < size+unpackPadding {
				return 0, errors.New("bit-packed run without padding")
			}
			bitpack.Unpack(run, b[:size+unpackPadding], uint(width))
			if width == 1 {
				hi = max(hi, 1) // levels: 0 and 1 are both valid
			}
		}
		n += count
		b = b[size:]
	}
	return hi, nil
}

// levelsAllAt reports whether the hybrid stream b of the given bit width starts with a run of
// at least n copies of level: the definition levels of a page without NULLs, as parquet-mr and
// engine/store write them.
func levelsAllAt(b []byte, width, n int, level int32) bool {
	h, k, err := readVarint(b)
	if err != nil || h&1 != 0 || h>>1 < uint64(n) {
		return false
	}
	byteWidth := (width + 7) / 8
	if len(b)-k < byteWidth {
		return false
	}
	var buf [4]byte
	copy(buf[:], b[k:k+byteWidth])
	return int32(binary.LittleEndian.Uint32(buf[:])) == level
}

//go:build engine

package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"

	"github.com/klauspost/compress/s2"
	"github.com/parquet-go/parquet-go/format"
)

// checkRuns checks the run-length encoded parts of a data page before parquet-go decodes
// them: its decoders expand every run a page holds, whatever the page's value count says, so
// a run of 2^31 values costs a few bytes of file and gigabytes of memory. The levels and
// dictionary indexes (RLE/bit-packed hybrid) and the value count of delta encodings must not
// declare much more than the page's values. Pages of codecs other than Snappy are not
// decompressed here, so not checked. buf is reused between pages.
func checkRuns(r io.ReaderAt, h *format.PageHeader, at int64, c chunkRange, buf *[]byte) error {
	v1, v2 := h.DataPageHeader, h.DataPageHeaderV2
	if !c.leaf || !v1.Valid && !v2.Valid || h.CompressedPageSize == 0 {
		return nil
	}
	if c.codec != format.Uncompressed && c.codec != format.Snappy {
		return nil
	}
	if cap(*buf) < int(h.CompressedPageSize) {
		*buf = make([]byte, h.CompressedPageSize)
	}
	raw := (*buf)[:h.CompressedPageSize]
	if _, err := r.ReadAt(raw, at); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	limit := int64(0)
	if v1.Valid {
		limit = runLimit(v1.V.NumValues)
		data, err := decompressPage(c.codec, raw)
		if err != nil {
			return err
		}
		for _, l := range []struct {
			max int
			enc format.Encoding
		}{{c.maxRep, v1.V.RepetitionLevelEncoding}, {c.maxDef, v1.V.DefinitionLevelEncoding}} {
			if l.max == 0 {
				continue
			}
			if l.enc != format.RLE {
				return nil // the deprecated BIT_PACKED levels: sized by the value count
			}
			if len(data) < 4 || int(binary.LittleEndian.Uint32(data)) > len(data)-4 {
				return errors.New("levels run past the page")
			}
			n := int(binary.LittleEndian.Uint32(data))
			if err := checkHybrid(data[4:4+n], bits.Len(uint(l.max)), limit); err != nil {
				return fmt.Errorf("levels: %w", err)
			}
			data = data[4+n:]
		}
		return checkValueRuns(data, v1.V.Encoding, limit)
	}
	limit = runLimit(v2.V.NumValues)
	rep, def := int64(v2.V.RepetitionLevelsByteLength), int64(v2.V.DefinitionLevelsByteLength)
	if rep < 0 || def < 0 || rep+def > int64(len(raw)) {
		return errors.New("levels run past the page")
	}
	for _, l := range []struct {
		b   []byte
		max int
	}{{raw[:rep], c.maxRep}, {raw[rep : rep+def], c.maxDef}} {
		if err := checkHybrid(l.b, bits.Len(uint(l.max)), limit); err != nil {
			return fmt.Errorf("levels: %w", err)
		}
	}
	data := raw[rep+def:]
	if !v2.V.IsCompressed.Valid || v2.V.IsCompressed.V {
		var err error
		if data, err = decompressPage(c.codec, data); err != nil {
			return err
		}
	}
	return checkValueRuns(data, v2.V.Encoding, limit)
}

// runLimit is the most values the runs of a page of n values may declare: n, with room for
// the padding of bit-packed groups of 8 and writers that round up.
func runLimit(n int32) int64 { return 2*int64(n) + 64 }

// decompressPage returns the page data decoded by codec (Snappy or none).
func decompressPage(codec format.CompressionCodec, b []byte) ([]byte, error) {
	if codec != format.Snappy || len(b) == 0 {
		return b, nil
	}
	n, err := s2.DecodedLen(b)
	if err != nil {
		return nil, fmt.Errorf("snappy block: %w", err)
	}
	if n > maxPageBytes {
		return nil, fmt.Errorf("snappy block declares %d bytes, more than %d", n, maxPageBytes)
	}
	out, err := s2.Decode(nil, b)
	if err != nil {
		return nil, fmt.Errorf("snappy block: %w", err)
	}
	return out, nil
}

// checkValueRuns checks the value section of a page: dictionary indexes (a bit width byte,
// then RLE/bit-packed hybrid runs) and the header of delta encodings, whose value count
// parquet-go trusts.
func checkValueRuns(data []byte, enc format.Encoding, limit int64) error {
	switch enc {
	case format.RLEDictionary, format.PlainDictionary: //nolint:staticcheck // parquet-mr's v1 writer, Spark's default, still marks dictionary data pages PLAIN_DICTIONARY
		if len(data) == 0 {
			return nil
		}
		if data[0] > 32 {
			return fmt.Errorf("dictionary index bit width %d above 32", data[0])
		}
		if err := checkHybrid(data[1:], int(data[0]), limit); err != nil {
			return fmt.Errorf("dictionary indexes: %w", err)
		}
	case format.RLE: // booleans: a 4-byte length, then the runs
		if len(data) < 4 {
			return nil
		}
		n := min(int(binary.LittleEndian.Uint32(data)), len(data)-4)
		if err := checkHybrid(data[4:4+n], 1, limit); err != nil {
			return fmt.Errorf("boolean runs: %w", err)
		}
	case format.DeltaBinaryPacked, format.DeltaLengthByteArray, format.DeltaByteArray:
		// block size, miniblocks per block, total value count (ULEB128 varints)
		for i := range 3 {
			x, n, err := readVarint(data)
			if err != nil {
				return nil // a truncated header is the decoder's error to report
			}
			if i == 2 && x > uint64(limit) {
				return fmt.Errorf("delta encoding declares %d values, more than %d", x, limit)
			}
			data = data[n:]
		}
	}
	return nil
}

// checkHybrid walks the runs of an RLE/bit-packed hybrid stream of the given bit width and
// fails when they declare more than limit values. Its other errors are left to the decoder.
func checkHybrid(b []byte, width int, limit int64) error {
	var total int64
	for len(b) > 0 {
		h, n, err := readVarint(b)
		if err != nil {
			return nil
		}
		b = b[n:]
		var count int64
		var size uint64
		if h&1 == 1 { // bit-packed: h>>1 groups of 8 values
			count, size = int64(min(h>>1, 1<<32))*8, (h>>1)*uint64(width)
		} else { // a run of h>>1 copies of one value
			count, size = int64(min(h>>1, 1<<40)), uint64(width+7)/8
		}
		total += count
		if total > limit {
			return fmt.Errorf("runs declare more than %d values", limit)
		}
		if size > uint64(len(b)) {
			return nil
		}
		b = b[size:]
	}
	return nil
}

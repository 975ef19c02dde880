//go:build engine

package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/klauspost/compress/s2"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"

	"github.com/bucketlint/bucketlint/engine/hash"
)

// A chunkDecoder reads the pages of flat column chunks straight into vectors: one read of the
// chunk's bytes, Snappy pages decoded into a buffer it keeps, dictionary indexes unpacked in
// bulk and gathered from the decoded dictionary, definition levels skipped when one run says
// no row is NULL. It covers what Spark, DuckDB and engine/store write for the engine's types
// (PLAIN and dictionary-encoded INT32, INT64, FLOAT, DOUBLE and BYTE_ARRAY pages, v1 or v2,
// uncompressed or Snappy); anything else is left to parquet-go (readChunk). Every size, run
// and index is checked against the page and the chunk as it is decoded, so that no corrupt or
// hostile file makes it allocate more than its pages hold or read outside them; that is why it
// needs no checkPages pass first. Its buffers are reused from chunk to chunk.
type chunkDecoder struct {
	raw   []byte // the column chunk
	page  []byte // a decompressed page
	idx   []int32
	defs  []int32
	dict  dictionary
	nullm []bool
	pages []pageRef
	// coding says the vector being read keeps its dictionary indexes as codes.
	coding bool
	// scratch for PLAIN pages with NULLs: the values before they are spread over the rows
	ints   []int64
	floats []float64
	offs   []int32
}

// A dictionary is a column chunk's decoded dictionary page, in the vector kind it feeds.
type dictionary struct {
	n      int
	ints   []int64
	floats []float64
	data   []byte
	offs   []int32
}

// errNotCovered says the decoder does not handle a chunk; the caller reads it with parquet-go.
var errNotCovered = errors.New("not covered by the chunk decoder")

// covers reports whether the decoder reads leaf into vectors of kind v: flat, at most one
// definition level, a codec it decodes, a physical type it reads into that kind, and no unit
// conversion.
func covers(leaf parquet.LeafColumn, md *format.ColumnMetaData, v *Vec) bool {
	if leaf.MaxRepetitionLevel != 0 || leaf.MaxDefinitionLevel > 1 {
		return false
	}
	if md.Codec != format.Uncompressed && md.Codec != format.Snappy {
		return false
	}
	if timeScale(leaf.Node) != 1 {
		return false
	}
	switch leaf.Node.Type().Kind() {
	case parquet.Int32, parquet.Int64:
		return v.Kind == KindInt64
	case parquet.Float, parquet.Double:
		return v.Kind == KindFloat64
	case parquet.ByteArray:
		return v.Kind == KindBytes && v.Type.Kind != hash.KindDecimal
	}
	return false
}

// readChunkDirect reads the column chunk md of a file of the given size into v, appending rows
// values. It returns errNotCovered, with v as it was, when a page needs what it does not
// decode.
func (d *chunkDecoder) readChunkDirect(r io.ReaderAt, size int64, md *format.ColumnMetaData, leaf parquet.LeafColumn, v *Vec, rows int64) error {
	start := md.DataPageOffset
	if md.DictionaryPageOffset != 0 {
		start = md.DictionaryPageOffset
	}
	if start < 4 || md.TotalCompressedSize < 0 || md.TotalCompressedSize > size-8-start {
		return fmt.Errorf("column chunk of %d bytes at offset %d lies outside the file of %d bytes", md.TotalCompressedSize, start, size)
	}
	if rows < 0 {
		return fmt.Errorf("row group of %d rows", rows)
	}
	n := int(md.TotalCompressedSize)
	d.raw = slices.Grow(d.raw[:0], n+unpackPadding)[:n]
	if _, err := r.ReadAt(d.raw, start); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	pages, err := d.pageHeaders(start, rows, md.Codec)
	if err != nil {
		return err
	}
	d.dict.n = -1
	base, noNulls := v.Len(), v.Nulls == nil
	v.grow(int(rows))
	// A vector read whole from a chunk whose every data page is dictionary-encoded keeps the
	// indexes as its codes (see Vec.Codes).
	d.coding = base == 0 && len(pages) > 1 && pages[0].h.dict
	codes := v.Codes[:0] // a recycled vector's
	v.Codes, v.DictLen = nil, 0
	if d.coding {
		v.Codes = slices.Grow(codes, int(rows))
	}
	kind := leaf.Node.Type().Kind()
	for _, p := range pages {
		body := d.raw[p.body : p.body+int(p.h.compressed)]
		var err error
		if p.h.dict {
			err = d.readDictionary(p.h, body, md.Codec, kind)
		} else {
			err = d.readDataPage(p.h, body, md.Codec, kind, leaf.MaxDefinitionLevel, v)
		}
		if err != nil {
			v.Codes, v.DictLen = nil, 0
			v.truncate(base)
			if noNulls {
				v.Nulls = nil
			}
			if errors.Is(err, errNotCovered) {
				return err
			}
			return fmt.Errorf("page at offset %d: %w", start+int64(p.body), err)
		}
	}
	if d.coding {
		v.DictLen = d.dict.n
	} else {
		v.Codes = nil
	}
	return nil
}

// A pageRef is a page of the chunk in d.raw: its header and where its body starts.
type pageRef struct {
	h    pageHeader
	body int
}

// pageHeaders reads and checks the page headers of the chunk in d.raw (at file offset start):
// every page lies in the chunk within the limits, and the data pages hold rows values.
// Index pages are left out.
func (d *chunkDecoder) pageHeaders(start, rows int64, codec format.CompressionCodec) ([]pageRef, error) {
	d.pages = d.pages[:0]
	var values int64
	for pos := 0; pos < len(d.raw); {
		at := start + int64(pos)
		h, hn, err := decodePageHeader(d.raw[pos:])
		if err != nil {
			return nil, fmt.Errorf("page header at offset %d: %w", at, err)
		}
		pos += hn
		if err := checkHeader(h, at, int64(len(d.raw)-pos)); err != nil {
			return nil, err
		}
		if codec == format.Snappy {
			if err := checkSnappyHead(h, d.raw[pos:pos+int(h.compressed)]); err != nil {
				return nil, fmt.Errorf("page at offset %d: %w", at, err)
			}
		}
		if h.dict || h.data || h.v2 {
			d.pages = append(d.pages, pageRef{h: h, body: pos})
		}
		if h.data || h.v2 {
			values += int64(h.numValues)
		}
		pos += int(h.compressed)
	}
	if values != rows {
		return nil, fmt.Errorf("column chunk has %d values for %d rows", values, rows)
	}
	return d.pages, nil
}

// checkSnappyHead checks the decoded length the Snappy block of a page declares (after the
// levels of a v2 page), as checkSnappyLength does for parquet-go's reads.
func checkSnappyHead(h pageHeader, body []byte) error {
	if h.v2 {
		if h.defBytes < 0 || h.repBytes < 0 || int64(h.defBytes)+int64(h.repBytes) > int64(len(body)) {
			return fmt.Errorf("levels of %d bytes in a page of %d", int64(h.defBytes)+int64(h.repBytes), len(body))
		}
		if !h.compressedV2 {
			return nil
		}
		body = body[h.defBytes+h.repBytes:]
	}
	if len(body) == 0 {
		return nil
	}
	l, _, err := readVarint(body)
	if err != nil {
		return fmt.Errorf("snappy block: %w", err)
	}
	if l > maxPageBytes {
		return fmt.Errorf("snappy block declares %d bytes, more than %d", l, maxPageBytes)
	}
	return nil
}

// checkHeader checks a page header's sizes and value count against the bytes left in the
// chunk and the limits, with checkPages's words.
func checkHeader(h pageHeader, at, left int64) error {
	switch {
	case h.compressed < 0 || int64(h.compressed) > left:
		return fmt.Errorf("page at offset %d: %d bytes claimed, %d left in the column chunk", at, h.compressed, left)
	case h.uncompressed < 0 || h.uncompressed > maxPageBytes:
		return fmt.Errorf("page at offset %d: uncompressed size %d out of range 0..%d", at, h.uncompressed, maxPageBytes)
	case h.numValues < 0 || h.numValues > maxPageValues:
		return fmt.Errorf("page at offset %d: %d values out of range 0..%d", at, h.numValues, maxPageValues)
	}
	return nil
}

// decompress returns b decoded by codec into the decoder's page buffer (b itself when
// uncompressed), with unpackPadding bytes of capacity beyond its length.
func (d *chunkDecoder) decompress(codec format.CompressionCodec, b []byte) ([]byte, error) {
	if codec == format.Uncompressed || len(b) == 0 {
		if cap(b)-len(b) >= unpackPadding {
			return b, nil
		}
		d.page = append(slices.Grow(d.page[:0], len(b)+unpackPadding), b...)
		return d.page, nil
	}
	n, err := s2.DecodedLen(b)
	if err != nil {
		return nil, fmt.Errorf("snappy block: %w", err)
	}
	if n > maxPageBytes {
		return nil, fmt.Errorf("snappy block declares %d bytes, more than %d", n, maxPageBytes)
	}
	d.page = slices.Grow(d.page[:0], n+unpackPadding)[:n]
	out, err := s2.Decode(d.page, b)
	if err != nil {
		return nil, fmt.Errorf("snappy block: %w", err)
	}
	return out, nil
}

// readDictionary decodes a PLAIN dictionary page.
func (d *chunkDecoder) readDictionary(h pageHeader, body []byte, codec format.CompressionCodec, kind parquet.Kind) error {
	if h.encoding != format.Plain && h.encoding != format.PlainDictionary { //nolint:staticcheck // parquet-mr's v1 writer marks dictionary pages PLAIN_DICTIONARY
		return errNotCovered
	}
	if d.dict.n >= 0 {
		return errors.New("a second dictionary page in the column chunk")
	}
	data, err := d.decompress(codec, body)
	if err != nil {
		return err
	}
	nv := int(h.numValues)
	dc := &d.dict
	dc.n = nv
	switch kind {
	case parquet.Int64, parquet.Double:
		if len(data) < 8*nv {
			return fmt.Errorf("dictionary of %d values in %d bytes", nv, len(data))
		}
		if kind == parquet.Int64 {
			dc.ints = plainInt64s(dc.ints[:0], data, nv)
		} else {
			dc.floats = plainFloat64s(dc.floats[:0], data, nv)
		}
	case parquet.Int32, parquet.Float:
		if len(data) < 4*nv {
			return fmt.Errorf("dictionary of %d values in %d bytes", nv, len(data))
		}
		if kind == parquet.Int32 {
			dc.ints = plainInt32s(dc.ints[:0], data, nv)
		} else {
			dc.floats = plainFloat32s(dc.floats[:0], data, nv)
		}
	case parquet.ByteArray:
		dc.data = dc.data[:0]
		dc.offs = append(dc.offs[:0], 0)
		var err error
		if dc.data, dc.offs, err = plainByteArrays(dc.data, dc.offs, data, nv); err != nil {
			return fmt.Errorf("dictionary: %w", err)
		}
	}
	return nil
}

// readDataPage appends the rows of one data page (v1 or v2) to v.
func (d *chunkDecoder) readDataPage(h pageHeader, body []byte, codec format.CompressionCodec, kind parquet.Kind, maxDef int, v *Vec) error {
	rows := int(h.numValues)
	var levels, data []byte
	if h.v2 {
		if h.repBytes != 0 || h.defBytes < 0 || int(h.defBytes) > len(body) {
			return fmt.Errorf("levels of %d bytes in a page of %d", h.defBytes, len(body))
		}
		// The levels are never compressed and have no length prefix; body lies in d.raw,
		// whose capacity leaves the padding decodeIndexes needs.
		levels, data = body[:h.defBytes], body[h.defBytes:]
		codec := codec
		if !h.compressedV2 {
			codec = format.Uncompressed
		}
		var err error
		if data, err = d.decompress(codec, data); err != nil {
			return err
		}
	} else {
		if h.repEncoding != format.RLE && h.repEncoding != format.BitPacked {
			return errNotCovered
		}
		var err error
		if body, err = d.decompress(codec, body); err != nil {
			return err
		}
		data = body
		if maxDef > 0 {
			if h.defEncoding != format.RLE {
				return errNotCovered
			}
			if len(data) < 4 || int(binary.LittleEndian.Uint32(data)) > len(data)-4 {
				return errors.New("levels run past the page")
			}
			l := int(binary.LittleEndian.Uint32(data))
			levels, data = data[4:4+l:cap(data)], data[4+l:]
		}
	}
	present, err := d.presence(levels, maxDef, rows)
	if err != nil {
		return err
	}
	return d.appendValues(h.encoding, data, kind, rows, present, v)
}

// presence decodes the definition levels of a page of rows rows: nil when no row is NULL,
// else one flag per row, true when the row has a value.
func (d *chunkDecoder) presence(levels []byte, maxDef, rows int) ([]bool, error) {
	if maxDef == 0 || levelsAllAt(levels, 1, rows, 1) {
		return nil, nil
	}
	d.defs = slices.Grow(d.defs[:0], rows)[:rows]
	hi, err := decodeIndexes(d.defs, levels, 1)
	if err != nil {
		return nil, fmt.Errorf("definition levels: %w", err)
	}
	if hi > 1 {
		return nil, fmt.Errorf("definition level %d above the column's maximum 1", hi)
	}
	d.nullm = slices.Grow(d.nullm[:0], rows)[:rows]
	all := true
	for i, l := range d.defs {
		d.nullm[i] = l == 1
		all = all && l == 1
	}
	if all {
		return nil, nil
	}
	return d.nullm, nil
}

// plainInt64s appends n little-endian INT64 values from b.
func plainInt64s(dst []int64, b []byte, n int) []int64 {
	dst = slices.Grow(dst, n)
	for i := range n {
		dst = append(dst, int64(binary.LittleEndian.Uint64(b[8*i:])))
	}
	return dst
}

func plainInt32s(dst []int64, b []byte, n int) []int64 {
	dst = slices.Grow(dst, n)
	for i := range n {
		dst = append(dst, int64(int32(binary.LittleEndian.Uint32(b[4*i:]))))
	}
	return dst
}

func plainFloat64s(dst []float64, b []byte, n int) []float64 {
	dst = slices.Grow(dst, n)
	for i := range n {
		dst = append(dst, math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:])))
	}
	return dst
}

func plainFloat32s(dst []float64, b []byte, n int) []float64 {
	dst = slices.Grow(dst, n)
	for i := range n {
		dst = append(dst, float64(math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))))
	}
	return dst
}

// plainByteArrays appends n length-prefixed PLAIN byte arrays from b to data, with their end
// offsets.
func plainByteArrays(data []byte, offs []int32, b []byte, n int) ([]byte, []int32, error) {
	pos := 0
	for range n {
		if len(b)-pos < 4 {
			return nil, nil, errTruncated
		}
		l := int(binary.LittleEndian.Uint32(b[pos:]))
		pos += 4
		if l > len(b)-pos {
			return nil, nil, errTruncated
		}
		if len(data)+l > math.MaxInt32 {
			return nil, nil, errors.New("more than 2 GiB of strings")
		}
		data = append(data, b[pos:pos+l]...)
		offs = append(offs, int32(len(data)))
		pos += l
	}
	return data, offs, nil
}

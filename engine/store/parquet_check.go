//go:build engine

package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// Limits on what one page of a file may claim. parquet-go allocates what a footer or page
// header says before it reads the bytes, so a corrupt length would cost gigabytes; these
// are far above what Spark (parquet-mr pages hold at most 20,000 rows and about 1 MiB) and
// Write (row groups of at most rowGroupRows rows) produce.
const (
	maxPageBytes  = 256 << 20
	maxPageValues = 1 << 22
	// maxThriftDepth bounds the nesting of footer and page header structs.
	maxThriftDepth = 64
	// pageHeaderWindow is the first read of a page header; a longer header is read whole.
	pageHeaderWindow = 4 << 10
)

// errTruncated is a thrift value that runs past the bytes holding it.
var errTruncated = errors.New("truncated")

// checkFooter checks what parquet-go trusts before it allocates: the magic numbers, that
// the footer fits in the file, and that every list, map and string in the footer fits in
// the bytes that hold it.
func checkFooter(r io.ReaderAt, size int64) error {
	if size < 12 {
		return fmt.Errorf("not a parquet file: %d bytes, too short for the magic numbers and footer", size)
	}
	var head [4]byte
	var tail [8]byte
	if _, err := r.ReadAt(head[:], 0); err != nil {
		return err
	}
	if _, err := r.ReadAt(tail[:], size-8); err != nil {
		return err
	}
	switch {
	case string(head[:]) == "PARE" || string(tail[4:]) == "PARE":
		return errors.New("encrypted parquet files are not supported")
	case string(head[:]) != "PAR1":
		return fmt.Errorf("not a parquet file: it starts with %q, not \"PAR1\"", head[:])
	case string(tail[4:]) != "PAR1":
		return fmt.Errorf("not a parquet file or truncated: it ends with %q, not \"PAR1\"", tail[4:])
	}
	n := int64(binary.LittleEndian.Uint32(tail[:4]))
	if n > size-12 {
		return fmt.Errorf("footer of %d bytes does not fit in the file of %d bytes: truncated or corrupt", n, size)
	}
	footer := make([]byte, n)
	if _, err := r.ReadAt(footer, size-8-n); err != nil {
		return err
	}
	if _, err := skipStruct(footer, 0); err != nil {
		return fmt.Errorf("corrupt footer: %w", err)
	}
	return nil
}

// A chunkRange is the bytes of one column chunk, its codec, the rows its row group holds and,
// when leaf is set, the column's maximum repetition and definition levels.
type chunkRange struct {
	start, end     int64
	rows           int64
	codec          format.CompressionCodec
	leaf           bool
	maxRep, maxDef int
}

// checkPages walks the page headers of one column chunk as parquet-go will read them and
// checks every size against the chunk and the limits, and that the data pages hold rows
// values (flat columns have one value per row).
func checkPages(r io.ReaderAt, c chunkRange) error {
	var values int64
	var page []byte
	buf := make([]byte, pageHeaderWindow)
	for pos := c.start; pos < c.end; {
		h, n, err := readPageHeader(r, buf, pos, c.end)
		if err != nil {
			return fmt.Errorf("page header at offset %d: %w", pos, err)
		}
		switch {
		case h.CompressedPageSize < 0 || int64(h.CompressedPageSize) > c.end-pos-n:
			return fmt.Errorf("page at offset %d: %d bytes claimed, %d left in the column chunk", pos, h.CompressedPageSize, c.end-pos-n)
		case h.UncompressedPageSize < 0 || h.UncompressedPageSize > maxPageBytes:
			return fmt.Errorf("page at offset %d: uncompressed size %d out of range 0..%d", pos, h.UncompressedPageSize, maxPageBytes)
		}
		var nv int32
		switch {
		case h.DataPageHeader.Valid:
			nv = h.DataPageHeader.V.NumValues
			values += int64(nv)
		case h.DataPageHeaderV2.Valid:
			nv = h.DataPageHeaderV2.V.NumValues
			values += int64(nv)
		case h.DictionaryPageHeader.Valid:
			nv = h.DictionaryPageHeader.V.NumValues
		}
		if nv < 0 || nv > maxPageValues {
			return fmt.Errorf("page at offset %d: %d values out of range 0..%d", pos, nv, maxPageValues)
		}
		if c.codec == format.Snappy {
			if err := checkSnappyLength(r, h, pos+n); err != nil {
				return fmt.Errorf("page at offset %d: %w", pos, err)
			}
		}
		if err := checkRuns(r, h, pos+n, c, &page); err != nil {
			return fmt.Errorf("page at offset %d: %w", pos, err)
		}
		pos += n + int64(h.CompressedPageSize)
	}
	if values != c.rows {
		return fmt.Errorf("column chunk has %d values for %d rows", values, c.rows)
	}
	return nil
}

// checkSnappyLength checks the decoded length a Snappy block declares in its first bytes:
// the decoder allocates it before decoding. The block starts after the levels of a V2 page.
func checkSnappyLength(r io.ReaderAt, h *format.PageHeader, data int64) error {
	size := int64(h.CompressedPageSize)
	if v2 := h.DataPageHeaderV2; v2.Valid {
		levels := int64(v2.V.RepetitionLevelsByteLength) + int64(v2.V.DefinitionLevelsByteLength)
		if levels < 0 || levels > size {
			return fmt.Errorf("levels of %d bytes in a page of %d", levels, size)
		}
		if v2.V.IsCompressed.Valid && !v2.V.IsCompressed.V {
			return nil
		}
		data, size = data+levels, size-levels
	}
	if size == 0 {
		return nil
	}
	var b [binary.MaxVarintLen64]byte
	head := b[:min(size, int64(len(b)))]
	if _, err := r.ReadAt(head, data); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	l, _, err := readVarint(head)
	if err != nil {
		return fmt.Errorf("snappy block: %w", err)
	}
	if l > maxPageBytes {
		return fmt.Errorf("snappy block declares %d bytes, more than %d", l, maxPageBytes)
	}
	return nil
}

// readPageHeader reads the page header at pos (before end), growing buf as needed, and
// returns it with its length in bytes.
func readPageHeader(r io.ReaderAt, buf []byte, pos, end int64) (*format.PageHeader, int64, error) {
	for {
		w := min(int64(len(buf)), end-pos)
		b := buf[:w]
		if _, err := r.ReadAt(b, pos); err != nil && !errors.Is(err, io.EOF) {
			return nil, 0, err
		}
		n, err := skipStruct(b, 0)
		if errors.Is(err, errTruncated) && w < end-pos && len(buf) < maxPageBytes {
			buf = make([]byte, min(int64(len(buf))*16, end-pos, maxPageBytes))
			continue
		}
		if err != nil {
			return nil, 0, err
		}
		h := new(format.PageHeader)
		if err := thrift.Unmarshal(new(thrift.CompactProtocol), bytes.Clone(b[:n]), h); err != nil {
			return nil, 0, err
		}
		return h, int64(n), nil
	}
}

// Thrift compact protocol types (the low nibble of a field or list header).
const (
	tBoolTrue = iota + 1
	tBoolFalse
	tByte
	tI16
	tI32
	tI64
	tDouble
	tBinary
	tList
	tSet
	tMap
	tStruct
	tUUID
)

// skipStruct returns the length of the thrift compact struct at the start of b, checking
// that every length inside it fits in b.
func skipStruct(b []byte, depth int) (int, error) {
	if depth > maxThriftDepth {
		return 0, errors.New("structs nested too deeply")
	}
	pos := 0
	for {
		if pos >= len(b) {
			return 0, errTruncated
		}
		h := b[pos]
		pos++
		if h == 0 {
			return pos, nil
		}
		if h>>4 == 0 { // long form: the field id follows as a varint
			n, err := skipVarint(b[pos:])
			if err != nil {
				return 0, err
			}
			pos += n
		}
		typ := h & 0x0f
		if typ == tBoolTrue || typ == tBoolFalse {
			continue // a field's boolean is its type
		}
		n, err := skipValue(b[pos:], typ, depth)
		if err != nil {
			return 0, err
		}
		pos += n
	}
}

// skipValue returns the length of one value of type typ at the start of b.
func skipValue(b []byte, typ byte, depth int) (int, error) {
	fixed := func(n int) (int, error) {
		if len(b) < n {
			return 0, errTruncated
		}
		return n, nil
	}
	switch typ {
	case tBoolTrue, tBoolFalse, tByte:
		return fixed(1)
	case tI16, tI32, tI64:
		return skipVarint(b)
	case tDouble:
		return fixed(8)
	case tUUID:
		return fixed(16)
	case tBinary:
		l, n, err := readVarint(b)
		if err != nil {
			return 0, err
		}
		if l > uint64(len(b)-n) {
			return 0, errTruncated
		}
		return n + int(l), nil
	case tList, tSet:
		if len(b) == 0 {
			return 0, errTruncated
		}
		size, elem, pos := uint64(b[0]>>4), b[0]&0x0f, 1
		if size == 15 {
			l, n, err := readVarint(b[1:])
			if err != nil {
				return 0, err
			}
			size, pos = l, 1+n
		}
		return skipElems(b, pos, size, []byte{elem}, depth)
	case tMap:
		size, pos, err := readVarint(b)
		if err != nil || size == 0 {
			return pos, err
		}
		if pos >= len(b) {
			return 0, errTruncated
		}
		kv := b[pos]
		return skipElems(b, pos+1, size, []byte{kv >> 4, kv & 0x0f}, depth)
	case tStruct:
		return skipStruct(b, depth+1)
	}
	return 0, fmt.Errorf("unknown thrift type %d", typ)
}

// skipElems skips size elements (each of the types in kinds, in turn) from b[pos:]. Every
// element takes at least one byte, so a size beyond the bytes left is truncation.
func skipElems(b []byte, pos int, size uint64, kinds []byte, depth int) (int, error) {
	if size > uint64(len(b)-pos) {
		return 0, errTruncated
	}
	for range size {
		for _, k := range kinds {
			n, err := skipValue(b[pos:], k, depth+1)
			if err != nil {
				return 0, err
			}
			pos += n
		}
	}
	return pos, nil
}

// readVarint reads an unsigned LEB128 varint and returns it with its length.
func readVarint(b []byte) (uint64, int, error) {
	x, n := binary.Uvarint(b)
	switch {
	case n == 0:
		return 0, 0, errTruncated
	case n < 0:
		return 0, 0, errors.New("varint overflows 64 bits")
	}
	return x, n, nil
}

func skipVarint(b []byte) (int, error) {
	_, n, err := readVarint(b)
	return n, err
}

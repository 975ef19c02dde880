//go:build engine

package store

import (
	"errors"
	"fmt"

	"github.com/parquet-go/parquet-go/format"
)

// A pageHeader is what the chunk decoder needs of a Parquet PageHeader (thrift struct, compact
// protocol): the kind of page, its sizes, its value count and encodings. Statistics and the
// fields of index pages are skipped.
type pageHeader struct {
	typ                      format.PageType
	uncompressed, compressed int32
	dict, data, v2           bool
	numValues                int32
	encoding                 format.Encoding
	defEncoding, repEncoding format.Encoding
	// v2 pages only: the byte lengths of the (never compressed) levels, and whether the
	// values are compressed (the default).
	defBytes, repBytes int32
	compressedV2       bool
}

// decodePageHeader reads the page header at the start of b and returns it with its length.
// Fields it does not use are skipped with skipValue, which checks their lengths.
func decodePageHeader(b []byte) (pageHeader, int, error) {
	h := pageHeader{compressedV2: true}
	pos, err := readFields(b, 0, func(id int16, typ byte, b []byte) (int, error) {
		switch {
		case id == 1 && typ == tI32:
			x, n, err := readI32(b)
			h.typ = format.PageType(x)
			return n, err
		case id == 2 && typ == tI32:
			x, n, err := readI32(b)
			h.uncompressed = x
			return n, err
		case id == 3 && typ == tI32:
			x, n, err := readI32(b)
			h.compressed = x
			return n, err
		case id == 5 && typ == tStruct:
			h.data = true
			return readFields(b, 1, h.dataPageField)
		case id == 7 && typ == tStruct:
			h.dict = true
			return readFields(b, 1, h.dictPageField)
		case id == 8 && typ == tStruct:
			h.v2 = true
			return readFields(b, 1, h.dataPageV2Field)
		}
		return skipValue(b, typ, 1)
	})
	return h, pos, err
}

func (h *pageHeader) dataPageField(id int16, typ byte, b []byte) (int, error) {
	if typ != tI32 || id < 1 || id > 4 {
		return skipValue(b, typ, 2)
	}
	x, n, err := readI32(b)
	switch id {
	case 1:
		h.numValues = x
	case 2:
		h.encoding = format.Encoding(x)
	case 3:
		h.defEncoding = format.Encoding(x)
	case 4:
		h.repEncoding = format.Encoding(x)
	}
	return n, err
}

func (h *pageHeader) dictPageField(id int16, typ byte, b []byte) (int, error) {
	if typ != tI32 || id < 1 || id > 2 {
		return skipValue(b, typ, 2)
	}
	x, n, err := readI32(b)
	if id == 1 {
		h.numValues = x
	} else {
		h.encoding = format.Encoding(x)
	}
	return n, err
}

func (h *pageHeader) dataPageV2Field(id int16, typ byte, b []byte) (int, error) {
	if id == 7 && (typ == tBoolTrue || typ == tBoolFalse) {
		h.compressedV2 = typ == tBoolTrue
		return 0, nil
	}
	if typ != tI32 || id < 1 || id > 6 {
		return skipValue(b, typ, 2)
	}
	x, n, err := readI32(b)
	switch id {
	case 1:
		h.numValues = x
	case 4:
		h.encoding = format.Encoding(x)
	case 5:
		h.defBytes = x
	case 6:
		h.repBytes = x
	}
	return n, err
}

// readFields walks the fields of the compact-protocol struct at the start of b, calling field
// with each field's id, type and the bytes from its value on; field returns the value's
// length (0 for booleans, whose value is their type). It returns the struct's length.
func readFields(b []byte, depth int, field func(id int16, typ byte, b []byte) (int, error)) (int, error) {
	if depth > maxThriftDepth {
		return 0, errors.New("structs nested too deeply")
	}
	pos := 0
	var id int16
	for {
		if pos >= len(b) {
			return 0, errTruncated
		}
		h := b[pos]
		pos++
		if h == 0 {
			return pos, nil
		}
		if d := h >> 4; d != 0 {
			id += int16(d)
		} else {
			x, n, err := readVarint(b[pos:])
			if err != nil {
				return 0, err
			}
			id = int16(int64(x>>1) ^ -int64(x&1))
			pos += n
		}
		typ := h & 0x0f
		if typ == tBoolTrue || typ == tBoolFalse {
			if _, err := field(id, typ, b[pos:]); err != nil {
				return 0, err
			}
			continue
		}
		n, err := field(id, typ, b[pos:])
		if err != nil {
			return 0, err
		}
		pos += n
	}
}

// readI32 reads a compact-protocol i32 (a zigzag varint).
func readI32(b []byte) (int32, int, error) {
	x, n, err := readVarint(b)
	if err != nil {
		return 0, 0, err
	}
	v := int64(x>>1) ^ -int64(x&1)
	if v != int64(int32(v)) {
		return 0, 0, fmt.Errorf("i32 value %d out of range", v)
	}
	return int32(v), n, nil
}

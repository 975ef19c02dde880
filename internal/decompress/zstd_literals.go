package decompress

import "encoding/binary"

// readLiterals decodes a compressed block's Literals_Section (RFC 8878 §3.1.1.3.1) from the
// start of b into z.lits and returns the section's length.
func (z *zstdFrame) readLiterals(b []byte) (int, string) {
	if len(b) == 0 {
		return 0, "literals section missing"
	}
	typ, format := b[0]&3, b[0]>>2&3
	if typ < 2 { // raw or RLE: one regenerated size
		var size, hl int
		switch format {
		case 0, 2:
			size, hl = int(b[0]>>3), 1
		case 1:
			if len(b) < 2 {
				return 0, "literals header cut off"
			}
			size, hl = int(b[0]>>4)|int(b[1])<<4, 2
		default:
			if len(b) < 3 {
				return 0, "literals header cut off"
			}
			size, hl = int(b[0]>>4)|int(b[1])<<4|int(b[2])<<12, 3
		}
		if size > zstdBlockMax {
			return 0, "literals over the block size"
		}
		if typ == 0 {
			if hl+size > len(b) {
				return 0, "raw literals cut off"
			}
			z.lits = append(z.lits[:0], b[hl:hl+size]...)
			return hl + size, ""
		}
		if hl >= len(b) {
			return 0, "RLE literal cut off"
		}
		z.lits = z.lits[:0]
		for range size {
			z.lits = append(z.lits, b[hl])
		}
		return hl + 1, ""
	}
	return z.huffLiterals(b, typ == 3, format)
}

// huffLiterals decodes Huffman-coded literals: a header of the regenerated and compressed
// sizes, the tree (unless treeless: the previous block's), then one or four streams.
func (z *zstdFrame) huffLiterals(b []byte, treeless bool, format byte) (int, string) {
	var regen, comp, hl int
	streams := 4
	switch format {
	case 0, 1:
		if len(b) < 3 {
			return 0, "literals header cut off"
		}
		h := int(b[0]) | int(b[1])<<8 | int(b[2])<<16
		regen, comp, hl = h>>4&0x3ff, h>>14&0x3ff, 3
		if format == 0 {
			streams = 1
		}
	case 2:
		if len(b) < 4 {
			return 0, "literals header cut off"
		}
		h := int(binary.LittleEndian.Uint32(b))
		regen, comp, hl = h>>4&0x3fff, h>>18&0x3fff, 4
	default:
		if len(b) < 5 {
			return 0, "literals header cut off"
		}
		h := int(binary.LittleEndian.Uint32(b)) | int(b[4])<<32
		regen, comp, hl = h>>4&0x3ffff, h>>22&0x3ffff, 5
	}
	if regen > zstdBlockMax {
		return 0, "literals over the block size"
	}
	if hl+comp > len(b) {
		return 0, "compressed literals cut off"
	}
	src := b[hl : hl+comp]
	if treeless {
		if !z.hasHuff {
			return 0, "treeless literals with no earlier Huffman table"
		}
	} else {
		n, reason := readHuffTable(&z.huff, src, &z.scratch)
		if reason != "" {
			return 0, reason
		}
		z.hasHuff = true
		src = src[n:]
	}
	if cap(z.lits) < regen {
		z.lits = make([]byte, regen, zstdBlockMax)
	}
	z.lits = z.lits[:regen]
	if streams == 1 {
		if reason := decodeHuff(&z.huff, z.lits, src); reason != "" {
			return 0, reason
		}
		return hl + comp, ""
	}
	return hl + comp, z.fourStreams(src, regen)
}

// fourStreams decodes four Huffman streams after their 6-byte jump table; the first three
// regenerate a quarter of the literals (rounded up) each, the fourth the rest.
func (z *zstdFrame) fourStreams(src []byte, regen int) string {
	if len(src) < 6 {
		return "literals jump table cut off"
	}
	s1, s2, s3 := int(binary.LittleEndian.Uint16(src)), int(binary.LittleEndian.Uint16(src[2:])), int(binary.LittleEndian.Uint16(src[4:]))
	src = src[6:]
	if s1+s2+s3 > len(src) {
		return "literals streams overrun their section"
	}
	q := (regen + 3) / 4
	if 3*q > regen {
		return "literals too few for four streams"
	}
	bounds := [5]int{0, s1, s1 + s2, s1 + s2 + s3, len(src)}
	for i := range 4 {
		out := z.lits[i*q : min((i+1)*q, regen)]
		if i == 3 {
			out = z.lits[3*q:]
		}
		if reason := decodeHuff(&z.huff, out, src[bounds[i]:bounds[i+1]]); reason != "" {
			return reason
		}
	}
	return ""
}

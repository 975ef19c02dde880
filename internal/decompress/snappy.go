package decompress

import "encoding/binary"

// SnappyLen returns the decoded length a Snappy block declares (its varint preamble) and the
// preamble's size.
func SnappyLen(src []byte) (n, header int, err error) {
	v, k := binary.Uvarint(src)
	if k <= 0 || v > 1<<32-1 {
		return 0, 0, &Error{Codec: "snappy", Offset: 0, Reason: "bad length preamble"}
	}
	return int(v), k, nil
}

// Snappy decodes one Snappy block (a varint decoded length, then literal and copy elements)
// into dst, which must be at least the declared length, and returns the decoded bytes
// (dst[:length]). The caller bounds the declared length (SnappyLen) before allocating dst.
// Every element is checked: a literal or copy that runs past either end, a copy offset of 0
// or reaching before the start, and a block whose elements do not fill exactly the declared
// length are errors.
func Snappy(dst, src []byte) ([]byte, error) {
	n, s, err := SnappyLen(src)
	if err != nil {
		return nil, err
	}
	if n > len(dst) {
		return nil, &Error{Codec: "snappy", Offset: 0, Reason: "declared length over the output buffer"}
	}
	dst = dst[:n]
	d := 0
	for s < len(src) {
		at := s
		var reason string
		if src[s]&3 == 0 {
			s, d, reason = snappyLiteral(dst, src, s, d)
		} else {
			s, d, reason = snappyCopy(dst, src, s, d)
		}
		if reason != "" {
			return nil, &Error{Codec: "snappy", Offset: int64(at), Reason: reason}
		}
	}
	if d != n {
		return nil, &Error{Codec: "snappy", Offset: int64(s), Reason: "block ends before its declared length"}
	}
	return dst, nil
}

// snappyLiteral copies the literal element at src[s] to dst[d:] and returns the new
// positions, or a reason it is malformed. Its length minus one is in the tag's upper six
// bits, or (values 60 to 63) in the 1 to 4 little-endian bytes after the tag.
func snappyLiteral(dst, src []byte, s, d int) (int, int, string) {
	length := int(src[s] >> 2)
	s++
	if length >= 60 {
		k := length - 59
		if len(src)-s < k {
			return s, d, "literal length cut off"
		}
		var v uint64
		for i := k - 1; i >= 0; i-- {
			v = v<<8 | uint64(src[s+i])
		}
		s += k
		if v >= uint64(len(dst)) {
			return s, d, "literal overflows the declared length"
		}
		length = int(v)
	}
	length++
	if length > len(src)-s {
		return s, d, "literal runs past the end of the block"
	}
	if length > len(dst)-d {
		return s, d, "literal overflows the declared length"
	}
	copy(dst[d:], src[s:s+length])
	return s + length, d + length, ""
}

// s2Repeat is the reason a copy of offset 0 is refused.
const s2Repeat = "copy offset out of range: 0 (an S2 repeat copy, not Snappy)"

// snappyCopy performs the copy element at src[s]: tag 1 has a length of 4 to 11 and an
// 11-bit offset, tags 2 and 3 a length of 1 to 64 and a 16- or 32-bit little-endian offset.
func snappyCopy(dst, src []byte, s, d int) (int, int, string) {
	tag := src[s]
	s++
	var length, off int
	switch tag & 3 {
	case 1:
		if s >= len(src) {
			return s, d, "copy cut off"
		}
		length = 4 + int(tag>>2&7)
		off = int(tag&0xe0)<<3 | int(src[s])
		s++
	case 2:
		if len(src)-s < 2 {
			return s, d, "copy cut off"
		}
		length = 1 + int(tag>>2)
		off = int(binary.LittleEndian.Uint16(src[s:]))
		s += 2
	default:
		if len(src)-s < 4 {
			return s, d, "copy cut off"
		}
		length = 1 + int(tag>>2)
		v := binary.LittleEndian.Uint32(src[s:])
		if uint64(v) > uint64(d) {
			return s, d, "copy offset out of range"
		}
		off = int(v)
		s += 4
	}
	if off == 0 {
		// S2, a superset some Snappy libraries decode, reads offset 0 as "repeat the last
		// offset"; Snappy (snappy-java, which Spark uses) has no such copy.
		return s, d, s2Repeat
	}
	if off > d {
		return s, d, "copy offset out of range"
	}
	if length > len(dst)-d {
		return s, d, "copy overflows the declared length"
	}
	return s, copyMatch(dst, d, off, length), ""
}

package decompress

import "encoding/binary"

// LZ4Block decodes one LZ4 block (the raw block format: a series of sequences, each a token
// byte, literal bytes and, except in the last one, a 2-byte little-endian offset and a match
// length) into dst, and returns the number of bytes written. dst's length is the most the
// block may decode to: a block that would write past it is an error, so the output is
// bounded by the caller; bytes of dst past the count returned may have been written. An offset of 0 or one reaching before the start of the block is an
// error, as the format has no history across blocks in lz4-java's stream.
func LZ4Block(dst, src []byte) (int, error) {
	s, d := 0, 0
	fail := func(reason string) (int, error) { return d, &Error{Codec: "lz4", Offset: int64(s), Reason: reason} }
	for s < len(src) {
		token := src[s]
		s++
		lit := int(token >> 4)
		if lit == 15 {
			n, ok := lz4Length(src, &s)
			if !ok {
				return fail("literal length runs past the end of the block")
			}
			lit += n
		}
		switch {
		case lit > len(src)-s:
			return fail("literals run past the end of the block")
		case lit > len(dst)-d:
			return fail("literals overflow the decoded size")
		case lit <= 16 && len(src)-s >= 16 && len(dst)-d >= 16:
			// Short literals, with room on both sides: one fixed-size move, past the end of
			// the literals into bytes later sequences overwrite.
			*(*[16]byte)(dst[d:]) = *(*[16]byte)(src[s:])
		default:
			copy(dst[d:], src[s:s+lit])
		}
		s += lit
		d += lit
		if s == len(src) {
			break // the last sequence has no match
		}
		if len(src)-s < 2 {
			return fail("match offset cut off")
		}
		off := int(binary.LittleEndian.Uint16(src[s:]))
		if off == 0 || off > d {
			return fail("match offset out of range")
		}
		s += 2
		ml := int(token&15) + 4
		if token&15 == 15 {
			n, ok := lz4Length(src, &s)
			if !ok {
				return fail("match length runs past the end of the block")
			}
			ml += n
		}
		if ml > len(dst)-d {
			return fail("match overflows the decoded size")
		}
		if off >= 8 && ml <= 32 && len(dst)-d >= 32 {
			// A short match from at least 8 bytes back: 8-byte moves, each reading only
			// bytes already written.
			for i := 0; i < ml; i += 8 {
				*(*[8]byte)(dst[d+i:]) = *(*[8]byte)(dst[d+i-off:])
			}
			d += ml
			continue
		}
		d = copyMatch(dst, d, off, ml)
	}
	return d, nil
}

// lz4Length reads the extra bytes of a length field: each adds its value, and a byte of 255
// means another follows. The sum is capped well above any block size so it cannot overflow.
func lz4Length(src []byte, s *int) (int, bool) {
	n := 0
	for *s < len(src) {
		b := src[*s]
		*s++
		n += int(b)
		if n > 1<<30 {
			return 0, false
		}
		if b != 255 {
			return n, true
		}
	}
	return 0, false
}

// copyMatch appends n bytes to dst at d, copied from off bytes back, where the source may
// overlap the bytes being written (a repeat of a short pattern); it returns the new end.
// The caller has checked 0 < off <= d and d+n <= len(dst).
func copyMatch(dst []byte, d, off, n int) int {
	end := d + n
	if off >= n {
		copy(dst[d:end], dst[d-off:])
		return end
	}
	// Overlapping: each copy doubles the run already written.
	for d < end {
		c := copy(dst[d:end], dst[d-off:d])
		d += c
		off += c
	}
	return end
}

package decompress

import (
	"encoding/binary"
	"math/bits"
)

// revBits reads a Zstandard backward bitstream (RFC 8878 §4.1 "Bitstream"): the writer's
// last byte holds a 1 bit above its final bits, and reading starts just below that marker
// and goes towards the stream's first byte. Bits past the start read as zeros and make the
// stream overflowed, which its users check.
type revBits struct {
	b   []byte
	pos int // the bits not read yet are bits 0..pos-1 of b, little-endian
}

// newRevBits starts reading b; it is false when the last byte lacks the marker.
func newRevBits(b []byte) (revBits, bool) {
	if len(b) == 0 || b[len(b)-1] == 0 {
		return revBits{}, false
	}
	return revBits{b: b, pos: len(b)*8 - 1 - bits.LeadingZeros8(b[len(b)-1])}, true
}

// word returns 64 bits of the stream from bit lo on, zeros past its end.
func (r *revBits) word(lo int) uint64 {
	i := lo >> 3
	var v uint64
	if i+8 <= len(r.b) {
		v = binary.LittleEndian.Uint64(r.b[i:])
	} else {
		for k := len(r.b) - 1; k >= i; k-- {
			v = v<<8 | uint64(r.b[k])
		}
	}
	return v >> (lo & 7)
}

// peek returns the next n bits (n at most 56) without consuming them.
func (r *revBits) peek(n int) uint64 {
	if n == 0 || r.pos <= 0 {
		return 0
	}
	lo := r.pos - n
	if lo >= 0 {
		return r.word(lo) & (1<<n - 1)
	}
	return (r.word(0) & (1<<r.pos - 1)) << -lo
}

// read consumes and returns the next n bits.
func (r *revBits) read(n int) uint64 {
	v := r.peek(n)
	r.pos -= n
	return v
}

// fwdBits reads a little-endian forward bitstream (FSE table descriptions).
type fwdBits struct {
	b   []byte
	pos int // bits read so far
}

// peek returns the next n bits (n at most 24), zeros past the end.
func (r *fwdBits) peek(n int) uint32 {
	i := r.pos >> 3
	var v uint32
	for k := min(len(r.b)-1, i+3); k >= i; k-- {
		v = v<<8 | uint32(r.b[k])
	}
	return v >> (r.pos & 7) & (1<<n - 1)
}

// overrun reports whether more bits were consumed than the stream has.
func (r *fwdBits) overrun() bool { return r.pos > len(r.b)*8 }

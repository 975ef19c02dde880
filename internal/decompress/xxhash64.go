package decompress

import (
	"encoding/binary"
	"math/bits"
)

// xxh64 is the 64-bit xxHash with seed 0, fed incrementally: Zstandard's content checksum is
// its low 32 bits over a frame's decoded bytes.
type xxh64 struct {
	v     [4]uint64
	buf   [32]byte
	nbuf  int
	total uint64
}

const (
	xxP1 uint64 = 11400714785074694791
	xxP2 uint64 = 14029467366897019727
	xxP3 uint64 = 1609587929392839161
	xxP4 uint64 = 9650029242287828579
	xxP5 uint64 = 2870177450012600261
)

func (h *xxh64) reset() {
	p1 := xxP1 // a variable: the seed's lanes wrap around, as uint64 arithmetic does at run time
	*h = xxh64{v: [4]uint64{p1 + xxP2, xxP2, 0, -p1}}
}

func xxRound(acc, in uint64) uint64 { return bits.RotateLeft64(acc+in*xxP2, 31) * xxP1 }

func (h *xxh64) stripes(b []byte) {
	for ; len(b) >= 32; b = b[32:] {
		h.v[0] = xxRound(h.v[0], binary.LittleEndian.Uint64(b))
		h.v[1] = xxRound(h.v[1], binary.LittleEndian.Uint64(b[8:]))
		h.v[2] = xxRound(h.v[2], binary.LittleEndian.Uint64(b[16:]))
		h.v[3] = xxRound(h.v[3], binary.LittleEndian.Uint64(b[24:]))
	}
}

// write adds b to the hashed bytes.
func (h *xxh64) write(b []byte) {
	h.total += uint64(len(b))
	if h.nbuf > 0 {
		n := copy(h.buf[h.nbuf:], b)
		h.nbuf += n
		b = b[n:]
		if h.nbuf < 32 {
			return
		}
		h.stripes(h.buf[:])
		h.nbuf = 0
	}
	full := len(b) &^ 31
	h.stripes(b[:full])
	h.nbuf = copy(h.buf[:], b[full:])
}

// sum returns the hash of the bytes written so far.
func (h *xxh64) sum() uint64 {
	var acc uint64
	if h.total >= 32 {
		v := h.v
		acc = bits.RotateLeft64(v[0], 1) + bits.RotateLeft64(v[1], 7) + bits.RotateLeft64(v[2], 12) + bits.RotateLeft64(v[3], 18)
		for _, x := range v {
			acc = (acc^xxRound(0, x))*xxP1 + xxP4
		}
	} else {
		acc = xxP5
	}
	acc += h.total
	b := h.buf[:h.nbuf]
	for ; len(b) >= 8; b = b[8:] {
		acc = bits.RotateLeft64(acc^xxRound(0, binary.LittleEndian.Uint64(b)), 27)*xxP1 + xxP4
	}
	if len(b) >= 4 {
		acc = bits.RotateLeft64(acc^uint64(binary.LittleEndian.Uint32(b))*xxP1, 23)*xxP2 + xxP3
		b = b[4:]
	}
	for _, c := range b {
		acc = bits.RotateLeft64(acc^uint64(c)*xxP5, 11) * xxP1
	}
	acc ^= acc >> 33
	acc *= xxP2
	acc ^= acc >> 29
	acc *= xxP3
	acc ^= acc >> 32
	return acc
}

package decompress

import "math/bits"

// An fseEntry is one state of an FSE decoding table: the symbol it emits, and how the next
// state is found (base plus the next nbits bits of the stream).
type fseEntry struct {
	sym   uint8
	nbits uint8
	base  uint16
}

// An fseTable is a decoding table of 1<<log states.
type fseTable struct {
	log     int
	entries []fseEntry
}

// readFSEDistribution reads an FSE table description (RFC 8878 §4.1.1) from the start of b:
// the accuracy log and each symbol's normalised probability (-1 for "less than 1"). It returns
// them and the description's length in bytes.
func readFSEDistribution(b []byte, maxSym, maxLog int) (norm []int16, log, n int, reason string) {
	r := fwdBits{b: b}
	log = int(r.peek(4)) + 5
	r.pos += 4
	if log > maxLog {
		return nil, 0, 0, "FSE accuracy log over the limit"
	}
	remaining := 1<<log + 1
	threshold := 1 << log
	nb := log + 1
	norm = make([]int16, 0, maxSym+1)
	for remaining > 1 {
		if len(norm) > maxSym {
			return nil, 0, 0, "FSE distribution has too many symbols"
		}
		maxV := 2*threshold - 1 - remaining
		v := int(r.peek(nb))
		if v&(threshold-1) < maxV {
			v &= threshold - 1
			r.pos += nb - 1
		} else {
			v &= 2*threshold - 1
			if v >= threshold {
				v -= maxV
			}
			r.pos += nb
		}
		p := v - 1
		if p < 0 {
			remaining--
		} else {
			remaining -= p
		}
		norm = append(norm, int16(p))
		if p == 0 {
			for {
				rep := int(r.peek(2))
				r.pos += 2
				for range rep {
					norm = append(norm, 0)
				}
				if rep != 3 || r.overrun() {
					break
				}
			}
			if len(norm) > maxSym+1 {
				return nil, 0, 0, "FSE distribution has too many symbols"
			}
		}
		for remaining < threshold && threshold > 1 {
			nb--
			threshold >>= 1
		}
		if r.overrun() {
			return nil, 0, 0, "FSE table description cut off"
		}
	}
	if remaining != 1 {
		return nil, 0, 0, "FSE probabilities do not add up"
	}
	return norm, log, (r.pos + 7) / 8, ""
}

// buildFSE builds the decoding table of a distribution (RFC 8878 §4.1.1, "FSE table
// construction"): "less than 1" symbols take the last states, the others are spread over the
// rest with a fixed step, and each state's next-state rule follows from the order in which
// a symbol's states occur.
func buildFSE(t *fseTable, norm []int16, log int) string {
	size := 1 << log
	if cap(t.entries) < size {
		t.entries = make([]fseEntry, size)
	}
	t.entries, t.log = t.entries[:size], log
	var next [256]uint16
	high := size - 1
	for s, p := range norm {
		if p == -1 {
			t.entries[high].sym = uint8(s)
			high--
			next[s] = 1
		} else {
			next[s] = uint16(p)
		}
	}
	step := size>>1 + size>>3 + 3
	mask, pos := size-1, 0
	for s, p := range norm {
		for range max(p, 0) {
			t.entries[pos].sym = uint8(s)
			pos = (pos + step) & mask
			for pos > high {
				pos = (pos + step) & mask
			}
		}
	}
	if pos != 0 {
		return "FSE table does not fill its states"
	}
	for i := range t.entries {
		e := &t.entries[i]
		ns := next[e.sym]
		next[e.sym]++
		if ns == 0 {
			return "FSE table state without a symbol"
		}
		nb := log - (bits.Len16(ns) - 1)
		e.nbits = uint8(nb)
		e.base = uint16(int(ns)<<nb - size)
	}
	return ""
}

// rleFSE makes the one-state table that always emits sym (symbol compression mode RLE).
func rleFSE(t *fseTable, sym uint8) {
	t.log = 0
	t.entries = append(t.entries[:0], fseEntry{sym: sym})
}

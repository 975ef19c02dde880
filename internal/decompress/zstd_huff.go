package decompress

import "math/bits"

// maxHuffBits is the longest Huffman code Zstandard allows (RFC 8878 §4.2.1).
const maxHuffBits = 11

// A huffEntry is one slot of a Huffman decoding table indexed by the next maxBits bits.
type huffEntry struct {
	sym   uint8
	nbits uint8
}

// A huffTable decodes one symbol per lookup of its maxBits bits.
type huffTable struct {
	maxBits int
	entries []huffEntry
}

// readHuffTable reads a Huffman tree description (RFC 8878 §4.2.1) from the start of b into
// t and returns its length in bytes.
func readHuffTable(t *huffTable, b []byte, scratch *fseTable) (int, string) {
	if len(b) == 0 {
		return 0, "Huffman tree description missing"
	}
	var weights [256]uint8
	var n int
	hb := int(b[0])
	used := 1
	if hb >= 128 { // weights stored directly, 4 bits each
		n = hb - 127
		used += (n + 1) / 2
		if used > len(b) {
			return 0, "Huffman weights cut off"
		}
		for i := range n {
			w := b[1+i/2]
			if i%2 == 0 {
				w >>= 4
			}
			weights[i] = w & 15
		}
	} else { // FSE-compressed weights
		used += hb
		if used > len(b) || hb == 0 {
			return 0, "Huffman weights cut off"
		}
		var reason string
		n, reason = huffWeightsFSE(weights[:], b[1:used], scratch)
		if reason != "" {
			return 0, reason
		}
	}
	return used, buildHuff(t, weights[:n])
}

// huffWeightsFSE decodes FSE-compressed Huffman weights: a table description, then a
// backward bitstream read with two interleaved states until it is exhausted.
func huffWeightsFSE(out, b []byte, t *fseTable) (int, string) {
	norm, log, k, reason := readFSEDistribution(b, 15, 6)
	if reason != "" {
		return 0, reason
	}
	if reason := buildFSE(t, norm, log); reason != "" {
		return 0, reason
	}
	br, ok := newRevBits(b[k:])
	if !ok {
		return 0, "Huffman weights stream has no end marker"
	}
	s1 := int(br.read(log))
	s2 := int(br.read(log))
	n := 0
	for {
		if n+2 > 255 {
			return 0, "too many Huffman weights"
		}
		e := t.entries[s1]
		out[n] = e.sym
		n++
		s1 = int(e.base) + int(br.read(int(e.nbits)))
		if br.pos < 0 {
			out[n] = t.entries[s2].sym
			return n + 1, ""
		}
		e = t.entries[s2]
		out[n] = e.sym
		n++
		s2 = int(e.base) + int(br.read(int(e.nbits)))
		if br.pos < 0 {
			out[n] = t.entries[s1].sym
			return n + 1, ""
		}
	}
}

// buildHuff builds the decoding table from the weights of all symbols but the last, whose
// weight is what brings the total to a power of two.
func buildHuff(t *huffTable, weights []uint8) string {
	var count [maxHuffBits + 2]int
	total := 0
	for _, w := range weights {
		if w > maxHuffBits {
			return "Huffman weight over the limit"
		}
		count[w]++
		if w > 0 {
			total += 1 << (w - 1)
		}
	}
	if total == 0 {
		return "Huffman weights all zero"
	}
	maxBits := bits.Len(uint(total))
	left := 1<<maxBits - total
	if maxBits > maxHuffBits || left&(left-1) != 0 || len(weights) > 255 {
		return "Huffman weights do not make a prefix code"
	}
	last := bits.Len(uint(left))
	count[last]++
	size := 1 << maxBits
	if cap(t.entries) < size {
		t.entries = make([]huffEntry, size)
	}
	t.entries, t.maxBits = t.entries[:size], maxBits
	// Slots by weight, lightest (longest code) first; within a weight, by symbol.
	var start [maxHuffBits + 2]int
	at := 0
	for w := 1; w <= maxBits; w++ {
		start[w] = at
		at += count[w] << (w - 1)
	}
	place := func(sym, w int) {
		n := 1 << (w - 1)
		e := huffEntry{sym: uint8(sym), nbits: uint8(maxBits + 1 - w)}
		for i := start[w]; i < start[w]+n; i++ {
			t.entries[i] = e
		}
		start[w] += n
	}
	for s, w := range weights {
		if w > 0 {
			place(s, int(w))
		}
	}
	place(len(weights), last)
	return ""
}

// decodeHuff decodes len(out) symbols from one backward Huffman stream, which they must use
// up exactly.
func decodeHuff(t *huffTable, out, b []byte) string {
	br, ok := newRevBits(b)
	if !ok {
		return "Huffman stream has no end marker"
	}
	for i := range out {
		e := t.entries[br.peek(t.maxBits)]
		out[i] = e.sym
		br.pos -= int(e.nbits)
	}
	if br.pos != 0 {
		return "Huffman stream not used up exactly"
	}
	return ""
}

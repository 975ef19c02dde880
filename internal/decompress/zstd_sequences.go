package decompress

// The code tables of RFC 8878 §3.1.1.3.2.1.1: each literal-length and match-length code's
// baseline and number of extra bits, and the predefined distributions of the three codes.
//
//nolint:gochecknoglobals // read-only tables from the format's specification
var (
	llBase = [36]uint32{
		0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
		16, 18, 20, 22, 24, 28, 32, 40, 48, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536,
	}
	llBits = [36]uint8{
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		1, 1, 1, 1, 2, 2, 3, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
	}
	mlBase = [53]uint32{
		3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34,
		35, 37, 39, 41, 43, 47, 51, 59, 67, 83, 99, 131, 259, 515, 1027, 2051, 4099, 8195, 16387, 32771, 65539,
	}
	mlBits = [53]uint8{
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
	}
	llDefault = []int16{4, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 2, 1, 1, 1, 1, 1, -1, -1, -1, -1}
	mlDefault = []int16{
		1, 4, 3, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
		1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1, -1, -1,
	}
	ofDefault = []int16{1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1}
)

// The three sequence codes, in the order their tables are described.
const (
	seqLL = iota
	seqOF
	seqML
)

// seqKinds gives each code's largest symbol, largest accuracy log, predefined distribution
// and its log.
func seqKind(k int) (maxSym, maxLog int, def []int16, defLog int) {
	switch k {
	case seqLL:
		return 35, 9, llDefault, 6
	case seqOF:
		return 31, 8, ofDefault, 5
	default:
		return 52, 9, mlDefault, 6
	}
}

// sequenceHeader reads the number of sequences and the three decoding tables (RFC 8878
// §3.1.1.3.2.1) and returns them with the header's length.
func (z *zstdFrame) sequenceHeader(b []byte) (nseq, n int, reason string) {
	if len(b) == 0 {
		return 0, 0, "sequences section missing"
	}
	switch b0 := int(b[0]); {
	case b0 < 128:
		nseq, n = b0, 1
	case b0 < 255:
		if len(b) < 2 {
			return 0, 0, "sequence count cut off"
		}
		nseq, n = (b0-128)<<8|int(b[1]), 2
	default:
		if len(b) < 3 {
			return 0, 0, "sequence count cut off"
		}
		nseq, n = int(b[1])|int(b[2])<<8+0x7f00, 3
	}
	if nseq == 0 {
		return 0, n, ""
	}
	if n >= len(b) {
		return 0, 0, "compression modes cut off"
	}
	modes := b[n]
	n++
	if modes&3 != 0 {
		return 0, 0, "reserved bits of the compression modes set"
	}
	for k := range 3 {
		used, reason := z.seqTable(k, modes>>(6-2*k)&3, b[n:])
		if reason != "" {
			return 0, 0, reason
		}
		n += used
	}
	return nseq, n, ""
}

// seqTable sets up the decoding table of code k in the given mode: predefined, RLE (one
// symbol), FSE-compressed (a description follows) or repeat (the previous block's).
func (z *zstdFrame) seqTable(k int, mode byte, b []byte) (int, string) {
	maxSym, maxLog, def, defLog := seqKind(k)
	t := &z.seq[k]
	switch mode {
	case 0:
		z.hasSeq[k] = true
		return 0, buildFSE(t, def, defLog)
	case 1:
		if len(b) == 0 {
			return 0, "RLE sequence code cut off"
		}
		if int(b[0]) > maxSym {
			return 0, "RLE sequence code out of range"
		}
		rleFSE(t, b[0])
		z.hasSeq[k] = true
		return 1, ""
	case 2:
		norm, log, n, reason := readFSEDistribution(b, maxSym, maxLog)
		if reason == "" {
			reason = buildFSE(t, norm, log)
		}
		z.hasSeq[k] = reason == ""
		return n, reason
	default:
		if !z.hasSeq[k] {
			return 0, "repeated sequence table with no earlier one"
		}
		return 0, ""
	}
}

// sequences decodes nseq sequences from the backward bitstream b and executes them: each
// copies its literals from z.lits and then its match from the window, into z.out.
func (z *zstdFrame) sequences(nseq int, b []byte) string {
	br, ok := newRevBits(b)
	if !ok {
		return "sequences stream has no end marker"
	}
	ll, of, ml := &z.seq[seqLL], &z.seq[seqOF], &z.seq[seqML]
	sll, sof, sml := int(br.read(ll.log)), int(br.read(of.log)), int(br.read(ml.log))
	lit, start := 0, len(z.out)
	for i := range nseq {
		if br.pos < 0 {
			return "sequences stream overrun"
		}
		ofCode, mlCode, llCode := of.entries[sof].sym, ml.entries[sml].sym, ll.entries[sll].sym
		offset := int(1)<<ofCode | int(br.read(int(ofCode)))
		mlen := int(mlBase[mlCode]) + int(br.read(int(mlBits[mlCode])))
		llen := int(llBase[llCode]) + int(br.read(int(llBits[llCode])))
		if i < nseq-1 {
			e := ll.entries[sll]
			sll = int(e.base) + int(br.read(int(e.nbits)))
			e = ml.entries[sml]
			sml = int(e.base) + int(br.read(int(e.nbits)))
			e = of.entries[sof]
			sof = int(e.base) + int(br.read(int(e.nbits)))
		}
		offset = z.repeat(offset, llen)
		if llen > len(z.lits)-lit {
			return "sequence's literals run past the literals section"
		}
		if len(z.out)-start+llen+mlen > z.blockMax {
			return "sequences decode past the block size"
		}
		z.out = append(z.out, z.lits[lit:lit+llen]...)
		lit += llen
		if offset <= 0 || offset > len(z.out) || offset > z.window {
			return "match offset out of the window"
		}
		z.match(offset, mlen)
	}
	if br.pos != 0 {
		return "sequences stream not used up exactly"
	}
	if len(z.out)-start+len(z.lits)-lit > z.blockMax {
		return "sequences decode past the block size"
	}
	z.out = append(z.out, z.lits[lit:]...)
	return ""
}

// repeat turns an offset value into an offset (RFC 8878 §3.1.1.5): above 3 it is the
// offset plus 3; 1 to 3 name one of the three most recent offsets (shifted by one when the
// sequence has no literals), which are kept in order of use.
func (z *zstdFrame) repeat(v, llen int) int {
	r := &z.reps
	if v > 3 {
		off := v - 3
		r[2], r[1], r[0] = r[1], r[0], off
		return off
	}
	if llen == 0 {
		v++
	}
	var off int
	switch v {
	case 1:
		return r[0]
	case 2:
		off = r[1]
		r[1] = r[0]
	case 3:
		off = r[2]
		r[2], r[1] = r[1], r[0]
	default: // 4: the most recent offset minus one
		off = r[0] - 1
		r[2], r[1] = r[1], r[0]
	}
	r[0] = off
	return off
}

// match appends n bytes copied from off bytes back in z.out (0 < off <= len(z.out)). The
// block's room was reserved (reserve), so a short match from at least 8 bytes back moves 8
// bytes at a time, each move reading only bytes already written.
func (z *zstdFrame) match(off, n int) {
	d := len(z.out)
	full := z.out[:cap(z.out)]
	if off >= 8 && d+n+8 <= len(full) {
		for i := 0; i < n; i += 8 {
			*(*[8]byte)(full[d+i:]) = *(*[8]byte)(full[d+i-off:])
		}
	} else {
		copyMatch(full, d, off, n)
	}
	z.out = full[:d+n]
}

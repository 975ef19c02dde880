package decompress

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
)

// zstdBlockMax is the most a Zstandard block holds or decodes to (RFC 8878 §3.1.1.2.4).
const zstdBlockMax = 128 << 10

const (
	zstdMagic     = 0xfd2fb528
	skippableMask = 0xfffffff0
	skippableBase = 0x184d2a50
)

// A zstdFrame is the state of the frame being decoded: its parameters, the window of decoded
// bytes matches copy from, the repeat offsets and the tables later blocks may reuse.
type zstdFrame struct {
	window   int
	blockMax int
	checksum bool
	size     int64 // the declared content size, -1 if not given
	produced int64
	hash     xxh64
	out      []byte // the last window bytes decoded at least, then the current block's
	reps     [3]int
	lits     []byte
	huff     huffTable
	hasHuff  bool
	seq      [3]fseTable
	hasSeq   [3]bool
	scratch  fseTable
}

// A ZstdReader decodes a stream of Zstandard frames (RFC 8878), one after another, skipping
// skippable frames. Dictionaries are not supported. Memory is bounded by the window the
// frame declares, which must not be over the limit given to NewZstdReader, plus one block.
type ZstdReader struct {
	r         *bufio.Reader
	maxWindow int
	in        int64 // input bytes consumed
	f         zstdFrame
	inFrame   bool
	last      bool // the frame's last block was decoded
	served    int  // bytes of f.out handed out by Read
	block     []byte
	err       error
}

// NewZstdReader reads Zstandard frames from r, refusing a frame whose window is over
// maxWindow bytes.
func NewZstdReader(r io.Reader, maxWindow int) *ZstdReader {
	return &ZstdReader{r: bufio.NewReader(r), maxWindow: maxWindow}
}

// Reset makes z read a new stream from r, keeping its buffers.
func (z *ZstdReader) Reset(r io.Reader) {
	z.r.Reset(r)
	z.in, z.inFrame, z.last, z.served, z.err = 0, false, false, 0, nil
	z.f.out = z.f.out[:0]
}

// Read implements io.Reader.
func (z *ZstdReader) Read(p []byte) (int, error) {
	for z.served == len(z.f.out) {
		if z.err != nil {
			return 0, z.err
		}
		z.err = z.next()
	}
	n := copy(p, z.f.out[z.served:])
	z.served += n
	return n, nil
}

// fail makes the positioned error of a malformed input at input byte at.
func (z *ZstdReader) fail(at int64, reason string) error {
	return &Error{Codec: "zstd", Offset: at, Reason: reason}
}

// readFull reads len(b) bytes, counting them; a stream that ends first is an error at at.
func (z *ZstdReader) readFull(b []byte, at int64, what string) error {
	n, err := io.ReadFull(z.r, b)
	z.in += int64(n)
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return z.fail(at, what+" cut off")
	}
	return err
}

// next decodes the next block, starting a frame (or ending the stream) where one is due.
func (z *ZstdReader) next() error {
	if z.inFrame && z.last {
		if err := z.endFrame(); err != nil {
			return err
		}
	}
	if !z.inFrame {
		if err := z.startFrame(); err != nil {
			return err
		}
		return nil
	}
	z.compact()
	z.f.reserve()
	return z.decodeBlock()
}

// reserve makes room in f.out for a whole block and the 8 bytes match may write past it,
// so that decoding a block never moves the window.
func (f *zstdFrame) reserve() {
	if need := f.blockMax + 16; cap(f.out)-len(f.out) < need {
		f.out = slices.Grow(f.out, max(need, len(f.out)))
	}
}

// compact drops decoded bytes that are handed out and out of the window, once they are as
// many as the window or 1 MiB, so that each byte is moved at most about once.
func (z *ZstdReader) compact() {
	f := &z.f
	if drop := len(f.out) - f.window; drop > 0 && drop >= max(f.window, 1<<20) {
		n := copy(f.out, f.out[drop:])
		f.out = f.out[:n]
		z.served = n
	}
}

// startFrame reads a frame header, skipping skippable frames; at the end of the input it
// returns io.EOF.
func (z *ZstdReader) startFrame() error {
	for {
		at := z.in
		var m [4]byte
		n, err := io.ReadFull(z.r, m[:])
		z.in += int64(n)
		if n == 0 && errors.Is(err, io.EOF) {
			return io.EOF
		}
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return z.fail(at, "frame magic cut off")
		}
		if err != nil {
			return err
		}
		magic := binary.LittleEndian.Uint32(m[:])
		if magic&skippableMask == skippableBase {
			if err := z.skipFrame(at); err != nil {
				return err
			}
			continue
		}
		if magic != zstdMagic {
			return z.fail(at, fmt.Sprintf("not a Zstandard frame (magic %#08x)", magic))
		}
		return z.frameHeader(at)
	}
}

// skipFrame skips a skippable frame's content, whose length follows the magic.
func (z *ZstdReader) skipFrame(at int64) error {
	var l [4]byte
	if err := z.readFull(l[:], at, "skippable frame"); err != nil {
		return err
	}
	n, err := io.CopyN(io.Discard, z.r, int64(binary.LittleEndian.Uint32(l[:])))
	z.in += n
	if err != nil {
		return z.fail(at, "skippable frame cut off")
	}
	return nil
}

// frameHeader reads the frame header after the magic (RFC 8878 §3.1.1.1) and starts the frame.
func (z *ZstdReader) frameHeader(at int64) error {
	var d [1]byte
	if err := z.readFull(d[:], at, "frame header"); err != nil {
		return err
	}
	desc := d[0]
	single := desc&0x20 != 0
	if desc&0x08 != 0 {
		return z.fail(at+4, "reserved bit of the frame header set")
	}
	fcsLen := [4]int{0, 2, 4, 8}[desc>>6]
	if fcsLen == 0 && single {
		fcsLen = 1
	}
	dictLen := [4]int{0, 1, 2, 4}[desc&3]
	hdr := make([]byte, 0, 14)
	if !single {
		hdr = hdr[:1]
	}
	hdr = hdr[:len(hdr)+dictLen+fcsLen]
	if err := z.readFull(hdr, at, "frame header"); err != nil {
		return err
	}
	window := uint64(0)
	if !single {
		wlog := 10 + uint(hdr[0]>>3)
		window = 1<<wlog + (1<<wlog)/8*uint64(hdr[0]&7)
	}
	if dict := le(hdr[len(hdr)-fcsLen-dictLen : len(hdr)-fcsLen]); dict != 0 {
		return z.fail(at, fmt.Sprintf("frame needs dictionary %d; dictionaries are not supported", dict))
	}
	size := int64(-1)
	if fcsLen > 0 {
		v := le(hdr[len(hdr)-fcsLen:])
		if fcsLen == 2 {
			v += 256
		}
		size = int64(v & (1<<63 - 1))
		if single {
			window = v
		}
	}
	if window > uint64(z.maxWindow) {
		return z.fail(at, fmt.Sprintf("window of %d bytes over the limit of %d", window, z.maxWindow))
	}
	f := &z.f
	f.window, f.blockMax, f.checksum, f.size, f.produced = int(window), min(int(window), zstdBlockMax), desc&4 != 0, size, 0
	f.out, f.reps, f.hasHuff, f.hasSeq = f.out[:0], [3]int{1, 4, 8}, false, [3]bool{}
	f.hash.reset()
	z.served, z.inFrame, z.last = 0, true, false
	return nil
}

// le reads a little-endian number of up to 8 bytes.
func le(b []byte) uint64 {
	var v uint64
	for i := len(b) - 1; i >= 0; i-- {
		v = v<<8 | uint64(b[i])
	}
	return v
}

// endFrame checks the frame's declared size and its checksum.
func (z *ZstdReader) endFrame() error {
	f := &z.f
	z.inFrame = false
	if f.size >= 0 && f.produced != f.size {
		return z.fail(z.in, fmt.Sprintf("frame decoded to %d bytes, its header says %d", f.produced, f.size))
	}
	if f.checksum {
		at := z.in
		var c [4]byte
		if err := z.readFull(c[:], at, "content checksum"); err != nil {
			return err
		}
		if binary.LittleEndian.Uint32(c[:]) != uint32(f.hash.sum()) {
			return z.fail(at, "content checksum mismatch")
		}
	}
	return nil
}

// decodeBlock reads one block (RFC 8878 §3.1.1.2) and appends what it decodes to z.f.out.
func (z *ZstdReader) decodeBlock() error {
	f := &z.f
	at := z.in
	var h [3]byte
	if err := z.readFull(h[:], at, "block header"); err != nil {
		return err
	}
	bh := int(h[0]) | int(h[1])<<8 | int(h[2])<<16
	z.last = bh&1 != 0
	typ, size := bh>>1&3, bh>>3
	start := len(f.out)
	switch typ {
	case 0, 2:
		if size > f.blockMax {
			return z.fail(at, fmt.Sprintf("block of %d bytes over the block size %d", size, f.blockMax))
		}
		if cap(z.block) < size {
			z.block = make([]byte, size, zstdBlockMax)
		}
		z.block = z.block[:size]
		if err := z.readFull(z.block, at, "block"); err != nil {
			return err
		}
		if typ == 0 {
			f.out = append(f.out, z.block...)
		} else if reason, off := f.compressed(z.block); reason != "" {
			return z.fail(at+3+int64(off), reason)
		}
	case 1:
		if size > f.blockMax {
			return z.fail(at, fmt.Sprintf("block of %d bytes over the block size %d", size, f.blockMax))
		}
		var b [1]byte
		if err := z.readFull(b[:], at, "RLE block"); err != nil {
			return err
		}
		for range size {
			f.out = append(f.out, b[0])
		}
	default:
		return z.fail(at, "reserved block type")
	}
	f.produced += int64(len(f.out) - start)
	if f.size >= 0 && f.produced > f.size {
		return z.fail(at, fmt.Sprintf("frame decodes past the %d bytes its header says", f.size))
	}
	if f.checksum {
		f.hash.write(f.out[start:])
	}
	return nil
}

// compressed decodes a compressed block: literals, then sequences. It returns the reason it
// is malformed and the offset in the block where the failing section starts.
func (f *zstdFrame) compressed(b []byte) (string, int) {
	n, reason := f.readLiterals(b)
	if reason != "" {
		return reason, 0
	}
	nseq, m, reason := f.sequenceHeader(b[n:])
	if reason != "" {
		return reason, n
	}
	if nseq == 0 {
		if n+m != len(b) {
			return "bytes after a block with no sequences", n + m
		}
		if len(f.lits) > f.blockMax {
			return "literals over the block size", n
		}
		f.out = append(f.out, f.lits...)
		return "", 0
	}
	if reason := f.sequences(nseq, b[n+m:]); reason != "" {
		return reason, n + m
	}
	return "", 0
}

package eventlog

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"strings"

	dc "github.com/bucketlint/bucketlint/internal/decompress"
)

// MaxBlock is the largest decompressed block the lz4 and snappy readers accept. Spark writes
// event logs with blocks of spark.io.compression.*.blockSize (32 KiB by default); lz4-java
// cannot encode a block over 32 MiB.
const MaxBlock = 64 << 20

// MaxWindow is the largest window a zstd frame of an event log may declare: the decoder holds
// up to about twice that in memory. zstd-jni, which Spark's ZStdCompressionCodec writes with,
// uses windows of 512 KiB to 8 MiB at the levels Spark allows; the zstd tool's --long mode
// uses 128 MiB, which is refused with a clear error.
const MaxWindow = 64 << 20

// Codec names the compression of one event log file, from the file name's extension as Spark
// chooses it (EventLogFileWriter: "<name>.<codec short name>").
func Codec(name string) string {
	name = strings.TrimSuffix(name, ".inprogress")
	for _, c := range []string{"lz4", "snappy", "zstd", "lzf"} {
		if strings.HasSuffix(name, "."+c) {
			return c
		}
	}
	return ""
}

// decompress wraps r in the reader of codec ("" for none). The returned close releases the
// decoder's resources.
func decompress(codec string, r io.Reader) (io.Reader, func(), error) {
	switch codec {
	case "":
		return r, func() {}, nil
	case "lz4":
		return newLZ4Block(r), func() {}, nil
	case "snappy":
		return newSnappyStream(r), func() {}, nil
	case "zstd":
		return dc.NewZstdReader(r, MaxWindow), func() {}, nil
	default:
		return nil, nil, fmt.Errorf("event logs compressed with %s are not read (lz4, snappy and zstd are)", codec)
	}
}

// lz4BlockReader reads lz4-java's LZ4BlockOutputStream format, which Spark's
// LZ4CompressionCodec writes: blocks of a 21-byte header ("LZ4Block", a token whose high
// nibble is the method (0x10 stored, 0x20 LZ4) and low nibble the block size as a power of
// two above 1 KiB, then the compressed length, the decompressed length and an xxHash32
// checksum (seed 0x9747b28c, low 28 bits) of the decompressed bytes, little-endian), each
// followed by its data. An empty block ends a stream; another stream may follow it.
type lz4BlockReader struct {
	r    *bufio.Reader
	out  []byte
	pos  int
	src  []byte
	hdr  [21]byte
	read int64
}

const lz4Seed = 0x9747b28c

var errLZ4Magic = errors.New("lz4: not an LZ4Block stream (Spark's lz4 codec): bad magic")

func newLZ4Block(r io.Reader) *lz4BlockReader { return &lz4BlockReader{r: bufio.NewReader(r)} }

// Read implements io.Reader.
func (z *lz4BlockReader) Read(p []byte) (int, error) {
	for z.pos == len(z.out) {
		if err := z.block(); err != nil {
			return 0, err
		}
	}
	n := copy(p, z.out[z.pos:])
	z.pos += n
	return n, nil
}

func (z *lz4BlockReader) block() error {
	at := z.read
	n, err := io.ReadFull(z.r, z.hdr[:])
	z.read += int64(n)
	if err != nil {
		if errors.Is(err, io.EOF) {
			return io.EOF
		}
		return fmt.Errorf("lz4: block at byte %d: %w", at, io.ErrUnexpectedEOF)
	}
	if string(z.hdr[:8]) != "LZ4Block" {
		return fmt.Errorf("%w (at byte %d)", errLZ4Magic, at)
	}
	method, level := z.hdr[8]&0xf0, int(z.hdr[8]&0x0f)
	clen := binary.LittleEndian.Uint32(z.hdr[9:])
	olen := binary.LittleEndian.Uint32(z.hdr[13:])
	check := binary.LittleEndian.Uint32(z.hdr[17:])
	if olen > 1<<(level+10) || olen > MaxBlock || clen > MaxBlock ||
		(method == 0x10 && clen != olen) || (method != 0x10 && method != 0x20) {
		return fmt.Errorf("lz4: block at byte %d: bad header (method %#x, level %d, lengths %d/%d)", at, method, level, clen, olen)
	}
	if cap(z.src) < int(clen) {
		z.src = make([]byte, clen)
	}
	z.src = z.src[:clen]
	n, err = io.ReadFull(z.r, z.src)
	z.read += int64(n)
	if err != nil {
		return fmt.Errorf("lz4: block at byte %d: %w", at, io.ErrUnexpectedEOF)
	}
	if cap(z.out) < int(olen) {
		z.out = make([]byte, olen)
	}
	z.out, z.pos = z.out[:olen], 0
	if method == 0x10 {
		copy(z.out, z.src)
	} else if m, err := dc.LZ4Block(z.out, z.src); err != nil {
		return fmt.Errorf("lz4: block at byte %d: corrupt data: %w", at, err)
	} else if m != int(olen) {
		return fmt.Errorf("lz4: block at byte %d: corrupt data: %d bytes decoded, the header says %d", at, m, olen)
	}
	if olen > 0 && xxh32(z.out, lz4Seed)&0x0fffffff != check {
		return fmt.Errorf("lz4: block at byte %d: checksum mismatch", at)
	}
	return nil
}

// snappyStream reads snappy-java's SnappyOutputStream format, which Spark's
// SnappyCompressionCodec writes: a 16-byte header (the magic "\x82SNAPPY\x00", then version
// and compatible version as big-endian int32), then chunks of a big-endian int32 length and
// a raw snappy block. A header may appear again where a chunk would start (streams
// concatenated); its first byte would be a negative length, so the two are told apart.
type snappyStream struct {
	r      *bufio.Reader
	out    []byte
	pos    int
	src    []byte
	header bool
	read   int64
}

const snappyMagic = "\x82SNAPPY\x00"

func newSnappyStream(r io.Reader) *snappyStream { return &snappyStream{r: bufio.NewReader(r)} }

// Read implements io.Reader.
func (s *snappyStream) Read(p []byte) (int, error) {
	for s.pos == len(s.out) {
		if err := s.chunk(); err != nil {
			return 0, err
		}
	}
	n := copy(p, s.out[s.pos:])
	s.pos += n
	return n, nil
}

func (s *snappyStream) chunk() error {
	at := s.read
	var l [4]byte
	n, err := io.ReadFull(s.r, l[:])
	s.read += int64(n)
	if err != nil {
		if errors.Is(err, io.EOF) && s.header {
			return io.EOF
		}
		return fmt.Errorf("snappy: chunk at byte %d: %w", at, io.ErrUnexpectedEOF)
	}
	if l[0] == snappyMagic[0] || !s.header {
		var rest [12]byte
		n, err := io.ReadFull(s.r, rest[:])
		s.read += int64(n)
		if err != nil || !bytes.Equal(append(l[:], rest[:4]...), []byte(snappyMagic)) {
			return fmt.Errorf("snappy: not a snappy-java stream (Spark's snappy codec): bad header at byte %d", at)
		}
		s.header = true
		s.out, s.pos = s.out[:0], 0
		return nil
	}
	clen := binary.BigEndian.Uint32(l[:])
	if clen > MaxBlock {
		return fmt.Errorf("snappy: chunk at byte %d: length %d over %d", at, clen, MaxBlock)
	}
	if cap(s.src) < int(clen) {
		s.src = make([]byte, clen)
	}
	s.src = s.src[:clen]
	n, err = io.ReadFull(s.r, s.src)
	s.read += int64(n)
	if err != nil {
		return fmt.Errorf("snappy: chunk at byte %d: %w", at, io.ErrUnexpectedEOF)
	}
	olen, _, err := dc.SnappyLen(s.src)
	if err != nil {
		return fmt.Errorf("snappy: chunk at byte %d: corrupt data: %w", at, err)
	}
	if olen > MaxBlock {
		return fmt.Errorf("snappy: chunk at byte %d: corrupt data: decoded length %d over %d", at, olen, MaxBlock)
	}
	if cap(s.out) < olen {
		s.out = make([]byte, olen)
	}
	out, err := dc.Snappy(s.out[:olen], s.src)
	if err != nil {
		return fmt.Errorf("snappy: chunk at byte %d: corrupt data: %w", at, err)
	}
	s.out, s.pos = out, 0
	return nil
}

// xxh32 is the 32-bit xxHash of b with seed, as lz4-java's StreamingXXHash32 computes it.
func xxh32(b []byte, seed uint32) uint32 {
	const p1, p2, p3, p4, p5 = 2654435761, 2246822519, 3266489917, 668265263, 374761393
	round := func(acc, in uint32) uint32 { return bits.RotateLeft32(acc+in*p2, 13) * p1 }
	n := len(b)
	var h uint32
	if n >= 16 {
		v1, v2, v3, v4 := seed+p1+p2, seed+p2, seed, seed-p1
		for ; len(b) >= 16; b = b[16:] {
			v1 = round(v1, binary.LittleEndian.Uint32(b))
			v2 = round(v2, binary.LittleEndian.Uint32(b[4:]))
			v3 = round(v3, binary.LittleEndian.Uint32(b[8:]))
			v4 = round(v4, binary.LittleEndian.Uint32(b[12:]))
		}
		h = bits.RotateLeft32(v1, 1) + bits.RotateLeft32(v2, 7) + bits.RotateLeft32(v3, 12) + bits.RotateLeft32(v4, 18)
	} else {
		h = seed + p5
	}
	h += uint32(n)
	for ; len(b) >= 4; b = b[4:] {
		h = bits.RotateLeft32(h+binary.LittleEndian.Uint32(b)*p3, 17) * p4
	}
	for _, c := range b {
		h = bits.RotateLeft32(h+uint32(c)*p5, 11) * p1
	}
	h ^= h >> 15
	h *= p2
	h ^= h >> 13
	h *= p3
	h ^= h >> 16
	return h
}

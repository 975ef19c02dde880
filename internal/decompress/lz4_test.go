package decompress

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/pierrec/lz4/v4"
)

// samples are inputs of the shapes event logs have (JSON lines, long repeats, short
// patterns that make overlapping matches) plus the edges (empty, one byte, random bytes that
// do not compress).
func samples() map[string][]byte {
	r := rand.New(rand.NewPCG(1, 2))
	random := make([]byte, 70_000)
	for i := range random {
		random[i] = byte(r.Uint32())
	}
	var json bytes.Buffer
	for i := range 3000 {
		fmt.Fprintf(&json, `{"Event":"SparkListenerTaskEnd","Stage ID":%d,"Task Info":{"Task ID":%d,"Host":"localhost"}}`+"\n", i%7, i)
	}
	return map[string][]byte{
		"empty":      {},
		"one byte":   {'x'},
		"short":      []byte("hello, hello, hello"),
		"run":        bytes.Repeat([]byte{'a'}, 100_000),
		"pattern":    bytes.Repeat([]byte("abc"), 30_000),
		"random":     random,
		"json lines": json.Bytes(),
	}
}

func TestLZ4BlockAgainstReference(t *testing.T) {
	for name, in := range samples() {
		t.Run(name, func(t *testing.T) {
			for _, level := range []lz4.CompressionLevel{lz4.Fast, lz4.Level9} {
				enc := make([]byte, lz4.CompressBlockBound(len(in)))
				var n int
				var err error
				if level == lz4.Fast {
					n, err = lz4.CompressBlock(in, enc, nil)
				} else {
					n, err = lz4.CompressBlockHC(in, enc, level, nil, nil)
				}
				if err != nil {
					t.Fatal(err)
				}
				if n == 0 { // incompressible: the reference encoder gives up; write it as literals
					n = literalsOnlyLZ4(in, enc)
				}
				out := make([]byte, len(in))
				m, err := LZ4Block(out, enc[:n])
				if err != nil || m != len(in) || !bytes.Equal(out, in) {
					t.Fatalf("level %v: decoded %d bytes, err %v; want %d bytes equal to the input", level, m, err, len(in))
				}
				// One byte short of the output: an error, never a write past the buffer.
				if len(in) > 0 {
					if _, err := LZ4Block(make([]byte, len(in)-1), enc[:n]); err == nil {
						t.Errorf("level %v: decoded into a buffer one byte short", level)
					}
				}
			}
		})
	}
}

// literalsOnlyLZ4 writes src as one LZ4 sequence of literals only.
func literalsOnlyLZ4(src, dst []byte) int {
	d := 0
	if len(src) < 15 {
		dst[0] = byte(len(src) << 4)
		d = 1
	} else {
		dst[0] = 0xf0
		d = 1
		n := len(src) - 15
		for ; n >= 255; n -= 255 {
			dst[d] = 255
			d++
		}
		dst[d] = byte(n)
		d++
	}
	return d + copy(dst[d:], src)
}

func TestLZ4BlockMalformed(t *testing.T) {
	cases := []struct {
		name, in string
		out      int
		want     string
		at       int64
	}{
		{"literals past input", "\x50abc", 10, "literals run past the end", 1},
		{"literals past output", "\x30abc", 2, "literals overflow", 1},
		{"literal length cut", "\xf0\xff", 300, "literal length runs past", 3 - 1},
		{"offset cut", "\x10a\x01", 10, "match offset cut off", 2},
		{"offset zero", "\x10a\x00\x00", 10, "offset out of range", 2},
		{"offset before start", "\x10a\x02\x00", 10, "offset out of range", 2},
		{"match past output", "\x1fa\x01\x00\x10", 10, "match overflows", 5},
		{"match length cut", "\x1fa\x01\x00\xff", 1000, "match length runs past", 5},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := LZ4Block(make([]byte, c.out), []byte(c.in))
			var e *Error
			if !errors.As(err, &e) || !bytes.Contains([]byte(e.Reason), []byte(c.want)) || e.Offset != c.at {
				t.Fatalf("err = %v, want %q at byte %d", err, c.want, c.at)
			}
		})
	}
}

func TestLZ4BlockOverlap(t *testing.T) {
	// "ab" then a match of 10 at offset 2: the source overlaps what is written.
	out := make([]byte, 12)
	n, err := LZ4Block(out, []byte("\x26ab\x02\x00"))
	if err != nil || string(out[:n]) != "abababababab" {
		t.Fatalf("got %q, %v", out[:n], err)
	}
}

// FuzzLZ4Block: arbitrary bytes decode or fail within the output bound, never panic; and
// whatever the reference encoder makes of them decodes back to them.
func FuzzLZ4Block(f *testing.F) {
	for _, in := range samples() {
		f.Add(in[:min(len(in), 2000)])
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		out := make([]byte, 4096)
		if n, err := LZ4Block(out, in); err == nil && n > len(out) {
			t.Fatalf("wrote %d bytes into %d", n, len(out))
		}
		enc := make([]byte, lz4.CompressBlockBound(len(in)))
		n, err := lz4.CompressBlock(in, enc, nil)
		if err != nil || n == 0 {
			return
		}
		dec := make([]byte, len(in))
		if m, err := LZ4Block(dec, enc[:n]); err != nil || m != len(in) || !bytes.Equal(dec, in) {
			t.Fatalf("round trip: %d bytes, %v", m, err)
		}
	})
}

func BenchmarkLZ4Block(b *testing.B) {
	in := samples()["json lines"]
	enc := make([]byte, lz4.CompressBlockBound(len(in)))
	n, err := lz4.CompressBlock(in, enc, nil)
	if err != nil {
		b.Fatal(err)
	}
	enc = enc[:n]
	out := make([]byte, len(in))
	b.Run("decompress", func(b *testing.B) {
		loopCPU(b, len(in), func() error { _, err := LZ4Block(out, enc); return err })
	})
	b.Run("pierrec-lz4", func(b *testing.B) {
		loopCPU(b, len(in), func() error { _, err := lz4.UncompressBlock(enc, out); return err })
	})
}

package decompress

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// encodeZstd compresses in with the reference encoder (klauspost/compress) as configured.
func encodeZstd(tb testing.TB, in []byte, opts ...zstd.EOption) []byte {
	tb.Helper()
	var buf bytes.Buffer
	w, err := zstd.NewWriter(&buf, opts...)
	if err != nil {
		tb.Fatal(err)
	}
	// Written in pieces, so that streams of several blocks come out as a streaming encoder
	// (zstd-jni in Spark) makes them.
	for i := 0; i < len(in); i += 50_000 {
		if _, err := w.Write(in[i:min(i+50_000, len(in))]); err != nil {
			tb.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

func decodeZstd(b []byte, maxWindow int) ([]byte, error) {
	return io.ReadAll(NewZstdReader(bytes.NewReader(b), maxWindow))
}

func TestZstdAgainstReference(t *testing.T) {
	levels := []zstd.EncoderLevel{zstd.SpeedFastest, zstd.SpeedDefault, zstd.SpeedBetterCompression, zstd.SpeedBestCompression}
	for name, in := range samples() {
		for _, level := range levels {
			for _, crc := range []bool{true, false} {
				enc := encodeZstd(t, in, zstd.WithEncoderLevel(level), zstd.WithEncoderCRC(crc), zstd.WithEncoderConcurrency(1))
				got, err := decodeZstd(enc, 64<<20)
				if err != nil || !bytes.Equal(got, in) {
					t.Fatalf("%s, level %v, crc %v: %d bytes, %v; want %d bytes equal to the input", name, level, crc, len(got), err, len(in))
				}
			}
			// One shot (EncodeAll): a single-segment frame with its content size.
			e, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(level))
			if err != nil {
				t.Fatal(err)
			}
			got, err := decodeZstd(e.EncodeAll(in, nil), 64<<20)
			if err != nil || !bytes.Equal(got, in) {
				t.Fatalf("%s, level %v, one shot: %d bytes, %v", name, level, len(got), err)
			}
		}
	}
}

func TestZstdWindowAndFrames(t *testing.T) {
	in := samples()["json lines"]
	// A small window: matches reach back across blocks, never past the window.
	small := encodeZstd(t, in, zstd.WithWindowSize(1<<10), zstd.WithEncoderConcurrency(1))
	if got, err := decodeZstd(small, 1<<10); err != nil || !bytes.Equal(got, in) {
		t.Fatalf("1 KiB window: %d bytes, %v", len(got), err)
	}
	// A window over the limit is refused before anything is allocated for it.
	big := encodeZstd(t, in, zstd.WithWindowSize(8<<20), zstd.WithEncoderConcurrency(1))
	if _, err := decodeZstd(big, 1<<20); err == nil || !strings.Contains(err.Error(), "over the limit") {
		t.Fatalf("8 MiB window under a 1 MiB limit: %v", err)
	}
	// Frames one after another, with a skippable frame between them, read as one stream.
	skip := []byte{0x5e, 0x2a, 0x4d, 0x18, 3, 0, 0, 0, 'x', 'y', 'z'}
	cat := append(append(append([]byte{}, small...), skip...), small...)
	if got, err := decodeZstd(cat, 1<<20); err != nil || !bytes.Equal(got, append(append([]byte{}, in...), in...)) {
		t.Fatalf("two frames: %d bytes, %v", len(got), err)
	}
	if got, err := decodeZstd(nil, 1<<20); err != nil || len(got) != 0 {
		t.Fatalf("empty input: %q, %v", got, err)
	}
}

func TestZstdMalformed(t *testing.T) {
	in := samples()["json lines"]
	enc := encodeZstd(t, in, zstd.WithEncoderCRC(true), zstd.WithEncoderConcurrency(1))
	flip := func(i int) []byte { b := bytes.Clone(enc); b[i] ^= 0x40; return b }
	cases := []struct {
		name string
		in   []byte
		want string
	}{
		{"bad magic", []byte("not zstd at all"), "not a Zstandard frame"},
		{"magic cut", []byte{0x28, 0xb5}, "frame magic cut off"},
		{"header cut", enc[:5], "frame header cut off"},
		{"reserved bit", func() []byte { b := bytes.Clone(enc); b[4] |= 0x08; return b }(), "reserved bit"},
		{"dictionary", []byte{0x28, 0xb5, 0x2f, 0xfd, 0x01, 0x58, 0x07}, "dictionary 7"},
		{"cut mid-stream", enc[:len(enc)/2], "cut off"},
		{"checksum", flip(len(enc) - 2), "content checksum mismatch"},
		{"corrupt block", flip(len(enc) / 3), ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := decodeZstd(c.in, 64<<20)
			var e *Error
			if !errors.As(err, &e) || !strings.Contains(e.Error(), c.want) {
				t.Fatalf("err = %v, want a positioned error with %q", err, c.want)
			}
		})
	}
}

// FuzzZstd: arbitrary bytes decode or fail, never panic, within the window limit; and what
// the reference encoder makes of them decodes back to them.
func FuzzZstd(f *testing.F) {
	for _, in := range samples() {
		in = in[:min(len(in), 3000)]
		f.Add(in)
		f.Add(encodeZstd(f, in, zstd.WithEncoderConcurrency(1)))
		f.Add(encodeZstd(f, in, zstd.WithEncoderLevel(zstd.SpeedBestCompression), zstd.WithEncoderConcurrency(1)))
	}
	e, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1), zstd.WithEncoderCRC(true))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		got, err := io.ReadAll(io.LimitReader(NewZstdReader(bytes.NewReader(in), 1<<16), 1<<20))
		if err == nil && len(got) > 1<<20 {
			t.Fatal("read past the limit")
		}
		if back, err := decodeZstd(e.EncodeAll(in, nil), 1<<20); err != nil || !bytes.Equal(back, in) {
			t.Fatalf("round trip: %v", err)
		}
	})
}

func BenchmarkZstd(b *testing.B) {
	in := samples()["json lines"]
	enc := encodeZstd(b, in, zstd.WithEncoderConcurrency(1), zstd.WithEncoderCRC(true))
	out := make([]byte, 0, len(in))
	r := NewZstdReader(nil, 8<<20)
	b.Run("decompress", func(b *testing.B) {
		loopCPU(b, len(in), func() error {
			r.Reset(bytes.NewReader(enc))
			_, err := io.ReadFull(r, out[:len(in)])
			return err
		})
	})
	d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("klauspost-zstd", func(b *testing.B) {
		loopCPU(b, len(in), func() error {
			if err := d.Reset(bytes.NewReader(enc)); err != nil {
				return err
			}
			_, err := io.ReadFull(d, out[:len(in)])
			return err
		})
	})
}

// TestZstdReset reads two streams with one reader: nothing of the first leaks into the second.
func TestZstdReset(t *testing.T) {
	a, b := samples()["json lines"], samples()["pattern"]
	r := NewZstdReader(bytes.NewReader(encodeZstd(t, a, zstd.WithEncoderConcurrency(1))), 8<<20)
	if got, err := io.ReadAll(r); err != nil || !bytes.Equal(got, a) {
		t.Fatalf("first stream: %v", err)
	}
	r.Reset(bytes.NewReader(encodeZstd(t, b, zstd.WithEncoderConcurrency(1))))
	if got, err := io.ReadAll(r); err != nil || !bytes.Equal(got, b) {
		t.Fatalf("second stream: %v", err)
	}
}

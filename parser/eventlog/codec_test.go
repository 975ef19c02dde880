package eventlog

import (
	"bytes"
	"encoding/binary"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/klauspost/compress/snappy"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// TestCodecsAgainstReference decodes every compressed event log Spark recorded
// (fixtures/eventlog: lz4, snappy and zstd from 3.5.9 and 4.3.0, rolled logs included) with
// this package's readers, on our own block decoders (internal/decompress), and with the
// libraries they replace, and wants the same bytes. The libraries are test-only imports: the
// linter's build has none of them (internal/archtest's TestLightBuildImports).
func TestCodecsAgainstReference(t *testing.T) {
	var files []string
	for _, p := range []string{"*/*/*", "*/rolled/*/events_*"} {
		m, err := filepath.Glob("../../fixtures/eventlog/" + p)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	seen := map[string]int{}
	for _, path := range files {
		codec := Codec(path)
		if codec == "" {
			continue
		}
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		r, done, err := decompress(codec, bytes.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(r)
		done()
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		want := referenceDecode(t, codec, raw)
		if !bytes.Equal(got, want) {
			t.Fatalf("%s: decoded %d bytes, the reference %d, and they differ", path, len(got), len(want))
		}
		if !bytes.HasPrefix(got, []byte(`{"Event":"SparkListenerLogStart"`)) {
			t.Errorf("%s: decoded log does not start with Spark's first event: %.40q", path, got)
		}
		seen[codec]++
	}
	for _, c := range []string{"lz4", "snappy", "zstd"} {
		if seen[c] < 2 {
			t.Errorf("%d recorded %s logs decoded, want one per Spark series at least", seen[c], c)
		}
	}
}

// referenceDecode decodes a whole log with the reference libraries: zstd's own reader, and
// the lz4-java and snappy-java framings (read here again) around pierrec/lz4's and
// klauspost's block decoders.
func referenceDecode(t *testing.T, codec string, b []byte) []byte {
	t.Helper()
	var out []byte
	switch codec {
	case "zstd":
		d, err := zstd.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		if out, err = io.ReadAll(d); err != nil {
			t.Fatal(err)
		}
	case "lz4":
		for len(b) >= 21 {
			clen, olen := binary.LittleEndian.Uint32(b[9:]), binary.LittleEndian.Uint32(b[13:])
			block := make([]byte, olen)
			if b[8]&0xf0 == 0x10 {
				copy(block, b[21:21+clen])
			} else if _, err := lz4.UncompressBlock(b[21:21+clen], block); err != nil {
				t.Fatal(err)
			}
			out, b = append(out, block...), b[21+clen:]
		}
	case "snappy":
		for len(b) >= 4 {
			if b[0] == snappyMagic[0] {
				b = b[16:]
				continue
			}
			n := binary.BigEndian.Uint32(b)
			block, err := snappy.Decode(nil, b[4:4+n])
			if err != nil {
				t.Fatal(err)
			}
			out, b = append(out, block...), b[4+n:]
		}
	}
	return out
}

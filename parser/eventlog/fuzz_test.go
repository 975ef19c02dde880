package eventlog

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzReadStream feeds arbitrary bytes to the reader under each codec's name: it must return
// an error or a result, never panic, and stay within its limits.
func FuzzReadStream(f *testing.F) {
	f.Add([]byte(sampleLog), uint8(0))
	for i, p := range []string{"3.5/lz4/*.lz4", "3.5/rolled/*/events_1_*"} {
		if m, _ := filepath.Glob("../../fixtures/eventlog/" + p); len(m) > 0 {
			if b, err := os.ReadFile(m[0]); err == nil && len(b) < 1<<20 {
				f.Add(b[:min(len(b), 4096)], uint8(i+1))
			}
		}
	}
	f.Add([]byte("\x82SNAPPY\x00\x00\x00\x00\x01\x00\x00\x00\x01\x00\x00\x00\x03\x02\x04ab"), uint8(2))
	names := []string{"log", "log.lz4", "log.zstd", "log.snappy.inprogress"}
	f.Fuzz(func(t *testing.T, data []byte, codec uint8) {
		name := names[int(codec)%len(names)]
		opt := Options{Limits: Limits{MaxLine: 1 << 16, MaxDepth: 50, MaxNodes: 500, MaxLive: 50}, Stages: true}
		_, _ = ReadStream(bytes.NewReader(data), name, opt, func(e *Execution) error {
			if e.Plan != nil {
				depth := 0
				var walk func(*Node, int)
				walk = func(n *Node, d int) {
					depth = max(depth, d)
					for _, c := range n.Children {
						walk(c, d+1)
					}
				}
				walk(e.Plan, 1)
				if depth > 50 {
					t.Fatalf("plan of depth %d over the limit", depth)
				}
			}
			return nil
		})
	})
}

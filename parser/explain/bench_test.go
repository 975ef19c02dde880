package explain

import (
	"testing"
)

// BenchmarkParseCorpus parses every explain file of the corpus per iteration; the bytes per
// second are the parser's throughput (target: 100 MB/s per core, run with -cpu 1).
func BenchmarkParseCorpus(b *testing.B) {
	root := corpusRoot(b)
	if root == "" {
		b.Skip("corpus not found: set BUCKETLINT_CORPUS or check out ../shared/corpus")
	}
	files := corpusFiles(b, root)
	var size int64
	for _, f := range files {
		size += int64(len(f.src))
	}
	b.SetBytes(size)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, f := range files {
			_, _ = Parse(f.rel, f.src)
		}
	}
}

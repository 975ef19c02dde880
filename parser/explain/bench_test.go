package explain

import (
	"os"
	"testing"

	"github.com/bucketlint/bucketlint/internal/cputime"
)

// BenchmarkParseCorpus parses every explain file of the corpus per iteration; the bytes per
// second are the parser's throughput (target: 150 MB/s per core, run with -cpu 1). The bytes
// parsed are written to $BUCKETLINT_BENCH_OUT when set, for a peer (cat, gzip) to be timed on.
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
	cpu0 := cputime.Process()
	for b.Loop() {
		for _, f := range files {
			_, _ = Parse(f.rel, f.src)
		}
	}
	if cpu := (cputime.Process() - cpu0).Seconds(); cpu > 0 {
		b.ReportMetric(float64(size)*float64(b.N)/cpu/1e6, "MB/cpu-s")
	}
	if out := os.Getenv("BUCKETLINT_BENCH_OUT"); out != "" {
		var all []byte
		for _, f := range files {
			all = append(all, f.src...)
		}
		if err := os.WriteFile(out, all, 0o600); err != nil {
			b.Fatal(err)
		}
	}
}

package decompress

import (
	"testing"

	"github.com/bucketlint/bucketlint/internal/cputime"
)

// loopCPU runs decode b.N times over n decoded bytes and reports, besides the wall-clock
// figures, the decoded bytes per CPU-second of the whole process, which a shared machine
// distorts far less than wall-clock time. Each decoder's benchmark runs this package's
// decoder and the reference library's on the same input in the same run, so their ratio is
// what BENCHMARKS.md records.
func loopCPU(b *testing.B, n int, decode func() error) {
	b.Helper()
	b.SetBytes(int64(n))
	cpu0 := cputime.Process()
	for b.Loop() {
		if err := decode(); err != nil {
			b.Fatal(err)
		}
	}
	if cpu := (cputime.Process() - cpu0).Seconds(); cpu > 0 {
		b.ReportMetric(float64(n)*float64(b.N)/cpu/1e6, "MB/cpu-s")
	}
}

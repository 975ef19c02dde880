package main

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/internal/cputime"
)

// BenchmarkCheckCorpus checks the whole corpus ($BUCKETLINT_CORPUS, default ../shared/corpus
// from the module root) and the fixtures in one run, on one core (GOMAXPROCS=1), and reports
// seconds per run.
func BenchmarkCheckCorpus(b *testing.B) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1)) // one core, whatever -cpu says
	benchCheck(b, "json")
}

// BenchmarkCheckCores is BenchmarkCheckCorpus on the cores -cpu gives (GOMAXPROCS), with
// text output, as `bucketlint check` runs by default: `-cpu 1,2` measures the speed-up the
// second core gives (files parsed, join sites built and rules run side by side). It reports
// wall seconds per run (s/run) and the CPU seconds of the process per run (cpu-s/run), which
// on a shared machine say whether the second core's work is extra work.
func BenchmarkCheckCores(b *testing.B) {
	benchCheck(b, "text")
}

func benchCheck(b *testing.B, format string) {
	b.Helper()
	corpus := os.Getenv("BUCKETLINT_CORPUS")
	if corpus == "" {
		corpus = "../../../shared/corpus"
	}
	corpus, _ = filepath.Abs(corpus)
	if _, err := os.Stat(corpus); err != nil {
		b.Skipf("no corpus at %s (set BUCKETLINT_CORPUS)", corpus)
	}
	fixtures, _ := filepath.Abs("../../fixtures")
	b.Chdir(b.TempDir())
	cpu0 := cputime.Process()
	for b.Loop() {
		s := &streams{in: strings.NewReader(""), out: &bytes.Buffer{}, err: &bytes.Buffer{}}
		if code := runStreams(b.Context(), []string{"check", "--format", format, "--fail-on", "never", corpus, fixtures}, s); code > exitParse {
			b.Fatalf("exit %d: %s", code, s.err)
		}
	}
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/run")
	if cpu := cputime.Process() - cpu0; cpu > 0 {
		b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/run")
	}
}

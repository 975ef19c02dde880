package report

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/bucketlint/bucketlint/internal/cputime"
	"github.com/bucketlint/bucketlint/parser/explain"
)

// tpcPlans returns the corpus's TPC explain.txt files ($BUCKETLINT_CORPUS, default
// ../shared/corpus from the module root) as one text, as `bucketlint plan` reads a file
// holding many explain outputs; nil when there is no corpus.
func tpcPlans(tb testing.TB) []byte {
	tb.Helper()
	root := os.Getenv("BUCKETLINT_CORPUS")
	if root == "" {
		root = filepath.Join("..", "..", "shared", "corpus")
	}
	var all []byte
	_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() == "explain.txt" {
			if src, err := os.ReadFile(path); err == nil {
				all = append(all, src...)
			}
		}
		return nil
	})
	return all
}

// BenchmarkPlanWriters writes the corpus's TPC plans (9 MB of explain text) in every format of
// `bucketlint plan`, with parsing the same text as the peer: bytes per second are explain
// text per second, so a writer at least as fast as the parser shows at least its MB/cpu-s
// (run with -cpu 1). The text written is discarded. $BUCKETLINT_BENCH_OUT, when set, receives
// the input, for cat or gzip to be timed on.
func BenchmarkPlanWriters(b *testing.B) {
	src := tpcPlans(b)
	if len(src) == 0 {
		b.Skip("corpus not found: set BUCKETLINT_CORPUS or check out ../shared/corpus")
	}
	if out := os.Getenv("BUCKETLINT_BENCH_OUT"); out != "" {
		if err := os.WriteFile(out, src, 0o600); err != nil {
			b.Fatal(err)
		}
	}
	explains, _ := explain.Parse("tpc.txt", src)
	for _, w := range []struct {
		name  string
		write func(io.Writer) error
	}{
		{"parse", func(io.Writer) error { _, _ = explain.Parse("tpc.txt", src); return nil }},
		{"text", func(w io.Writer) error { return PlanText(w, explains, PlanOptions{}) }},
		{"json", func(w io.Writer) error { return PlanJSON(w, "tpc.txt", explains, nil) }},
		{"mermaid", func(w io.Writer) error { return PlanMermaid(w, explains) }},
		{"dot", func(w io.Writer) error { return PlanDot(w, explains) }},
	} {
		b.Run(w.name, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			cpu0 := cputime.Process()
			for b.Loop() {
				if err := w.write(io.Discard); err != nil {
					b.Fatal(err)
				}
			}
			if cpu := (cputime.Process() - cpu0).Seconds(); cpu > 0 {
				b.ReportMetric(float64(len(src))*float64(b.N)/cpu/1e6, "MB/cpu-s")
			}
		})
	}
}

package explain

import (
	"reflect"
	"testing"

	"github.com/bucketlint/bucketlint/plan"
)

// BenchmarkParseExprCorpus parses every expression of the corpus's plans into a tree; the
// bytes per second are the expression parser's own throughput.
func BenchmarkParseExprCorpus(b *testing.B) {
	root := corpusRoot(b)
	if root == "" {
		b.Skip("corpus not found: set BUCKETLINT_CORPUS or check out ../shared/corpus")
	}
	var raws []string
	var size int64
	for _, f := range corpusFiles(b, root) {
		es, _ := Parse(f.rel, f.src)
		for _, e := range es {
			for _, s := range e.Plans {
				plan.WalkAll(s.Root, func(n plan.Node) bool {
					var all []plan.Expr
					exprsOf(reflect.ValueOf(n), &all)
					for _, x := range all {
						raws = append(raws, x.Raw)
						size += int64(len(x.Raw))
					}
					return true
				})
			}
		}
	}
	b.SetBytes(size)
	b.ReportAllocs()
	var a arena
	b.ResetTimer()
	for b.Loop() {
		for _, r := range raws {
			_ = a.parseX(r, true)
		}
	}
}

package explain

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/bucketlint/bucketlint/plan"
)

// fuzzCorpusSamples are corpus files added to the fuzz seeds when the corpus is present.
var fuzzCorpusSamples = []string{
	"spark-golden/spark-4.2-dev/sql/core/src/test/resources/sql-tests/results/explain.sql.out",
	"spark-golden/spark-3.0.3/sql/core/src/test/resources/sql-tests/results/explain-aqe.sql.out",
	"spark-golden/spark-3.1.3/sql/core/src/test/resources/tpcds-plan-stability/approved-plans-v1_4/q14a/explain.txt",
	"spark-golden/spark-test-eventlogs/core/src/test/resources/spark-events/local-1642039451826/003-exec0-SparkListenerSQLAdaptiveExecutionUpdate.txt",
	"third-party/nvidia-spark-rapids-tools/core/src/test/resources/spark-events-qualification/multiple_attempts/attempt_2_eventlog/003-exec0-SparkListenerSQLAdaptiveExecutionUpdate.txt",
}

// FuzzParse feeds Parse arbitrary text, seeded with every golden input and a few corpus
// files: it must not panic, and every error and operator position must lie inside the input.
func FuzzParse(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "*.txtar"))
	for _, path := range paths {
		a, err := txtar.ParseFile(path)
		if err != nil {
			f.Fatal(err)
		}
		for _, file := range a.Files {
			if strings.HasPrefix(file.Name, "input") {
				f.Add(file.Data)
			}
		}
	}
	if root := corpusRoot(f); root != "" {
		for _, rel := range fuzzCorpusSamples {
			if src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel))); err == nil {
				f.Add(src)
			}
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		es, errs := Parse("f", src)
		lines := bytes.Split(src, []byte("\n"))
		if len(lines) > 0 && len(lines[len(lines)-1]) == 0 {
			lines = lines[:len(lines)-1]
		}
		inside := func(what string, p plan.Pos) {
			if p.Line < 1 || p.Line > len(lines) || p.Col < 1 || p.Col > len(lines[p.Line-1])+1 {
				t.Fatalf("%s position %v outside the input (%d lines)", what, p, len(lines))
			}
		}
		for _, e := range errs {
			inside("error", e.Pos)
		}
		for _, e := range es {
			inside("explain", e.Pos)
			for _, s := range e.Plans {
				plan.WalkAll(s.Root, func(n plan.Node) bool {
					inside("operator", n.Info().Pos)
					inside("operator end", n.Info().End)
					for _, fl := range n.Info().Details {
						inside("field", fl.Pos)
					}
					return true
				})
			}
		}
	})
}

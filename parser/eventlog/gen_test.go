package eventlog

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/bucketlint/bucketlint/internal/gen"
)

// sumsOf reads a log and sums every SQL metric by name (and counts the distinct accumulators
// as "accumulators"), and counts executions and stages.
func sumsOf(t *testing.T, log []byte) (map[string]int64, *App) {
	t.Helper()
	sums := map[string]int64{}
	accums := map[int64]bool{}
	app, err := ReadStream(bytes.NewReader(log), "app", Options{Stages: true}, func(e *Execution) error {
		if !e.Ended {
			t.Errorf("execution %d not ended", e.ID)
		}
		e.Plan.Walk(func(n *Node) {
			for _, m := range n.Metrics {
				sums[m.Name] += m.Value
				if !accums[m.Accumulator] {
					accums[m.Accumulator] = true
					sums["accumulators"]++
				}
			}
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return sums, app
}

// TestGeneratedLogRepeatsRecorded checks the benchmarks' generated log (gen.EventLog): the
// recorded Spark 3.5.9 log's body written again and again with its ids moved on reads as that
// many copies of the recorded executions, every metric total and stage that many times the
// recorded one's, so the ids of one copy never mix with another's.
func TestGeneratedLogRepeatsRecorded(t *testing.T) {
	paths, _ := filepath.Glob("../../fixtures/eventlog/3.5/plain/local-*")
	if len(paths) != 1 {
		t.Fatalf("recorded plain log: %v", paths)
	}
	rec, err := os.ReadFile(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	var big bytes.Buffer
	reps, err := gen.EventLog(&big, [][]byte{rec}, 3*int64(len(rec)))
	if err != nil || reps < 3 {
		t.Fatalf("%d repetitions, %v", reps, err)
	}
	want, wantApp := sumsOf(t, rec)
	got, gotApp := sumsOf(t, big.Bytes())
	if gotApp.Executions != reps*wantApp.Executions || len(gotApp.Stages) != reps*len(wantApp.Stages) ||
		gotApp.Incomplete || gotApp.ID != wantApp.ID {
		t.Errorf("%d repetitions: %d executions, %d stages, want %d and %d", reps, gotApp.Executions, len(gotApp.Stages), wantApp.Executions, len(wantApp.Stages))
	}
	if want["shuffle bytes written"] == 0 {
		t.Fatal("the recorded log wrote no shuffle")
	}
	for name, v := range want {
		if got[name] != int64(reps)*v {
			t.Errorf("%s: %d, want %d × %d", name, got[name], reps, v)
		}
	}
}

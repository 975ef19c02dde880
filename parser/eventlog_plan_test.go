package parser

import (
	"path/filepath"
	"testing"

	"github.com/bucketlint/bucketlint/parser/eventlog"
	"github.com/bucketlint/bucketlint/plan"
)

// TestExecutedPlanPairsRecordedLogs reads every execution of the recorded event logs: each
// plan tree must read as a plan whose operators pair one to one with the log's, and the
// plain join's two Exchanges must be hash partitioned on cust with their shuffle bytes.
func TestExecutedPlanPairsRecordedLogs(t *testing.T) {
	logs, _ := filepath.Glob("../fixtures/eventlog/*/zstd/*")
	var n, exchanges int
	for _, l := range logs {
		if filepath.Base(l) == "reported.json" {
			continue
		}
		_, err := eventlog.Read(l, eventlog.Options{}, func(e *eventlog.Execution) error {
			if e.Plan == nil {
				return nil
			}
			ex, pairs, err := ExecutedPlan(l, e.Plan)
			if err != nil || pairs == nil {
				t.Errorf("%s: execution %d (%s): not paired (%v)", l, e.ID, e.Description, err)
				return nil
			}
			n++
			for op, node := range pairs {
				x, ok := op.(*plan.Exchange)
				if !ok {
					continue
				}
				if m, ok := node.Metric("shuffle bytes written"); !ok || m.Value <= 0 {
					t.Errorf("execution %d: %s without shuffle bytes", e.ID, x.Text)
				}
				if k := plan.Texts(x.Partitioning.Keys); len(k) != 1 || k[0] != "cust" {
					t.Errorf("execution %d: keys %v", e.ID, k)
				}
				exchanges++
			}
			_ = ex
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if n < 20 || exchanges < 3 {
		t.Errorf("%d executions paired, %d exchanges", n, exchanges)
	}
}

//go:build engine

package exec

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/bucketlint/bucketlint/parser/explain"
)

// TestSparkPlansExecute runs Spark's own executed plans, read by parser/explain from the
// recorded explain text, on the regenerated compatibility tables: the engine must return
// Spark's rows with no Exchange, as Spark ran them.
func TestSparkPlansExecute(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob(filepath.Join(compatDir, "compat-*.json"))
	if len(files) == 0 {
		t.Skip("no recorded Spark results")
	}
	cat, _ := writeCompatTables(t, t.TempDir())
	for _, f := range files {
		var rec compatRecord
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &rec); err != nil {
			t.Fatal(err)
		}
		for _, q := range rec.Queries {
			if q.PhysicalPlan == "" || sparkDiffers(rec.SparkVersion, q.Name) != "" {
				continue
			}
			t.Run(rec.SparkVersion+"/"+q.Name, func(t *testing.T) {
				exps, errs := explain.Parse(q.Name, []byte(q.PhysicalPlan))
				if len(errs) > 0 || len(exps) != 1 {
					t.Fatalf("parse Spark's plan: %v", errs)
				}
				res, err := Execute(context.Background(), exps[0].Physical(), cat, Options{})
				if err != nil {
					t.Fatalf("%v\n%s", err, q.PhysicalPlan)
				}
				if got := res.Checksum(); got != q.Checksum || res.Stats.Exchanges != 0 {
					t.Fatalf("engine %s with %d exchanges, Spark %s", got, res.Stats.Exchanges, q.Checksum)
				}
			})
		}
	}
}

//go:build engine

package verify

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"testing"
)

// TestSparkLive runs one advised scenario on a real local Spark (the built-in verify_spark.py under
// the pinned pyspark venv): Spark must plan as many Exchanges as predicted before and after
// and return the engine's rows on both sides. Opt-in: BUCKETLINT_SPARK set; the Python is
// $BUCKETLINT_PYTHON or the newest venv under ${BUCKETLINT_VENV_DIR:-~/.cache/bucketlint}.
func TestSparkLive(t *testing.T) {
	if os.Getenv("BUCKETLINT_SPARK") == "" {
		t.Skip("set BUCKETLINT_SPARK=1 to run against a local Spark")
	}
	py := os.Getenv("BUCKETLINT_PYTHON")
	if py == "" {
		dir := os.Getenv("BUCKETLINT_VENV_DIR")
		if dir == "" {
			home, err := os.UserHomeDir()
			if err != nil {
				t.Fatal(err)
			}
			dir = filepath.Join(home, ".cache", "bucketlint")
		}
		found, _ := filepath.Glob(filepath.Join(dir, "venv-3.5*", "bin", "python"))
		if len(found) == 0 {
			t.Skipf("no pyspark 3.5 venv under %s (oracle/setup.sh 3.5)", dir)
		}
		sort.Strings(found)
		py = found[len(found)-1]
	}
	sc := advised(t, txnDDL)
	res, err := Run(context.Background(), sc, Options{
		Rows: 3000, Seed: 11, Sim: simOptions(t), TempRoot: t.TempDir(),
		Spark: &SparkCheck{Python: py, Master: "local[2]"}, // the built-in script
	})
	if err != nil {
		t.Fatal(err)
	}
	r := res[0]
	if r.Spark == nil || !r.Spark.Agrees() || !r.Reproduced() {
		t.Fatalf("spark %+v\nengine %+v", r.Spark, r)
	}
	t.Logf("spark %s: exchanges %d → %d, checksum %s; engine %s", r.Spark.Version, r.Spark.Before.Exchanges, r.Spark.After.Exchanges, r.Spark.After.Checksum, r.After.Checksum)
}

//go:build engine

package verify

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// fakePython stands in for a pyspark interpreter: it keeps the script and manifest it was
// given and the directory it ran in, under $FAKE_SPARK_DIR, and answers one Exchange before
// and none after.
const fakePython = `#!/bin/sh
# argv: script --manifest M --out R --work D
cp "$1" "$FAKE_SPARK_DIR/script.py"
cp "$3" "$FAKE_SPARK_DIR/manifest.json"
pwd > "$FAKE_SPARK_DIR/cwd"
printf '{"spark_version":"fake","sides":[{"exchanges":1,"checksum":{"rows":0,"sum":0},"millis":1,"plan":[]},{"exchanges":0,"checksum":{"rows":0,"sum":0},"millis":1,"plan":[]}]}' > "$5"
`

// TestSparkCheckRunsBuiltInScript: verify --spark runs the verify_spark.py built into the
// binary, outside the working directory, and passes on only Spark SQL planner settings, the
// after side's advised settings apart (issue 14: the script was found by walking up from
// the working directory, and spark.jars or extraJavaOptions from the repository reached Spark).
func TestSparkCheckRunsBuiltInScript(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake interpreter is a shell script")
	}
	dir := t.TempDir()
	py := filepath.Join(dir, "python")
	if err := os.WriteFile(py, []byte(fakePython), 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("FAKE_SPARK_DIR", dir)
	sc := advised(t, `CREATE TABLE a (k BIGINT, v INT) USING parquet CLUSTERED BY (k) INTO 8 BUCKETS;
CREATE TABLE b (k BIGINT, w INT) USING parquet CLUSTERED BY (k) INTO 4 BUCKETS;
SELECT a.k, v, w FROM a JOIN b ON a.k = b.k;
`)
	confs := map[string]string{
		"spark.sql.shuffle.partitions": "7", "spark.jars": "/tmp/evil.jar",
		"spark.driver.extraJavaOptions": "-javaagent:/tmp/evil.jar", "spark.sql.extensions": "evil.Ext",
		"spark.sql.autoBroadcastJoinThreshold": "64MB",
	}
	root := t.TempDir()
	res, err := Run(context.Background(), sc, Options{
		Rows: 500, Seed: 3, Sim: simOptions(t), TempRoot: root,
		Spark: &SparkCheck{Python: py, Master: "local[1]", Confs: confs},
	})
	if err != nil {
		t.Fatal(err)
	}
	script, err := os.ReadFile(filepath.Join(dir, "script.py"))
	if err != nil || string(script) != sparkScript {
		t.Fatalf("the script run is not the built-in one (%v)", err)
	}
	cwd, _ := os.ReadFile(filepath.Join(dir, "cwd"))
	if wd, _ := os.Getwd(); strings.TrimSpace(string(cwd)) == wd || !strings.Contains(string(cwd), "bucketlint-verify-") {
		t.Errorf("the script ran in %s, want the run's temporary directory", cwd)
	}
	var m sparkManifest
	raw, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	// Broadcast joins stay off whatever the workload sets: the sample's tables are small.
	if m.Confs["spark.sql.shuffle.partitions"] != "7" || m.Confs["spark.sql.autoBroadcastJoinThreshold"] != "-1" || len(m.Confs) != 2 {
		t.Errorf("confs passed on: %v", m.Confs)
	}
	if m.AfterConfs["spark.sql.bucketing.coalesceBucketsInJoin.enabled"] != "true" {
		t.Errorf("after confs: %v", m.AfterConfs)
	}
	notes := strings.Join(res[0].Notes, "\n")
	for _, k := range []string{"spark.jars", "spark.driver.extraJavaOptions", "spark.sql.extensions", "spark.sql.autoBroadcastJoinThreshold=64MB"} {
		if !strings.Contains(notes, k+" is not passed on") {
			t.Errorf("%s dropped without a note: %q", k, res[0].Notes)
		}
	}
	if left, _ := os.ReadDir(root); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
}

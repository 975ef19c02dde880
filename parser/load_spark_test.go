package parser

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/plan"

	"github.com/bucketlint/bucketlint/parser/sql"
)

// scenarioTable is the part of an oracle scenario.json table that Spark's catalog reported.
type scenarioTable struct {
	Name   string `json:"name"`
	Format string `json:"format"` // "parquet", "orc", "json", "hive-parquet", "hive-orc", …
	Bucket *struct {
		Buckets int      `json:"buckets"`
		By      []string `json:"by"`
		Sort    []string `json:"sort"`
	} `json:"bucket"`
	Partition        []string        `json:"partition"`
	DescribeExtended string          `json:"describe_extended"`
	ShowCreate       string          `json:"show_create"`
	Error            json.RawMessage `json:"error"`
}

// TestLoadSparkTables loads the tables/ directory of every Spark 3.5 and 4.3 scenario recorded
// by oracle/ (real DESCRIBE TABLE EXTENDED and SHOW CREATE TABLE output of Spark 3.5.9 and
// 4.3.0) and
// checks, for each table, that the merged bucket spec, format and partition columns are what
// scenario.json says Spark's catalog held, and that DESCRIBE and SHOW CREATE of the same table
// agree: no conflict, no error.
func TestLoadSparkTables(t *testing.T) {
	sqlp, err := sql.New()
	if err != nil {
		t.Fatal(err)
	}
	for _, version := range []string{"3.5", "4.3"} {
		t.Run("spark_"+version, func(t *testing.T) { checkSparkTables(t, sqlp, version) })
	}
}

func checkSparkTables(t *testing.T, sqlp *sql.Parser, version string) {
	t.Helper()
	scenarios, err := filepath.Glob("../fixtures/spark/" + version + "/*/*/scenario.json")
	if err != nil || len(scenarios) == 0 {
		t.Skipf("no Spark %s fixtures in ../fixtures/spark/%s", version, version)
	}
	checked, agreed := 0, 0
	for _, path := range scenarios {
		dir := filepath.Dir(path)
		var sc struct {
			Tables []scenarioTable `json:"tables"`
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, &sc); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if _, err := os.Stat(filepath.Join(dir, "tables")); err != nil {
			continue
		}
		proj, errs := Load(t.Context(), []string{filepath.Join(dir, "tables")}, LoadOptions{SQL: sqlp})
		for _, e := range errs {
			t.Errorf("%v", e)
		}
		for _, c := range proj.Conflicts {
			t.Errorf("DESCRIBE and SHOW CREATE disagree: %s", c)
		}
		for _, want := range sc.Tables {
			c, a := checkSparkTable(t, dir, proj, want)
			checked += c
			agreed += a
		}
	}
	if checked == 0 {
		t.Fatal("no scenario table checked")
	}
	t.Logf("%d tables from %d scenarios match scenario.json; DESCRIBE and SHOW CREATE agree on %d", checked, len(scenarios), agreed)
}

// checkSparkTable compares one table of a recorded scenario with what Load read from its
// DESCRIBE and SHOW CREATE output; it returns 1, 0 when the table was checked and 1, 1 when
// both outputs were read for it.
func checkSparkTable(t *testing.T, dir string, proj *plan.Project, want scenarioTable) (checked, agreed int) {
	t.Helper()
	if want.DescribeExtended == "" || string(want.Error) != "" && string(want.Error) != "null" {
		return 0, 0
	}
	name := "default." + strings.ToLower(want.Name)
	got := proj.Tables[name]
	if got == nil {
		t.Errorf("%s: table %s not loaded", dir, name)
		return 0, 0
	}
	hive := strings.HasPrefix(want.Format, "hive-")
	if wantFormat := map[bool]string{true: "hive", false: want.Format}[hive]; got.Format != wantFormat || got.Hive != hive {
		t.Errorf("%s: %s format %q hive=%v, want %q hive=%v", dir, name, got.Format, got.Hive, wantFormat, hive)
	}
	if storage := strings.TrimPrefix(want.Format, "hive-"); hive && got.HiveFormat != storage {
		t.Errorf("%s: %s Hive storage %q, want %q", dir, name, got.HiveFormat, storage)
	}
	if !slices.Equal(got.PartitionColumns, want.Partition) && len(got.PartitionColumns)+len(want.Partition) > 0 {
		t.Errorf("%s: %s partitioned by %v, want %v", dir, name, got.PartitionColumns, want.Partition)
	}
	switch b := want.Bucket; {
	case b == nil && got.Buckets() != nil:
		t.Errorf("%s: %s is %s, want not bucketed", dir, name, got.Buckets())
	case b != nil && (got.Buckets() == nil || got.Buckets().NumBuckets != b.Buckets ||
		!slices.Equal(got.Buckets().Columns, b.By) || !slices.Equal(got.Buckets().SortColumns, b.Sort) && len(got.Buckets().SortColumns)+len(b.Sort) > 0):
		t.Errorf("%s: %s is %s, want %d buckets by %v sorted by %v", dir, name, got.Buckets(), b.Buckets, b.By, b.Sort)
	}
	if want.ShowCreate != "" && len(got.Sources) == 2 {
		return 1, 1
	}
	return 1, 0
}

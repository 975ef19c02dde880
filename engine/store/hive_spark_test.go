//go:build engine

package store

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
)

// hiveRecord is engine/testdata/spark/hive-<version>/record.json, written by
// oracle/hive_written.py.
type hiveRecord struct {
	SparkVersion string `json:"spark_version"`
	Command      string `json:"command"`
	Tables       []struct {
		Name          string   `json:"name"`
		DDL           string   `json:"ddl"`
		Provider      string   `json:"provider"`
		Schema        string   `json:"schema"`
		BucketColumns []string `json:"bucket_columns"`
		SortColumns   []string `json:"sort_columns"`
		Buckets       int      `json:"buckets"`
		Tasks         int      `json:"tasks"`
		Rows          int      `json:"rows"`
		Files         []string `json:"files"`
	} `json:"tables"`
	ScanPlan []string `json:"scan_plan"`
	JoinPlan []string `json:"join_plan"`
}

// TestSparkWrittenHiveTables checks the Hive-format bucketed tables Spark wrote with
// INSERT INTO (engine/testdata/spark/hive-*): they pass Hive validation and fail Murmur3
// validation, and the same rows written by Write in the Hive layout land in files of the
// same task and bucket.
func TestSparkWrittenHiveTables(t *testing.T) {
	t.Parallel()
	dirs, _ := filepath.Glob("../testdata/spark/hive-*")
	if len(dirs) == 0 {
		t.Skip("no Spark-written Hive tables (run oracle/hive_written.py)")
	}
	for _, dir := range dirs {
		var rec hiveRecord
		b, err := os.ReadFile(filepath.Join(dir, "record.json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &rec); err != nil {
			t.Fatal(err)
		}
		if len(rec.Tables) == 0 {
			t.Fatalf("%s records no tables", dir)
		}
		if slices.ContainsFunc(rec.ScanPlan, regexp.MustCompile(`Bucketed: true|SelectedBucketsCount`).MatchString) {
			t.Errorf("Spark %s read a Hive bucketed table with a bucketed scan: %q", rec.SparkVersion, rec.ScanPlan)
		}
		if !slices.ContainsFunc(rec.JoinPlan, regexp.MustCompile(`Exchange hashpartitioning`).MatchString) {
			t.Errorf("Spark %s joined Hive bucketed tables without a shuffle: %q", rec.SparkVersion, rec.JoinPlan)
		}
		for _, tab := range rec.Tables {
			t.Run(rec.SparkVersion+"/"+tab.Name, func(t *testing.T) {
				t.Parallel()
				if tab.Provider != "hive" {
					t.Fatalf("%s has provider %q, want hive", tab.Name, tab.Provider)
				}
				schema, err := ParseSchema(tab.Schema)
				if err != nil {
					t.Fatal(err)
				}
				layout := Layout{Buckets: tab.Buckets, BucketColumns: tab.BucketColumns, SortColumns: tab.SortColumns, Tasks: tab.Tasks, Bucketing: HiveBucketing}
				spark := checkHiveWritten(t, filepath.Join(dir, tab.Name), schema, layout, tab.Rows, len(tab.Files))
				ours := writeLikeSpark(t, spark, schema, layout)
				compareFiles(t, spark, ours)
			})
		}
	}
}

// checkHiveWritten opens and validates a Spark-written Hive table, and checks that the same
// files claimed written with Spark's datasource scheme fail validation.
func checkHiveWritten(t *testing.T, dir string, schema Schema, layout Layout, rows, files int) *Table {
	t.Helper()
	tab, err := Open(dir, schema, layout)
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Files) != files || files != layout.Buckets*layout.Tasks {
		t.Fatalf("%d files on disk, %d recorded, want tasks x buckets = %d", len(tab.Files), files, layout.Buckets*layout.Tasks)
	}
	v, err := Validate(tab, 5)
	if err != nil {
		t.Fatal(err)
	}
	if err := v.Err(); err != nil || v.Rows != int64(rows) {
		t.Fatalf("Spark-written Hive table fails Hive validation (%d rows): %v", v.Rows, err)
	}
	murmur := layout
	murmur.Bucketing = SparkBucketing
	asSpark, err := Open(dir, schema, murmur)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := Validate(asSpark, 1); err != nil || v.Misplaced == 0 {
		t.Fatalf("Spark-written Hive table passes Murmur3 validation (%v)", err)
	}
	if len(layout.SortColumns) > 0 {
		checkSorted(t, tab, schema.Index(layout.SortColumns[0]))
	}
	return tab
}

// writeLikeSpark writes the Spark table's rows with Write in the same layout. The rows are put
// back in the order Spark generated them (v = id / 8 is unique and increasing), so that the
// write tasks get the same contiguous ranges Spark's range partitions had.
func writeLikeSpark(t *testing.T, spark *Table, schema Schema, layout Layout) *Table {
	t.Helper()
	data, err := spark.ReadAll(schema.AllColumns(), Pruning{})
	if err != nil {
		t.Fatal(err)
	}
	order := make([]int32, data.Len)
	for i := range order {
		order[i] = int32(i)
	}
	sortRows(order, data, []int{schema.Index("v")})
	data.Sel = order
	ours, err := Write(context.Background(), filepath.Join(t.TempDir(), "t"), schema, data.Compact(), layout, WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return ours
}

// compareFiles checks that both tables have the same files, by write task and bucket, with
// the same rows.
func compareFiles(t *testing.T, spark, ours *Table) {
	t.Helper()
	task := regexp.MustCompile(`part-(\d+)-`)
	key := func(f File) string {
		return fmt.Sprintf("task %s bucket %d", task.FindStringSubmatch(filepath.Base(f.Path))[1], f.Bucket)
	}
	read := func(tab *Table) map[string][]string {
		out := map[string][]string{}
		for _, f := range tab.Files {
			err := tab.ReadFile(f, tab.Schema.AllColumns(), func(b *Batch) error {
				for i := range b.Len {
					var row []byte
					for _, c := range b.Cols {
						row = append(AppendText(row, c, i), '|')
					}
					out[key(f)] = append(out[key(f)], string(row))
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		return out
	}
	want, got := read(spark), read(ours)
	if len(got) != len(want) {
		t.Fatalf("bucketlint wrote %d files, Spark %d", len(got), len(want))
	}
	for k, rows := range want {
		// Rows with equal sort keys may come in any order, so compare multisets.
		slices.Sort(rows)
		slices.Sort(got[k])
		if !slices.Equal(got[k], rows) {
			t.Errorf("%s: bucketlint wrote %d rows, Spark %d; first %q vs %q", k, len(got[k]), len(rows), first(got[k]), first(rows))
		}
	}
}

func first(rows []string) string {
	if len(rows) == 0 {
		return ""
	}
	return rows[0]
}

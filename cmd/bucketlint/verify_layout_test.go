//go:build engine

package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/engine/hash"
	"github.com/bucketlint/bucketlint/engine/store"
)

// writeBucketed writes a table of 3000 rows bucketed by k (int) into 8 buckets under dir.
func writeBucketed(t *testing.T, dir string) {
	t.Helper()
	g := store.GenSpec{Rows: 3000, Seed: 5, Columns: []store.GenColumn{{Name: "k", Type: mustType(t, "int"), Cardinality: 500}, {Name: "v", Type: mustType(t, "string")}}}
	data, err := store.Generate(g)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Write(context.Background(), dir, g.Schema(), data, store.Layout{Buckets: 8, BucketColumns: []string{"k"}}, store.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
}

func mustType(t *testing.T, s string) hash.Type {
	t.Helper()
	sc, err := store.ParseSchema("x " + s)
	if err != nil {
		t.Fatal(err)
	}
	return sc[0].Type
}

// listing is every file under dir with its size and modification time, to prove a run
// changed nothing.
func listing(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		b.WriteString(p + " " + fi.ModTime().String() + " " + fi.Mode().String() + "\n")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestVerifyLayout(t *testing.T) {
	root := t.TempDir()
	good, bad := filepath.Join(root, "good"), filepath.Join(root, "bad")
	writeBucketed(t, good)
	writeBucketed(t, bad)
	// Plant a job that named its files wrongly: bucket 3's file claims bucket 5, and bucket
	// 5's file claims bucket 3.
	var three, five string
	entries, err := os.ReadDir(bad)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		switch {
		case strings.HasSuffix(e.Name(), "_00003.c000.snappy.parquet"):
			three = e.Name()
		case strings.HasSuffix(e.Name(), "_00005.c000.snappy.parquet"):
			five = e.Name()
		}
	}
	if three == "" || five == "" {
		t.Fatalf("bucket files not found in %v", entries)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Rename(filepath.Join(bad, three), filepath.Join(bad, "tmp")))
	must(os.Rename(filepath.Join(bad, five), filepath.Join(bad, strings.Replace(five, "_00005.", "_00003.", 1))))
	must(os.Rename(filepath.Join(bad, "tmp"), filepath.Join(bad, strings.Replace(three, "_00003.", "_00005.", 1))))

	for _, c := range []struct {
		dir      string
		args     []string
		exit     int
		contains []string
	}{
		{good, []string{"--table-spec", "db.t: parquet CLUSTERED BY (k) INTO 8 BUCKETS", "--types", "k:int"}, exitOK, []string{"✓ db.t: CLUSTERED BY (k) INTO 8 BUCKETS", "3,000 rows, 0 misplaced"}},
		{good, []string{"--bucket-columns", "k", "--buckets", "8", "--types", "k:int", "--format", "json"}, exitOK, []string{`"ok": true`, `"misplaced": 0`}},
		{bad, []string{"--table-spec", "db.t: parquet CLUSTERED BY (k) INTO 8 BUCKETS", "--types", "k:int"}, exitVerify, []string{"✗ db.t", "bucket 5 by its key", "but the file name says 3"}},
		// The right files read with the wrong type: every row hashes differently.
		{good, []string{"--table-spec", "db.t: CLUSTERED BY (k) INTO 8 BUCKETS", "--types", "k:bigint"}, exitVerify, []string{"✗ db.t"}},
		{good, []string{"--table-spec", "db.t: CLUSTERED BY (k) INTO 8 BUCKETS"}, exitUsage, nil},
	} {
		before := listing(t, c.dir)
		var stdout, stderr bytes.Buffer
		args := append([]string{"verify", "--layout", c.dir}, c.args...)
		code := run(args, strings.NewReader(""), &stdout, &stderr)
		if code != c.exit {
			t.Fatalf("%v: exit %d, want %d\n%s%s", args, code, c.exit, stdout.String(), stderr.String())
		}
		for _, want := range c.contains {
			if !strings.Contains(stdout.String(), want) {
				t.Errorf("%v: output lacks %q:\n%s", args, want, stdout.String())
			}
		}
		if after := listing(t, c.dir); after != before {
			t.Fatalf("%v changed the directory:\n%s\nwas\n%s", args, after, before)
		}
	}
}

// TestVerifyLayoutHive validates Hive-format bucketed tables: the ones Spark 3.5.9 wrote
// with INSERT INTO a STORED AS PARQUET table (engine/testdata/spark/hive-3.5.9), and one
// written by engine/store with a file renamed to the wrong bucket.
func TestVerifyLayoutHive(t *testing.T) {
	spark := "../../engine/testdata/spark/hive-3.5.9"
	g := store.GenSpec{Rows: 2000, Seed: 3, Columns: []store.GenColumn{{Name: "k", Type: mustType(t, "bigint"), Cardinality: 300}}}
	data, err := store.Generate(g)
	if err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(t.TempDir(), "bad")
	tab, err := store.Write(context.Background(), bad, g.Schema(), data, store.Layout{Buckets: 4, BucketColumns: []string{"k"}, Bucketing: store.HiveBucketing}, store.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range tab.Files {
		if f.Bucket == 1 {
			name := filepath.Base(f.Path)
			if err := os.Rename(f.Path, filepath.Join(bad, "00002_0_"+strings.TrimPrefix(name, "00001_0_"))); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, c := range []struct {
		dir      string
		args     []string
		exit     int
		contains []string
	}{
		{
			spark + "/hv_int",
			[]string{"--table-spec", "default.hv_int: CLUSTERED BY (k) INTO 4 BUCKETS STORED AS PARQUET", "--types", "k:int"},
			exitOK,
			[]string{"✓ default.hv_int: CLUSTERED BY (k) INTO 4 BUCKETS (Hive-format: HiveHash buckets)", "4 files, 400 rows, 0 misplaced"},
		},
		{spark + "/hv_string", []string{"--table-spec", "t: hive CLUSTERED BY (s) INTO 4 BUCKETS", "--types", "s:string"}, exitOK, []string{"✓ t:", "0 misplaced"}},
		{spark + "/hv_date", []string{"--table-spec", "t: USING hive CLUSTERED BY (dt) INTO 4 BUCKETS", "--types", "dt:date"}, exitOK, []string{"✓ t:", "0 misplaced"}},
		{
			spark + "/hv_multi",
			[]string{"--bucket-columns", "s,dt", "--buckets", "4", "--hive", "--types", "s:string,dt:date", "--format", "json"},
			exitOK,
			[]string{`"bucketing": "hive"`, `"files": 8`, `"ok": true`},
		},
		// Spark's Hive table checked as a data-source table: the wrong hash, with a hint.
		{
			spark + "/hv_bigint",
			[]string{"--table-spec", "t: parquet CLUSTERED BY (b) INTO 4 BUCKETS", "--types", "b:bigint"},
			exitVerify,
			[]string{"✗ t:", "validate it with --hive"},
		},
		{
			bad,
			[]string{"--table-spec", "t: CLUSTERED BY (k) INTO 4 BUCKETS STORED AS PARQUET", "--types", "k:bigint"},
			exitVerify,
			[]string{"✗ t:", "by its key", "but the file name says 2"},
		},
	} {
		var stdout, stderr bytes.Buffer
		args := append([]string{"verify", "--layout", c.dir}, c.args...)
		if code := run(args, strings.NewReader(""), &stdout, &stderr); code != c.exit {
			t.Fatalf("%v: exit %d, want %d\n%s%s", args, code, c.exit, stdout.String(), stderr.String())
		}
		for _, want := range c.contains {
			if !strings.Contains(stdout.String(), want) {
				t.Errorf("%v: output lacks %q:\n%s", args, want, stdout.String())
			}
		}
		if c.dir == bad && strings.Contains(stdout.String(), "validate it with --hive") {
			t.Errorf("%v: hints at --hive for a Hive validation:\n%s", args, stdout.String())
		}
	}
}

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBaselineFromAnyDirectory: a baseline written at the repository root accepts the same
// findings from a subdirectory, and however the paths are spelled (./, absolute, a trailing
// slash): fingerprints name files from the root (issue 15).
func TestBaselineFromAnyDirectory(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		".git/HEAD":      "ref: refs/heads/main\n",
		"ddl/t.sql":      "CREATE TABLE a (k INT) USING parquet CLUSTERED BY (k) INTO 8 BUCKETS;\nCREATE TABLE b (k INT) USING parquet CLUSTERED BY (k) INTO 5 BUCKETS;\n",
		"jobs/q.sql":     "SELECT * FROM a JOIN b ON a.k = b.k;\n",
		"jobs/sub/.keep": "",
	}
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(root)
	var out, errOut bytes.Buffer
	if code := run([]string{"check", "--write-baseline", "base.json", "ddl", "jobs"}, strings.NewReader(""), &out, &errOut); code != 0 {
		t.Fatalf("write-baseline: exit %d\n%s%s", code, out.String(), errOut.String())
	}
	base, _ := os.ReadFile("base.json")
	if !strings.Contains(string(base), `"file": "jobs/q.sql"`) {
		t.Fatalf("baseline does not name jobs/q.sql from the root:\n%s", base)
	}
	for _, tc := range []struct {
		name, dir string
		args      []string
	}{
		{"root", ".", []string{"--baseline", "base.json", "ddl", "jobs"}},
		{"dot_slash_spelling", ".", []string{"--baseline", "./base.json", "./ddl/", "./jobs//q.sql"}},
		{"absolute_paths", ".", []string{"--baseline", filepath.Join(root, "base.json"), filepath.Join(root, "ddl"), filepath.Join(root, "jobs")}},
		{"from_a_subdirectory", "jobs", []string{"--baseline", "../base.json", "../ddl", "."}},
		{"from_a_deeper_subdirectory", "jobs/sub", []string{"--baseline", "../../base.json", "../../ddl", ".."}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Chdir(filepath.Join(root, filepath.FromSlash(tc.dir)))
			var out, errOut bytes.Buffer
			code := run(append([]string{"check"}, tc.args...), strings.NewReader(""), &out, &errOut)
			if code != 0 || strings.Contains(out.String(), "BL301") {
				t.Errorf("exit %d; want 0 with every finding accepted by the baseline:\n%s%s", code, out.String(), errOut.String())
			}
		})
	}
}

// TestExcludeAboveTheProject: an exclude glob matches below the working directory (or the
// repository root), never the directories above a project checked by its absolute path, so
// "vendor" in a config does not make `check /home/u/vendor/proj` report no findings (a
// false clean the language server tests met with "tmp").
func TestExcludeAboveTheProject(t *testing.T) {
	proj := filepath.Join(t.TempDir(), "vendor", "proj")
	files := map[string]string{
		".bucketlint.yaml":   "exclude: [vendor]\n",
		"q.sql":              "CREATE TABLE a (k INT) USING parquet CLUSTERED BY (k) INTO 8 BUCKETS;\nCREATE TABLE b (k INT) USING parquet CLUSTERED BY (k) INTO 5 BUCKETS;\nSELECT * FROM a JOIN b ON a.k = b.k;\n",
		"vendor/skipped.sql": "CREATE TABLE c (k INT) USING parquet CLUSTERED BY (k) INTO 8 BUCKETS;\nCREATE TABLE d (k INT) USING parquet CLUSTERED BY (k) INTO 5 BUCKETS;\nSELECT * FROM c JOIN d ON c.k = d.k;\n",
	}
	for name, text := range files {
		p := filepath.Join(proj, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct{ name, dir, arg string }{
		{"from inside", proj, "."},
		{"absolute, from inside", proj, proj},
		{"absolute, from elsewhere", t.TempDir(), proj},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Chdir(tc.dir)
			var out, errOut bytes.Buffer
			args := []string{"check", "--format", "json", "--fail-on", "never", "--config", filepath.Join(proj, ".bucketlint.yaml"), tc.arg}
			if code := run(args, strings.NewReader(""), &out, &errOut); code != 0 {
				t.Fatalf("exit %d\n%s", code, errOut.String())
			}
			if !strings.Contains(out.String(), "q.sql") || strings.Contains(out.String(), "skipped.sql") {
				t.Fatalf("want the findings of q.sql and none of vendor/skipped.sql:\n%s", out.String())
			}
		})
	}
}

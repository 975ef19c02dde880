package parser

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/internal/golden"
	"github.com/bucketlint/bucketlint/parser/perr"
	"github.com/bucketlint/bucketlint/plan"
)

var update = flag.Bool("update", false, "rewrite golden sections")

// TestLoad loads each testdata/load/*.txtar repository (every section but "exclude" and
// "want" is a file; "exclude" lists globs, one a line) and compares the merged project's dump
// with "want". A binary file and a file above MaxFileSize are added to every repository.
func TestLoad(t *testing.T) {
	for _, c := range golden.Load(t, "testdata/load/*.txtar", *update) {
		t.Run(c.Name(), func(t *testing.T) {
			dir, opts := writeRepo(t, c)
			t.Chdir(dir)
			proj, errs := Load(t.Context(), []string{"."}, opts)
			c.Check(t, "want", []byte(dump(proj, errs)))
			c.Save(t)
		})
	}
}

// TestLoadDeterministic loads the same repository with one worker and with many: the dumps are
// identical, whatever the scheduling.
func TestLoadDeterministic(t *testing.T) {
	c := golden.Load(t, "testdata/load/repository.txtar", false)[0]
	dir, opts := writeRepo(t, c)
	t.Chdir(dir)
	var first string
	for i, workers := range []int{1, 3, 16, 0, 1, 16} {
		opts.Workers = workers
		proj, errs := Load(t.Context(), []string{"."}, opts)
		got := dump(proj, errs)
		if i == 0 {
			first = got
			continue
		}
		if got != first {
			t.Fatalf("workers=%d gives a different project:\n%s\nthan one worker:\n%s", workers, got, first)
		}
	}
}

// TestLoadPaths reads files named explicitly (even hidden ones) and reports a missing path.
func TestLoadPaths(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.MkdirAll(".hidden", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(".hidden/t.sql", []byte("CREATE TABLE t (id INT) USING parquet CLUSTERED BY (id) INTO 4 BUCKETS;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	proj, errs := Load(t.Context(), []string{".hidden/t.sql", "missing.sql", "."}, LoadOptions{})
	got := dump(proj, errs)
	for _, want := range []string{"table t format=parquet", "sources: .hidden/t.sql:1:1", "error missing.sql: stat: no such file or directory"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
}

// TestExclude checks the gitignore-style matcher.
func TestExclude(t *testing.T) {
	t.Parallel()
	cases := []struct {
		glob, path string
		dir, want  bool
	}{
		{"*.log", "a/b/run.log", false, true},
		{"*.log", "a/b/run.txt", false, false},
		{"build/", "x/build", true, true},
		{"build/", "x/build", false, false},
		{"jobs/old/*.py", "jobs/old/a.py", false, true},
		{"jobs/old/*.py", "x/jobs/old/a.py", false, false},
		{"/tmp", "tmp", true, true},
		{"**/gen/*.sql", "a/b/gen/x.sql", false, true},
		{"**/gen/*.sql", "gen/x.sql", false, true},
		{"docs/**", "docs/a/b.txt", false, true},
		{"t?.sql", "t1.sql", false, true},
		{"t[0-9].sql", "t5.sql", false, true},
		{"t[!0-9].sql", "t5.sql", false, false},
		{"[unclosed", "[unclosed", false, true},
	}
	for _, c := range cases {
		if got := newExcluder([]string{c.glob}).match(c.path, c.dir); got != c.want {
			t.Errorf("exclude %q matches %q (dir %v) = %v, want %v", c.glob, c.path, c.dir, got, c.want)
		}
	}
}

// writeRepo writes a case's files into a fresh directory, with a binary file and an
// oversized file, and returns the directory and the options of its "exclude" section.
func writeRepo(t *testing.T, c *golden.Case) (string, LoadOptions) {
	t.Helper()
	dir := t.TempDir()
	var opts LoadOptions
	for _, f := range c.Archive.Files {
		switch f.Name {
		case "want":
			continue
		case "exclude":
			opts.Exclude = strings.Fields(string(f.Data))
			continue
		}
		write(t, filepath.Join(dir, filepath.FromSlash(f.Name)), f.Data)
	}
	write(t, filepath.Join(dir, "data", "blob.txt"), []byte("PAR1\x00\x01\x02== Physical Plan ==\n"))
	huge := filepath.Join(dir, "data", "huge.log")
	write(t, huge, nil)
	if err := os.Truncate(huge, MaxFileSize+1); err != nil {
		t.Fatal(err)
	}
	return dir, opts
}

func write(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// dump prints a project deterministically for goldens.
func dump(p *plan.Project, errs perr.List) string {
	var b strings.Builder
	fmt.Fprintf(&b, "files: %s\n", strings.Join(p.Files, " "))
	for _, name := range sortedNames(p.Tables) {
		dumpTable(&b, p.Tables[name])
	}
	for _, c := range p.Conflicts {
		fmt.Fprintf(&b, "conflict %s\n", c)
	}
	fmt.Fprintf(&b, "queries: %d\n", len(p.Queries))
	for _, q := range p.Queries {
		text := strings.Join(strings.Fields(q.Text), " ")
		fmt.Fprintf(&b, "  %s target=%q %.60s\n", q.Span.Start, q.Target, text)
	}
	fmt.Fprintf(&b, "explains: %d\n", len(p.Explains))
	for _, e := range p.Explains {
		fmt.Fprintf(&b, "  %s %s sections=%d\n", e.Pos, e.Mode, len(e.Plans))
	}
	for _, cf := range p.Code {
		fmt.Fprintf(&b, "code %s %s writes=%d reads=%d joins=%d sql=%d\n", cf.File, cf.Language, len(cf.Writes), len(cf.Reads), len(cf.Joins), len(cf.SQL))
	}
	for _, c := range p.Confs {
		fmt.Fprintf(&b, "conf %s=%s at %s\n", c.Key, c.Value, c.Pos)
	}
	for _, n := range p.Notes {
		fmt.Fprintf(&b, "note %s: %s\n", n.Pos, n.Text)
	}
	for _, e := range errs {
		fmt.Fprintf(&b, "error %s\n", e)
	}
	return b.String()
}

func dumpTable(b *strings.Builder, t *plan.Table) {
	fmt.Fprintf(b, "table %s format=%s hive=%v\n", t.Name, t.Format, t.Hive)
	if len(t.Columns) > 0 {
		fmt.Fprintf(b, "  columns %s\n", columnsText(t.Columns))
	}
	if len(t.PartitionColumns) > 0 {
		fmt.Fprintf(b, "  partitioned by %s\n", listText(t.PartitionColumns))
	}
	fmt.Fprintf(b, "  %s\n", t.Buckets())
	if t.Location != "" || t.SizeInBytes >= 0 || t.RowCount >= 0 {
		fmt.Fprintf(b, "  location=%q size=%d rows=%d\n", t.Location, t.SizeInBytes, t.RowCount)
	}
	src := make([]string, len(t.Sources))
	for i, s := range t.Sources {
		src[i] = s.String()
	}
	fmt.Fprintf(b, "  sources: %s\n", strings.Join(src, ", "))
}

func sortedNames(m map[string]*plan.Table) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sortStrings(names)
	return names
}

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/rules"
)

// TestFixThenRecheck: check --fix applies the edits and reports the tree as it left it; a
// new check has none of the fixed findings, and --diff has nothing left to show.
func TestFixThenRecheck(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"ddl.sql": "CREATE TABLE a (k INT, v INT) USING parquet CLUSTERED BY (k) INTO 200 BUCKETS;\n" +
			"CREATE TABLE b (k INT, w INT) USING parquet CLUSTERED BY (k) INTO 8 BUCKETS;\n",
		"jobs/q.sql": "SELECT * FROM a JOIN b ON a.k = b.k;\n",
		"jobs/w.py": "from pyspark.sql import SparkSession\n\nspark = SparkSession.builder.getOrCreate()\n" +
			"df = spark.table(\"a\")\ndf.write.bucketBy(16, \"k\").saveAsTable(\"c\")\n",
	}
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o640); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	check := func(args ...string) (int, string, string) {
		var out, errOut bytes.Buffer
		code := run(append([]string{"check"}, args...), strings.NewReader(""), &out, &errOut)
		return code, out.String(), errOut.String()
	}
	_, before, _ := check("--fail-on", "never")
	for _, rule := range []string{"(BL301)", "(BL202)"} {
		if !strings.Contains(before, rule) {
			t.Fatalf("the workload should have a %s finding with an edit:\n%s", rule, before)
		}
	}
	code, out, errOut := check("--fix", "--fail-on", "never")
	if code != 0 || !strings.Contains(errOut, "fixed 2 findings (2 edits in 2 files)") {
		t.Fatalf("--fix: exit %d\n%s%s", code, out, errOut)
	}
	if strings.Contains(out, "(BL301)") || strings.Contains(out, "(BL202)") {
		t.Errorf("--fix reported fixed findings:\n%s", out)
	}
	_, after, _ := check("--fail-on", "never")
	if strings.Contains(after, "(BL301)") || strings.Contains(after, "(BL202)") {
		t.Errorf("a new check still has the fixed findings:\n%s", after)
	}
	if code, out, _ := check("--diff"); code != 0 || out != "" {
		t.Errorf("--diff after --fix: exit %d, %q; want 0 and nothing", code, out)
	}
	ddl, _ := os.ReadFile("ddl.sql")
	if !strings.Contains(string(ddl), "(k) INTO 200 BUCKETS;\n") || strings.Contains(string(ddl), "INTO 8 BUCKETS") {
		t.Errorf("ddl.sql after --fix:\n%s", ddl)
	}
	if fi, err := os.Stat("ddl.sql"); err != nil || fi.Mode().Perm() != 0o640 {
		t.Errorf("ddl.sql mode after --fix: %v %v; want 0640 kept", fi.Mode(), err)
	}
}

func edit(file string, line, col, endCol int, text string) rules.Edit {
	return rules.Edit{Span: plan.Span{Start: plan.Pos{File: file, Line: line, Col: col}, End: plan.Pos{File: file, Line: line, Col: endCol}}, Text: text}
}

func fixOf(edits ...rules.Edit) rules.Diagnostic {
	return rules.Diagnostic{Rule: "BL301", Fix: &rules.Fix{Description: "d", Edits: edits}}
}

// TestPlanFixes: a finding's edits are taken together or not at all.
func TestPlanFixes(t *testing.T) {
	src := map[string][]byte{"a.sql": []byte("INTO 8 BUCKETS;\nINTO 4 BUCKETS;\n"), "b.sql": []byte("x\n")}
	for _, tc := range []struct {
		name      string
		ds        []rules.Diagnostic
		wantFixed []int
		wantText  string
	}{
		{"one_edit", []rules.Diagnostic{fixOf(edit("a.sql", 1, 6, 7, "16"))}, []int{0}, "INTO 16 BUCKETS;\nINTO 4 BUCKETS;\n"},
		{"same_edit_twice_is_one", []rules.Diagnostic{fixOf(edit("a.sql", 1, 6, 7, "16")), fixOf(edit("a.sql", 1, 6, 7, "16"))}, []int{0, 1}, "INTO 16 BUCKETS;\nINTO 4 BUCKETS;\n"},
		{"overlap_leaves_the_second", []rules.Diagnostic{fixOf(edit("a.sql", 1, 6, 7, "16")), fixOf(edit("a.sql", 1, 1, 8, "X"))}, []int{0}, "INTO 16 BUCKETS;\nINTO 4 BUCKETS;\n"},
		{"all_or_nothing", []rules.Diagnostic{fixOf(edit("a.sql", 1, 6, 7, "16")), fixOf(edit("a.sql", 2, 6, 7, "16"), edit("a.sql", 1, 6, 7, "32"))}, []int{0}, "INTO 16 BUCKETS;\nINTO 4 BUCKETS;\n"},
		{"past_the_line_end", []rules.Diagnostic{fixOf(edit("a.sql", 1, 6, 40, "16"))}, nil, ""},
		{"past_the_last_line", []rules.Diagnostic{fixOf(edit("a.sql", 9, 1, 2, "16"))}, nil, ""},
		{"not_an_input", []rules.Diagnostic{fixOf(edit("c.sql", 1, 1, 2, "16"))}, nil, ""},
		{"no_edits_is_advice", []rules.Diagnostic{fixOf()}, nil, ""},
		{"insert_at_the_end", []rules.Diagnostic{fixOf(edit("a.sql", 2, 16, 16, " -- ok"))}, []int{0}, "INTO 8 BUCKETS;\nINTO 4 BUCKETS; -- ok\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := planFixes(tc.ds, []string{"a.sql", "b.sql"}, func(f string) []byte { return src[f] })
			var fixed []int
			for i := range tc.ds {
				if p.fixed[i] {
					fixed = append(fixed, i)
				}
			}
			if len(fixed) != len(tc.wantFixed) || len(fixed) > 0 && fixed[len(fixed)-1] != tc.wantFixed[len(tc.wantFixed)-1] {
				t.Errorf("fixed %v, want %v", fixed, tc.wantFixed)
			}
			if ff := p.files["a.sql"]; tc.wantText != "" && (ff == nil || string(ff.apply()) != tc.wantText) {
				t.Errorf("a.sql becomes %q, want %q", ff.apply(), tc.wantText)
			}
		})
	}
}

// TestFixRefusesChangedFile: a file changed since the run read it is not written.
func TestFixRefusesChangedFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.sql")
	if err := os.WriteFile(file, []byte("INTO 8 BUCKETS;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	read, _ := os.ReadFile(file)
	loaded := time.Now()
	p := planFixes([]rules.Diagnostic{fixOf(edit(file, 1, 6, 7, "16"))}, []string{file}, func(string) []byte { return read })
	changed := []byte("INTO 9 BUCKETS; -- edited meanwhile\n")
	if err := os.WriteFile(file, changed, 0o644); err != nil {
		t.Fatal(err)
	}
	later := loaded.Add(2 * time.Second)
	if err := os.Chtimes(file, later, later); err != nil {
		t.Fatal(err)
	}
	if err := p.write(loaded); err == nil || !strings.Contains(err.Error(), "changed since it was read") {
		t.Errorf("write: %v; want a refusal", err)
	}
	if now, _ := os.ReadFile(file); !bytes.Equal(now, changed) {
		t.Errorf("the changed file was overwritten: %q", now)
	}
}

// TestWriteHunks: the diff of a file's edits, with context, merged hunks and the end of a
// file without a newline.
func TestWriteHunks(t *testing.T) {
	lines := func(n int) string {
		var b strings.Builder
		for i := 1; i <= n; i++ {
			b.WriteString("l" + string(rune('a'+i-1)) + "\n")
		}
		return b.String()
	}
	for _, tc := range []struct {
		name, src string
		edits     []byteEdit
		want      string
	}{
		{"middle", lines(9), []byteEdit{{start: 12, end: 14, text: "XX"}}, "@@ -2,7 +2,7 @@\n lb\n lc\n ld\n-le\n+XX\n lf\n lg\n lh\n"},
		{"two_hunks", lines(20), []byteEdit{{start: 0, end: 2, text: "A"}, {start: 57, end: 59, text: "T"}}, "@@ -1,4 +1,4 @@\n-la\n+A\n lb\n lc\n ld\n@@ -17,4 +17,4 @@\n lq\n lr\n ls\n-lt\n+T\n"},
		{"merged_hunk", lines(9), []byteEdit{{start: 0, end: 2, text: "A"}, {start: 15, end: 17, text: "F"}}, "@@ -1,9 +1,9 @@\n-la\n+A\n lb\n lc\n ld\n le\n-lf\n+F\n lg\n lh\n li\n"},
		{"no_newline_at_end", "x\ny", []byteEdit{{start: 2, end: 3, text: "z"}}, "@@ -1,2 +1,2 @@\n x\n-y\n\\ No newline at end of file\n+z\n\\ No newline at end of file\n"},
		{"added_line", "a\nb\n", []byteEdit{{start: 2, end: 2, text: "new\n"}}, "@@ -1,2 +1,3 @@\n a\n-b\n+new\n+b\n"},
		{"empty_file", "", []byteEdit{{start: 0, end: 0, text: "x\n"}}, "@@ -0,0 +1,1 @@\n+x\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			writeHunks(&b, &fileFix{src: []byte(tc.src), edits: tc.edits})
			if b.String() != tc.want {
				t.Errorf("got\n%s\nwant\n%s", b.String(), tc.want)
			}
		})
	}
}

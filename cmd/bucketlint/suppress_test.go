package main

import (
	"strconv"
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/rules"
)

func TestScanDirectives(t *testing.T) {
	t.Parallel()
	catalogue := rules.All()
	for _, c := range []struct {
		name, src string
		want      string // "line:rules:reason" per directive, then "!" errors
	}{
		{"sql own line", "-- bucketlint:ignore BL301 moving to 16 buckets\nSELECT 1", "2:BL301:moving to 16 buckets"},
		{"python trailing", "df.save(p)  # bucketlint:ignore BL201 legacy export", "1:BL201:legacy export"},
		{"scala own line, by name", "  // bucketlint:ignore bucket-count-mismatch,BL306 both known\nx", "2:BL301,BL306:both known"},
		{"block comment end", "/* x */ // bucketlint:ignore BL301 why */", "1:BL301:why"},
		{"no reason", "-- bucketlint:ignore BL301\n", "!1:4"},
		{"no rule", "# bucketlint:ignore\n", "!1:3"},
		{"unknown rule", "# bucketlint:ignore BL999 because\n", "!1:3"},
		{"not a comment", `print("bucketlint:ignore BL301 x")`, ""},
		{"until", "-- bucketlint:ignore BL301 until=2026-12-31 moving\nx", "2:BL301:moving"},
		{"bad until", "-- bucketlint:ignore BL301 until=soon moving\nx", "!1:4"},
		{"notebook cell", `    "# bucketlint:ignore BL201 export\n",`, "2:BL201:export"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			ds, errs := scanDirectives("f", []byte(c.src), catalogue)
			var got []string
			for _, d := range ds {
				got = append(got, strings.Join([]string{itoa(d.line), strings.Join(d.rules, ","), d.reason}, ":"))
			}
			for _, e := range errs {
				got = append(got, "!"+itoa(e.Pos.Line)+":"+itoa(e.Pos.Col))
			}
			if g := strings.Join(got, " "); g != c.want {
				t.Errorf("got %q, want %q", g, c.want)
			}
		})
	}
}

func TestExcluded(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		file string
		glob string
		want bool
	}{
		{"legacy/old.py", "legacy/**", true},
		{"legacy/deep/old.py", "legacy/**", true},
		{"jobs/legacy/old.py", "legacy", true},
		{"jobs/legacy/old.py", "/legacy", false},
		{"jobs/legacy/old.py", "legacy/**", false},
		{"legacy", "legacy/", true},
		{"jobs/a.gen.sql", "*.gen.sql", true},
		{"jobs/a.sql", "*.gen.sql", false},
		{"jobs/x/q.sql", "**/x/*.sql", true},
	} {
		if got := excluded(c.file, []string{c.glob}); got != c.want {
			t.Errorf("excluded(%q, %q) = %v, want %v", c.file, c.glob, got, c.want)
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestDirectiveCoversSQLStatement: in a SQL file a suppression on a line of its own covers the
// whole statement that follows (a finding on its GROUP BY line too), up to the semicolon that
// ends it outside quotes and comments, and nothing after it.
func TestDirectiveCoversSQLStatement(t *testing.T) {
	t.Parallel()
	src := "-- bucketlint:ignore BL307 reporting query, small\n" +
		"SELECT k, count(*)\n" +
		"FROM t -- not the end; of it\n" +
		"WHERE s <> ';'\n" +
		"GROUP BY k;\n" +
		"SELECT 1;\n"
	ds, errs := scanDirectives("q.sql", []byte(src), rules.All())
	if len(errs) > 0 || len(ds) != 1 {
		t.Fatalf("directives %v, errors %v", ds, errs)
	}
	for line, want := range map[int]bool{1: false, 2: true, 5: true, 6: false} {
		d := &rules.Diagnostic{Rule: "BL307", Span: plan.Span{Start: plan.Pos{File: "q.sql", Line: line, Col: 1}}}
		if got := ds[0].suppresses(d); got != want {
			t.Errorf("line %d: suppressed %t, want %t", line, got, want)
		}
	}
	py, _ := scanDirectives("job.py", []byte("# bucketlint:ignore BL201 legacy\nx = 1\ny = 2\n"), rules.All())
	d := &rules.Diagnostic{Rule: "BL201", Span: plan.Span{Start: plan.Pos{File: "job.py", Line: 3, Col: 1}}}
	if len(py) != 1 || py[0].suppresses(d) {
		t.Errorf("outside SQL a directive covers the next line only")
	}
}

package parser

import (
	"strconv"
	"strings"
	"testing"
)

func TestScanSuppressions(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, src string
		sql       bool
		want      string // "line-last:rules:reason" per suppression, or "!line:col" for a malformed one
	}{
		{"sql own line covers the statement", "-- bucketlint:ignore BL301 moving to 16 buckets\nSELECT 1\nFROM t;\nSELECT 2;", true, "2-3:BL301:moving to 16 buckets"},
		{"statement end skips quotes and comments", "-- bucketlint:ignore BL307 small\nSELECT k -- a; b\nFROM t WHERE s <> ';'\nGROUP BY k;\nSELECT 1;", true, "2-4:BL307:small"},
		{"outside SQL the next line only", "# bucketlint:ignore BL201 legacy\nx = 1\ny = 2\n", false, "2-2:BL201:legacy"},
		{"python trailing", "df.save(p)  # bucketlint:ignore BL201 legacy export", false, "1-1:BL201:legacy export"},
		{"scala own line, by name", "  // bucketlint:ignore bucket-count-mismatch,BL306 both known\nx", false, "2-2:bucket-count-mismatch,BL306:both known"},
		{"block comment end", "/* x */ // bucketlint:ignore BL301 why */", false, "1-1:BL301:why"},
		{"no reason", "-- bucketlint:ignore BL301\n", true, "!1:4"},
		{"no rule", "# bucketlint:ignore\n", false, "!1:3"},
		{"unknown rule is the rules' to judge", "# bucketlint:ignore BL999 because\n", false, "2-2:BL999:because"},
		{"not a comment", `print("bucketlint:ignore BL301 x")`, false, ""},
		{"until", "-- bucketlint:ignore BL301 until=2026-12-31 moving\nx", false, "2-2:BL301:moving"},
		{"bad until", "-- bucketlint:ignore BL301 until=soon moving\nx", false, "!1:4"},
		{"notebook cell", `    "# bucketlint:ignore BL201 export\n",`, false, "2-2:BL201:export"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var got []string
			for _, s := range scanSuppressions("f", []byte(c.src), c.sql) {
				if s.Problem != "" {
					got = append(got, "!"+strconv.Itoa(s.Pos.Line)+":"+strconv.Itoa(s.Pos.Col))
					continue
				}
				got = append(got, strconv.Itoa(s.Line)+"-"+strconv.Itoa(s.Last)+":"+strings.Join(s.Rules, ",")+":"+s.Reason)
			}
			if g := strings.Join(got, " "); g != c.want {
				t.Errorf("got %q, want %q", g, c.want)
			}
		})
	}
}

// FuzzScanSuppressions: suppressions are found at positions inside the input, never a panic.
func FuzzScanSuppressions(f *testing.F) {
	for _, s := range []string{
		"-- bucketlint:ignore BL301 reason\nSELECT 1", "x # bucketlint:ignore BL201", "// bucketlint:ignore",
		"# bucketlint:ignore ,,, why", `"# bucketlint:ignore BL201 export\n",`, "bucketlint:ignore",
	} {
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, src []byte, sql bool) {
		lines := strings.Count(string(src), "\n") + 1
		for _, s := range scanSuppressions("f", src, sql) {
			if s.Pos.Line < 1 || s.Pos.Line > lines || s.Line < s.Pos.Line || s.Last < s.Line {
				t.Errorf("bad suppression %+v", s)
			}
			if s.Problem == "" && (s.Reason == "" || len(s.Rules) == 0) {
				t.Errorf("well-formed suppression without rules or reason: %+v", s)
			}
		}
	})
}

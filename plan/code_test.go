package plan

import "testing"

func TestFrameRefResolved(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		ref  FrameRef
		want bool
	}{
		{"a variable alone is unresolved", FrameRef{Var: "df", Text: "df"}, false},
		{"a table resolves", FrameRef{Var: "o", Tables: []string{"sales.orders"}}, true},
		{"a path resolves", FrameRef{Paths: []string{"/data/o"}}, true},
		{"a spark.sql query resolves", FrameRef{SQL: []*SQLString{{Text: "SELECT 1"}}}, true},
		{"a broadcast hint alone is unresolved", FrameRef{Broadcast: true, Hints: []string{"broadcast"}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := tc.ref.Resolved(); got != tc.want {
				t.Errorf("Resolved() = %t, want %t", got, tc.want)
			}
		})
	}
}

func TestSQLStringPosAt(t *testing.T) {
	t.Parallel()
	// spark.sql("""SELECT 1
	//     FROM t""") at line 3, the text starting at column 15.
	verbatim := &SQLString{
		Text: "SELECT 1\n    FROM t", Verbatim: true, Pos: Pos{File: "job.py", Line: 3, Col: 15},
		Lines: []Pos{{File: "job.py", Line: 3, Col: 15}, {File: "job.py", Line: 4, Col: 1}},
	}
	joined := &SQLString{Text: "SELECT * FROM t", Pos: Pos{File: "job.py", Line: 7, Col: 12}}
	for _, tc := range []struct {
		name      string
		s         *SQLString
		line, col int
		want      Pos
	}{
		{"first line is offset by the literal's column", verbatim, 1, 8, Pos{File: "job.py", Line: 3, Col: 22}},
		{"later lines start at their own column", verbatim, 2, 5, Pos{File: "job.py", Line: 4, Col: 5}},
		{"a line past the text maps to the start", verbatim, 3, 1, verbatim.Pos},
		{"a text that is not verbatim maps to its start", joined, 1, 10, joined.Pos},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := tc.s.PosAt(tc.line, tc.col); got != tc.want {
				t.Errorf("PosAt(%d, %d) = %v, want %v", tc.line, tc.col, got, tc.want)
			}
		})
	}
}

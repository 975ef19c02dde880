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

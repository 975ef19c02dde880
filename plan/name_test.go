package plan

import (
	"slices"
	"testing"
)

func TestNames(t *testing.T) {
	for _, tc := range []struct {
		parts []string
		name  string
	}{
		{[]string{"t"}, "t"},
		{[]string{"db", "t_1"}, "db.t_1"},
		{[]string{"we`ird"}, "`we``ird`"},
		{[]string{"a.b", "c"}, "`a.b`.c"},
		{[]string{"a", "b.c"}, "a.`b.c`"},
		{[]string{"2024"}, "`2024`"},
		{[]string{"x 1", ""}, "`x 1`.``"},
		{[]string{"café"}, "`café`"},
	} {
		got := JoinName(tc.parts...)
		if got != tc.name {
			t.Errorf("JoinName(%q) = %q, want %q", tc.parts, got, tc.name)
		}
		if back := NameParts(got); !slices.Equal(back, tc.parts) {
			t.Errorf("NameParts(%q) = %q, want %q", got, back, tc.parts)
		}
	}
	if got := NameTail("db.`c.d`"); got != "`c.d`" {
		t.Errorf("NameTail = %q", got)
	}
}

func TestNameClosed(t *testing.T) {
	for s, want := range map[string]bool{"t": true, "`a``b`": true, "we`ird": false, "`a`.`b": false, "`x```": true} {
		if got := NameClosed(s); got != want {
			t.Errorf("NameClosed(%q) = %v, want %v", s, got, want)
		}
	}
}

package main

import "testing"

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

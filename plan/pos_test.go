package plan

import "testing"

func TestSpanContains(t *testing.T) {
	t.Parallel()
	at := func(line, col int) Pos { return Pos{File: "q.sql", Line: line, Col: col} }
	query := Span{Start: at(2, 3), End: at(4, 9)}
	for _, c := range []struct {
		name string
		span Span
		pos  Pos
		want bool
	}{
		{"start", query, at(2, 3), true},
		{"before the start column", query, at(2, 2), false},
		{"line before", query, at(1, 50), false},
		{"middle line, any column", query, at(3, 200), true},
		{"end column counts", query, at(4, 9), true},
		{"past the end column", query, at(4, 10), false},
		{"line after", query, at(5, 1), false},
		{"another file", query, Pos{File: "r.sql", Line: 3, Col: 1}, false},
		{"no end: the start line", Span{Start: at(2, 3)}, at(2, 80), true},
		{"no end: not the next line", Span{Start: at(2, 3)}, at(3, 1), false},
		{"end without a column: its whole line", Span{Start: at(2, 3), End: Pos{File: "q.sql", Line: 4}}, at(4, 500), true},
	} {
		if got := c.span.Contains(c.pos); got != c.want {
			t.Errorf("%s: %v contains %v = %t, want %t", c.name, c.span, c.pos, got, c.want)
		}
	}
}

func TestPosBefore(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		a, b Pos
		want bool
	}{
		{Pos{File: "a", Line: 9, Col: 9}, Pos{File: "b", Line: 1, Col: 1}, true},
		{Pos{File: "a", Line: 1, Col: 9}, Pos{File: "a", Line: 2, Col: 1}, true},
		{Pos{File: "a", Line: 2, Col: 1}, Pos{File: "a", Line: 2, Col: 2}, true},
		{Pos{File: "a", Line: 2, Col: 2}, Pos{File: "a", Line: 2, Col: 2}, false},
		{Pos{File: "a", Line: 3, Col: 1}, Pos{File: "a", Line: 2, Col: 9}, false},
	} {
		if got := c.a.Before(c.b); got != c.want {
			t.Errorf("%v before %v = %t, want %t", c.a, c.b, got, c.want)
		}
	}
}

package plan

import (
	"slices"
	"strings"
	"testing"
)

func TestSplitArgs(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
		ok   bool
	}{
		{"", nil, true},
		{"a#1, b#2", []string{"a#1", "b#2"}, true},
		{"f(a, b), [c, d], {e, f}", []string{"f(a, b)", "[c, d]", "{e, f}"}, true},
		{"'x,y', \"p,q\", `r,s`", []string{"'x,y'", "\"p,q\"", "`r,s`"}, true},
		{"it's, b", []string{"it's", "b"}, true},
		{"k#1, specifiedwindowframe(RangeFrame, unboundedpreceding$(), currentrow$())", []string{"k#1", "specifiedwindowframe(RangeFrame, unboundedpreceding$(), currentrow$())"}, true},
		{"In(b, [1,2,3...", []string{"In(b, [1,2,3..."}, false},
	} {
		got, ok := SplitArgs(c.in)
		if !slices.Equal(got, c.want) || ok != c.ok {
			t.Errorf("SplitArgs(%q) = %q, %v; want %q, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

// TestTrimSpace: TrimSpace is strings.TrimSpace.
func TestTrimSpace(t *testing.T) {
	for _, s := range []string{"", " ", "a", " a", "a ", "\ta\n", "\u00a0a", "a\u00a0", "\u0085", "a b", "\x7f", "\xff", "\x00a"} {
		if got, want := TrimSpace(s), strings.TrimSpace(s); got != want {
			t.Errorf("TrimSpace(%q) = %q, want %q", s, got, want)
		}
	}
}

//go:build engine

package report

import (
	"testing"
	"time"

	"github.com/bucketlint/bucketlint/engine/verify"
)

func TestProgressLine(t *testing.T) {
	for _, c := range []struct {
		p    verify.Progress
		want string
	}{
		{verify.Progress{Done: 0, Total: 4, Msg: "t: loading a"}, "[░░░░░░░░░░░░░░░░░░░░]   0%   1.5s  t: loading a"},
		{verify.Progress{Done: 3, Total: 4, Scenario: "t", Msg: "running the query (after)"}, "[███████████████░░░░░]  75%   1.5s  running the query (after) · t"},
		{verify.Progress{Done: 4, Total: 4, Msg: "done"}, "[████████████████████] 100%   1.5s  done"},
		{verify.Progress{Msg: "no total"}, "  1.5s  no total"},
		{verify.Progress{Done: 1, Total: 2, Msg: string(make([]rune, 200))}, ""},
	} {
		got := ProgressLine(c.p, 1500*time.Millisecond)
		if c.want == "" {
			if n := len([]rune(got)); n != 100 {
				t.Errorf("long line cut to %d runes, want 100", n)
			}
			continue
		}
		if got != c.want {
			t.Errorf("ProgressLine(%+v) = %q, want %q", c.p, got, c.want)
		}
	}
}

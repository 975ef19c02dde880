//go:build engine

package exec

import (
	"context"
	"errors"
	"testing"

	"github.com/bucketlint/bucketlint/internal/crash"
)

// TestRunPartsCancelled: when the caller's context ends before every part ran, runParts
// fails with the context's error instead of returning as if the parts had run (issue 14:
// an interrupted verify then read the missing parts' output and crashed).
func TestRunPartsCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	ran := 0
	err := runParts(ctx, 100, 1, func(context.Context, int, int) error {
		ran++
		if ran == 3 {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) || ran == 100 {
		t.Fatalf("err %v after %d parts", err, ran)
	}
	if err := runParts(t.Context(), 5, 2, func(context.Context, int, int) error { return nil }); err != nil {
		t.Fatalf("all parts ran: %v", err)
	}
}

// TestRunPartsPanic: a panic in one part becomes runParts' error, whichever worker and part
// raise it, instead of ending the process without the caller's clean-up (issue 14: verify's
// temporary warehouse was left behind by a panic in an engine worker).
func TestRunPartsPanic(t *testing.T) {
	for _, c := range []struct{ n, par, bad int }{{1, 1, 0}, {100, 1, 50}, {100, 2, 0}, {100, 2, 99}, {7, 4, 3}} {
		err := runParts(t.Context(), c.n, c.par, func(_ context.Context, _, part int) error {
			if part == c.bad {
				panic("part failed")
			}
			return nil
		})
		var ce *crash.Error
		if !errors.As(err, &ce) || ce.Value != "part failed" {
			t.Errorf("n=%d par=%d bad=%d: err %v, want the panic as a *crash.Error", c.n, c.par, c.bad, err)
		}
	}
}

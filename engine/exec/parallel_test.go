package exec

import (
	"context"
	"errors"
	"testing"
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

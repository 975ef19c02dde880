//go:build engine

package store

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/bucketlint/bucketlint/engine/hash"
	"github.com/bucketlint/bucketlint/internal/crash"
)

// TestParallelPanic: a panic in one call comes back in the caller's goroutine, where its
// deferred clean-up runs, instead of ending the process from a worker (issue 14).
func TestParallelPanic(t *testing.T) {
	for _, c := range []struct{ n, workers, bad int }{{1, 1, 0}, {10, 1, 5}, {100, 2, 0}, {100, 4, 99}} {
		var calls atomic.Int64
		got := func() (r any) {
			defer func() { r = recover() }()
			parallel(c.n, c.workers, func(i int) {
				calls.Add(1)
				if i == c.bad {
					panic("call failed")
				}
			})
			return nil
		}()
		err, ok := got.(error)
		var ce *crash.Error
		if c.workers > 1 && (!ok || !errors.As(err, &ce) || ce.Value != "call failed") {
			t.Errorf("n=%d workers=%d: recovered %v, want a *crash.Error", c.n, c.workers, got)
		}
		if c.workers == 1 && got != "call failed" {
			t.Errorf("n=%d workers=1: recovered %v, want the panic itself", c.n, got)
		}
	}
	var sum atomic.Int64
	parallel(50, 3, func(i int) { sum.Add(int64(i)) })
	if sum.Load() != 50*49/2 {
		t.Fatalf("sum %d without a panic", sum.Load())
	}
}

// TestGenerateContext: generation stops with the context's cause once it ends, and gives the
// same rows as Generate otherwise.
func TestGenerateContext(t *testing.T) {
	g := GenSpec{Rows: 1000, Seed: 7, Columns: []GenColumn{{Name: "k", Type: hash.Type{Kind: hash.KindBigInt}}, {Name: "s", Type: hash.Type{Kind: hash.KindString}}}}
	ctx, cancel := context.WithCancelCause(t.Context())
	cause := errors.New("stopped by the test")
	cancel(cause)
	if b, err := GenerateContext(ctx, g); !errors.Is(err, cause) || b != nil {
		t.Fatalf("cancelled: batch %v, err %v; want nil and the cause", b, err)
	}
	a, err := Generate(g)
	if err != nil {
		t.Fatal(err)
	}
	b, err := GenerateContext(t.Context(), g)
	if err != nil {
		t.Fatal(err)
	}
	if a.Len != 1000 || b.Len != 1000 || !slices.Equal(a.Cols[0].Ints, b.Cols[0].Ints) || !bytes.Equal(a.Cols[1].Data, b.Cols[1].Data) {
		t.Fatalf("lengths %d, %d; the rows differ", a.Len, b.Len)
	}
}

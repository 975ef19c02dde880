package crash

import (
	"errors"
	"strings"
	"sync/atomic"
	"testing"
)

func TestEach(t *testing.T) {
	for _, c := range []struct{ n, workers int }{
		{0, 2}, {1, 2}, {7, 1}, {7, 2}, {100, 3}, {100, 0}, {5, 64},
	} {
		calls := make([]atomic.Int32, c.n)
		out := make([]int, c.n)
		Each(c.n, c.workers, func(i int) {
			calls[i].Add(1)
			out[i] = i * i
		})
		for i := range c.n {
			if calls[i].Load() != 1 || out[i] != i*i {
				t.Errorf("n=%d workers=%d: index %d called %d times, slot %d", c.n, c.workers, i, calls[i].Load(), out[i])
			}
		}
	}
}

func TestEachPanic(t *testing.T) {
	for _, workers := range []int{1, 2, 4} {
		got := func() (p any) {
			defer func() { p = recover() }()
			Each(50, workers, func(i int) {
				if i == 17 {
					panic("boom at 17")
				}
			})
			return nil
		}()
		if workers == 1 {
			if got != "boom at 17" {
				t.Errorf("one worker: panic %v, want the caller's own boom at 17", got)
			}
			continue
		}
		err, ok := got.(error)
		var ce *Error
		if !ok || !errors.As(err, &ce) || !strings.Contains(err.Error(), "boom at 17") {
			t.Errorf("%d workers: panic %v, want a *crash.Error with boom at 17", workers, got)
		}
	}
}

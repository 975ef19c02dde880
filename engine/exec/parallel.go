//go:build engine

package exec

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/bucketlint/bucketlint/internal/crash"
)

// runParts calls fn for partitions 0..n-1 on up to par goroutines, stopping at the first
// error (or cancellation) and returning it. fn receives the worker number, so per-worker
// state needs no locking.
func runParts(ctx context.Context, n, par int, fn func(ctx context.Context, worker, part int) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	par = max(1, min(par, n))
	next := make(chan int)
	var once sync.Once
	var first error
	fail := func(err error) {
		once.Do(func() { first = err; cancel() })
	}
	var wg sync.WaitGroup
	var done atomic.Int64
	for w := range par {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer crash.Catch(fail) // the feeder stops on the cancel; the others drain next
			crash.Point("exec.runParts")
			for p := range next {
				if err := fn(ctx, w, p); err != nil {
					fail(err)
				} else {
					done.Add(1)
				}
			}
		}()
	}
feed:
	for p := range n {
		select {
		case next <- p:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if first == nil && done.Load() < int64(n) {
		// The caller's context ended (an interrupt) before every part ran: the parts not
		// run have no output, so the run fails with why it ended.
		return context.Cause(ctx)
	}
	return first
}

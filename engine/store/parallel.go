//go:build engine

package store

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/bucketlint/bucketlint/internal/crash"
)

// parallel calls f(i) for every i in [0, n) on up to workers goroutines (GOMAXPROCS when
// workers <= 0), handing out indexes in order, and returns when all calls have returned. A
// panic in f stops the other workers and is raised again, as a *crash.Error, in the caller.
func parallel(n, workers int, f func(i int)) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, n)
	if workers <= 1 {
		for i := range n {
			f(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	var crashed atomic.Pointer[crash.Error]
	for range workers {
		wg.Go(func() {
			defer crash.Catch(func(err error) {
				crashed.CompareAndSwap(nil, err.(*crash.Error)) //nolint:errorlint,forcetypeassert // Catch reports only *crash.Error
				next.Store(int64(n))                            // the other workers stop at their next index
			})
			crash.Point("store.parallel")
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				f(i)
			}
		})
	}
	wg.Wait()
	if e := crashed.Load(); e != nil {
		// Raised again in the caller's goroutine, where the deferred clean-up of the run
		// (verify's temporary warehouse) still happens; a worker's panic would skip it.
		panic(e)
	}
}

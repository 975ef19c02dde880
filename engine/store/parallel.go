package store

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// parallel calls f(i) for every i in [0, n) on up to workers goroutines (GOMAXPROCS when
// workers <= 0), handing out indexes in order, and returns when all calls have returned.
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
	for range workers {
		wg.Go(func() {
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
}

package crash

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Each calls f(i) for every i in [0, n) on up to workers goroutines (GOMAXPROCS when
// workers <= 0), handing out indexes in order, and returns when every call has returned.
// f writes its result to the i-th slot of something the caller owns, so the result does not
// depend on which goroutine ran which index. With one worker f runs in the caller's
// goroutine, in order, and a panic is the caller's own; with more, a panic in f stops the
// other workers at their next index and is raised again in the caller's goroutine as an
// *Error (the first one caught), where the caller's deferred clean-up still runs.
func Each(n, workers int, f func(i int)) { EachAt("", n, workers, f) }

// EachAt is Each whose worker goroutines each pass Point(site) as they start (when site is not
// empty), so that a test can make a worker panic there; the serial path, which runs in the
// caller's goroutine, passes no Point.
func EachAt(site string, n, workers int, f func(i int)) {
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
	var crashed atomic.Pointer[Error]
	for range workers {
		wg.Go(func() {
			defer Catch(func(err error) {
				crashed.CompareAndSwap(nil, err.(*Error)) //nolint:errorlint,forcetypeassert // Catch reports only *Error
				next.Store(int64(n))                      // the other workers stop at their next index
			})
			if site != "" {
				Point(site)
			}
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
		panic(e)
	}
}

//go:build engine

package store

import "github.com/bucketlint/bucketlint/internal/crash"

// parallel calls f(i) for every i in [0, n) on up to workers goroutines (GOMAXPROCS when
// workers <= 0): crash.Each, whose workers pass the crash point "store.parallel" (where
// TestVerifyWorkerPanic makes one panic). A panic in f stops the other workers and is raised
// again, as a *crash.Error, in the caller, where the deferred clean-up of the run (verify's
// temporary warehouse) still happens.
func parallel(n, workers int, f func(i int)) {
	crash.EachAt("store.parallel", n, workers, f)
}

// Package crash turns a panic in a worker goroutine into an error that the goroutine's owner
// returns. An unrecovered panic outside the main goroutine ends the process at once, without
// the deferred clean-up of the main goroutine (verify's temporary warehouse, for one); a
// worker that defers Catch hands the panic to its owner instead, which cleans up and reports
// it as an internal error.
package crash

import (
	"fmt"
	"runtime/debug"
	"sync/atomic"
)

// An Error is a panic recovered in a goroutine: the value it was raised with and the stack
// where it was raised.
type Error struct {
	Value any
	Stack []byte
}

// Error says that this is a bug, and where.
func (e *Error) Error() string {
	return fmt.Sprintf("internal error (a bug in bucketlint; please report it): %v\n%s", e.Value, e.Stack)
}

// Catch recovers a panic when deferred at the top of a goroutine, and calls report with it
// as an *Error (an *Error raised again is reported as it is); without a panic it does nothing.
func Catch(report func(error)) {
	if r := recover(); r != nil {
		if e, ok := r.(*Error); ok {
			report(e)
			return
		}
		report(&Error{Value: r, Stack: debug.Stack()})
	}
}

// hook is the function Point calls, set by tests through SetHook; nil in a normal run.
var hook atomic.Pointer[func(site string)] //nolint:gochecknoglobals // a test's injection point: the workers have nothing else to reach it through

// Point marks the start of a worker goroutine's work, after its deferred Catch, as the place
// named site ("exec.runParts"). It does nothing unless a test set a hook (SetHook), which may
// panic there, as a bug in the worker would, to show that the panic reaches the worker's owner
// and the run's clean-up still happens.
func Point(site string) {
	if h := hook.Load(); h != nil {
		(*h)(site)
	}
}

// SetHook makes Point call f (nil: nothing). It is for tests only.
func SetHook(f func(site string)) {
	if f == nil {
		hook.Store(nil)
		return
	}
	hook.Store(&f)
}

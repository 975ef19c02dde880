// Package crash turns a panic in a worker goroutine into an error that the goroutine's owner
// returns. An unrecovered panic outside the main goroutine ends the process at once, without
// the deferred clean-up of the main goroutine (verify's temporary warehouse, for one); a
// worker that defers Catch hands the panic to its owner instead, which cleans up and reports
// it as an internal error.
package crash

import (
	"fmt"
	"runtime/debug"
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
// as an *Error; without a panic it does nothing.
func Catch(report func(error)) {
	if r := recover(); r != nil {
		report(&Error{Value: r, Stack: debug.Stack()})
	}
}

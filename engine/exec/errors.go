//go:build engine

package exec

import (
	"errors"
	"io"
)

// errStopped ends a reader goroutine whose consumer closed early.
var errStopped = errors.New("scan stopped")

// errEOF returns io.EOF, the end of an operator's batches.
func errEOF() error { return io.EOF }

package exec

import "errors"

// errStopped ends a reader goroutine whose consumer closed early.
var errStopped = errors.New("scan stopped")

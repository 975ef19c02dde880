package exec

import (
	"errors"

	"github.com/bucketlint/bucketlint/engine/hash"
)

type hashType = hash.Type

// errStopped ends a reader goroutine whose consumer closed early.
var errStopped = errors.New("scan stopped")

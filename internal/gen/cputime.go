package gen

import (
	"time"

	"github.com/bucketlint/bucketlint/internal/cputime"
)

// CPUTime is the user plus system CPU time of the process so far (cputime.Process).
func CPUTime() time.Duration { return cputime.Process() }

// Command bucketlint lints Apache Spark bucketing and join layout. Run "bucketlint help".
package main

import (
	"os"
	"syscall"

	"github.com/bucketlint/bucketlint/internal/scratch"
)

func main() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }

// interrupted ends the process on a second SIGINT or SIGTERM, while the first one's clean-up
// may still run: it removes the temporary directories not yet removed and exits with the
// shell's code for the signal (130 for SIGINT, 143 for SIGTERM).
func interrupted(sig os.Signal) {
	_ = scratch.RemoveAll() // on the way out: nothing is left to report an error to
	if sig == syscall.SIGTERM {
		os.Exit(143)
	}
	os.Exit(130)
}

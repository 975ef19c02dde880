// Command bucketlint lints Apache Spark bucketing and join layout. Run "bucketlint help".
package main

import (
	"os"
	"syscall"
	"time"

	"github.com/bucketlint/bucketlint/internal/scratch"
)

func main() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }

// interrupted ends the process on a second SIGINT or SIGTERM, while the first one's clean-up
// may still run: it removes the temporary directories not yet removed and exits with the
// shell's code for the signal (130 for SIGINT, 143 for SIGTERM).
func interrupted(sig os.Signal) {
	removeScratch(scratch.Live(), 400, func() { time.Sleep(5 * time.Millisecond) }) // 2 s at most
	if sig == syscall.SIGTERM {
		os.Exit(143)
	}
	os.Exit(130)
}

// removeScratch removes dirs round after round, pausing between rounds, until two rounds in a
// row found none of them there, or after rounds rounds: the engine's workers may still be
// writing into one while it is removed (a file made after the removal read a directory makes
// it fail; a table directory made after it makes the directory anew), and they stop only at
// their next check of the cancelled context.
func removeScratch(dirs []string, rounds int, pause func()) {
	for clean, round := 0, 0; clean < 2 && round < rounds; round++ {
		clean++
		for _, d := range dirs {
			if _, err := os.Lstat(d); !os.IsNotExist(err) {
				clean = 0           // there, or made again since the last round
				_ = os.RemoveAll(d) // on the way out: nothing is left to report an error to
			}
		}
		pause()
	}
	_ = scratch.RemoveAll() // and forget them
}

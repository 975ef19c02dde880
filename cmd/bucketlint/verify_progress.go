//go:build engine

package main

import (
	"fmt"
	"os"
	"time"

	"github.com/bucketlint/bucketlint/engine/verify"
	"github.com/bucketlint/bucketlint/report"
)

// progressFunc returns a progress printer when standard error is a terminal, else nil.
func progressFunc(s *streams) func(verify.Progress) {
	f, ok := s.rawErr.(*os.File)
	if !ok {
		return nil
	}
	if fi, err := f.Stat(); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return nil
	}
	start := time.Now()
	return func(p verify.Progress) {
		fmt.Fprintf(s.rawErr, "\r\033[K%s", report.ProgressLine(p, time.Since(start)))
	}
}

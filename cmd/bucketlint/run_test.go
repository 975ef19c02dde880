package main

import (
	"syscall"
	"testing"
	"time"
)

// TestSignalContext: SIGTERM cancels the context every command runs under; the handler is
// released after it, so that a second signal ends the process as by default.
func TestSignalContext(t *testing.T) {
	ctx, stop := signalContext()
	defer stop()
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("SIGTERM did not cancel the context")
	}
}

package main

import (
	"os"
	"os/signal"
	"syscall"
	"testing"
	"time"
)

// TestSignalContext: the first SIGINT or SIGTERM cancels the context every command runs
// under; a second one goes to onSecond (which ends the process in main), so that a user who
// presses Ctrl-C twice does not leave temporary directories behind. After stop, neither
// reaches the handlers.
func TestSignalContext(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			got := make(chan os.Signal, 1)
			ctx, stop := signalContext(func(s os.Signal) { got <- s })
			defer stop()
			if err := syscall.Kill(syscall.Getpid(), sig); err != nil {
				t.Fatal(err)
			}
			select {
			case <-ctx.Done():
			case <-time.After(10 * time.Second):
				t.Fatalf("%s did not cancel the context", sig)
			}
			select {
			case s := <-got:
				t.Fatalf("onSecond(%s) called after the first signal", s)
			case <-time.After(50 * time.Millisecond):
			}
			if err := syscall.Kill(syscall.Getpid(), sig); err != nil {
				t.Fatal(err)
			}
			select {
			case s := <-got:
				if s != sig {
					t.Fatalf("onSecond(%s), want %s", s, sig)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("a second %s did not reach onSecond", sig)
			}
		})
	}
}

// TestSignalContextStop: a run that ends without a signal leaves no handler behind, and a
// signal then goes to the test's own handler, not to the command's.
func TestSignalContextStop(t *testing.T) {
	called := make(chan os.Signal, 1)
	ctx, stop := signalContext(func(s os.Signal) { called <- s })
	stop()
	stop() // twice is harmless
	mine := make(chan os.Signal, 1)
	signal.Notify(mine, syscall.SIGTERM)
	defer signal.Stop(mine)
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	<-mine
	select {
	case s := <-called:
		t.Fatalf("onSecond(%s) after stop", s)
	case <-time.After(50 * time.Millisecond):
	}
	_ = ctx
}

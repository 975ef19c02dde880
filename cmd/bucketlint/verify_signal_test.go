//go:build engine

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// signalChildEnv, when set, makes TestVerifySignal the verify process it signals: the
// arguments are the variable's value, split at newlines.
const signalChildEnv = "BUCKETLINT_SIGNAL_CHILD"

// TestVerifySignal runs `bucketlint verify` in a child process, sends it SIGINT or SIGTERM
// once its temporary warehouse exists, and checks that the process ends with an error and
// leaves no bucketlint-verify-* directory behind (issue 14: up to 540 MB were left), also
// when a second signal ends it during that clean-up.
func TestVerifySignal(t *testing.T) {
	if args := os.Getenv(signalChildEnv); args != "" {
		code := run(strings.Split(args, "\n"), strings.NewReader(""), os.Stdout, os.Stderr) //nolint:forbidigo // the child process prints as the binary does
		os.Exit(code)                                                                       //nolint:forbidigo // the child process exits as the binary does
	}
	if runtime.GOOS == "windows" {
		t.Skip("no SIGINT or SIGTERM to send")
	}
	work := filepath.Join(t.TempDir(), "q.sql")
	src := `CREATE TABLE a (k BIGINT, v INT, s STRING) USING parquet CLUSTERED BY (k) INTO 8 BUCKETS;
CREATE TABLE b (k BIGINT, w INT) USING parquet;
SELECT a.k, v, w FROM a JOIN b ON a.k = b.k;
`
	if err := os.WriteFile(work, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		sig   syscall.Signal
		twice bool // a second signal right after the first, as an impatient user sends
	}{{syscall.SIGINT, false}, {syscall.SIGTERM, false}, {syscall.SIGINT, true}, {syscall.SIGTERM, true}} {
		sig := c.sig
		name := sig.String()
		if c.twice {
			name += " twice"
		}
		t.Run(name, func(t *testing.T) {
			tmp := t.TempDir()
			cmd := exec.Command(os.Args[0], "-test.run=^TestVerifySignal$")
			cmd.Env = append(os.Environ(), "TMPDIR="+tmp, signalChildEnv+"=verify\n--rows\n20000000\n"+work)
			var stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stderr, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			if !waitForWarehouse(tmp, done) {
				t.Fatalf("verify ended before its warehouse was seen:\n%s", stderr.String())
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			if c.twice {
				time.Sleep(20 * time.Millisecond)
				_ = cmd.Process.Signal(sig) // the process may be gone already
			}
			select {
			case err := <-done:
				if err == nil {
					t.Fatalf("exit 0 after %s:\n%s", sig, stderr.String())
				}
			case <-time.After(2 * time.Minute):
				_ = cmd.Process.Kill()
				t.Fatalf("verify still running 2 minutes after %s", sig)
			}
			if left, _ := filepath.Glob(filepath.Join(tmp, "bucketlint-verify-*")); len(left) > 0 {
				t.Fatalf("left behind after %s: %v\n%s", sig, left, stderr.String())
			}
		})
	}
}

// waitForWarehouse polls dir until a bucketlint-verify-* directory appears (true) or the
// process ends first (false).
func waitForWarehouse(dir string, done <-chan error) bool {
	for {
		if found, _ := filepath.Glob(filepath.Join(dir, "bucketlint-verify-*")); len(found) > 0 {
			return true
		}
		select {
		case err := <-done:
			_ = err // the caller fails without it
			return false
		case <-time.After(5 * time.Millisecond):
		}
	}
}

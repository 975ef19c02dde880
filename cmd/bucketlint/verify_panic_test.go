//go:build engine

package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// panicChildEnv, when set, makes TestVerifyWorkerPanic the verify process: the first line of
// its value is the worker site (crash.Point) that panics, the others the arguments.
const panicChildEnv = "BUCKETLINT_PANIC_CHILD"

// TestVerifyWorkerPanic runs `bucketlint verify` in a child process with a panic injected at
// each engine worker's start (issue 14: an unrecovered panic in a goroutine ends the process
// before the deferred removal of the temporary warehouse runs). Each must end with exit 2 and
// an internal error that names the panic, not in a panic of its own, and leave no
// bucketlint-verify-* directory behind.
func TestVerifyWorkerPanic(t *testing.T) {
	runPanicChild(panicChildEnv)
	work := filepath.Join(t.TempDir(), "q.sql")
	src := `CREATE TABLE a (k BIGINT, v INT, s STRING) USING parquet CLUSTERED BY (k) INTO 8 BUCKETS;
CREATE TABLE b (k BIGINT, w INT) USING parquet;
SELECT a.k, v, w FROM a JOIN b ON a.k = b.k;
`
	if err := os.WriteFile(work, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, site := range []string{"store.parallel", "store.write", "exec.runParts", "exec.scan", "exec.CompareRows"} {
		t.Run(site, func(t *testing.T) {
			tmp := t.TempDir()
			ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestVerifyWorkerPanic$")
			// Two processors: store's parallel loops run on the caller alone with one.
			cmd.Env = append(os.Environ(), "TMPDIR="+tmp, "GOMAXPROCS=2", panicChildEnv+"="+site+"\nverify\n--rows\n20000\n"+work)
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			_ = cmd.Run() // the exit code is checked below
			if ctx.Err() != nil {
				t.Fatalf("verify still running after 2 minutes:\n%.3000s", out.String())
			}
			if code := cmd.ProcessState.ExitCode(); code != exitUsage {
				t.Errorf("exit %d, want %d (an internal error)\n%.3000s", code, exitUsage, out.String())
			}
			if !strings.Contains(out.String(), "internal error") || !strings.Contains(out.String(), "injected at "+site) {
				t.Errorf("output does not report the panic as an internal error:\n%.3000s", out.String())
			}
			for _, line := range strings.Split(out.String(), "\n") {
				if strings.HasPrefix(line, "panic: ") {
					t.Errorf("the process ended in a panic, not with an error:\n%.3000s", out.String())
					break
				}
			}
			if left, _ := filepath.Glob(filepath.Join(tmp, "bucketlint-verify-*")); len(left) > 0 {
				t.Errorf("left behind after a panic at %s: %v", site, left)
			}
		})
	}
}

package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bucketlint/bucketlint/internal/crash"
)

// checkPanicChildEnv, when set, makes TestCheckWorkerPanic the check process: the first line
// of its value is the worker site (crash.Point) that panics, the others the arguments.
const checkPanicChildEnv = "BUCKETLINT_CHECK_PANIC_CHILD"

// TestCheckWorkerPanic runs `bucketlint check` in a child process with a panic injected at
// the start of each worker that builds join sites, which rules ask for from their own
// workers. It must end with exit 2 and one internal error that names the panic once, not in a
// Go panic (the panic was raised again in the rule worker, then in check's goroutine, and
// the process ended printing it twice, with "[recovered, repanicked]").
func TestCheckWorkerPanic(t *testing.T) {
	runPanicChild(checkPanicChildEnv)
	work := filepath.Join(t.TempDir(), "q.sql")
	src := `CREATE TABLE a (k BIGINT) USING parquet CLUSTERED BY (k) INTO 8 BUCKETS;
CREATE TABLE b (k BIGINT, w INT) USING parquet;
SELECT * FROM a JOIN b ON a.k = b.k;
SELECT * FROM a JOIN b ON a.k = b.w;
`
	if err := os.WriteFile(work, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	const site = "workload.sites"
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestCheckWorkerPanic$")
	// Two processors and two jobs: the sites' workers run on goroutines of their own.
	cmd.Env = append(os.Environ(), "GOMAXPROCS=2", checkPanicChildEnv+"="+site+"\ncheck\n--jobs\n2\n"+work)
	out, _ := cmd.CombinedOutput() // the exit code is checked below
	if ctx.Err() != nil {
		t.Fatalf("check still running after 2 minutes:\n%.3000s", out)
	}
	if code := cmd.ProcessState.ExitCode(); code != exitUsage {
		t.Errorf("exit %d, want %d (an internal error)\n%.3000s", code, exitUsage, out)
	}
	text := string(out)
	if n := strings.Count(text, "internal error"); n != 1 {
		t.Errorf(`"internal error" %d times, want once:\n%.3000s`, n, text)
	}
	if n := strings.Count(text, "injected at "+site); n != 1 {
		t.Errorf("the panic's value %d times, want once:\n%.3000s", n, text)
	}
	// The summary must not read as a clean run: the failed rule's findings are missing.
	if !strings.Contains(text, "incomplete: 1 rule failed") {
		t.Errorf("the summary does not say the result is incomplete:\n%.3000s", text)
	}
	if strings.Contains(text, "panic: ") || strings.Contains(text, "repanicked") {
		t.Errorf("the process ended in a panic, not with an error:\n%.3000s", text)
	}
}

// runPanicChild makes this test process the bucketlint process of a panic test, when env is
// set: the first line of its value is the worker site (crash.Point) that panics, the others
// the command's arguments; it exits with the command's exit code.
func runPanicChild(env string) {
	v := os.Getenv(env)
	if v == "" {
		return
	}
	lines := strings.Split(v, "\n")
	crash.SetHook(func(site string) {
		if site == lines[0] {
			panic("injected at " + site)
		}
	})
	os.Exit(run(lines[1:], strings.NewReader(""), os.Stdout, os.Stderr)) //nolint:forbidigo // the child process exits as the binary does
}

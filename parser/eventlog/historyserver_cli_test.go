package eventlog

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// bucketlintBinary builds cmd/bucketlint into a temporary directory: the live History Server
// test runs the command a user runs.
func bucketlintBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "bucketlint")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/bucketlint")
	cmd.Dir = "../.."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/bucketlint: %v\n%s", err, out)
	}
	return bin
}

// runCLI runs the built command and returns its standard output and exit code.
func runCLI(t *testing.T, bin string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		if ee.ExitCode() > 1 { // 1 is findings at or above the failing severity
			t.Fatalf("bucketlint %s: exit %d\n%s", strings.Join(args, " "), ee.ExitCode(), errOut.String())
		}
		return out.String(), ee.ExitCode()
	case err != nil:
		t.Fatalf("bucketlint %s: %v", strings.Join(args, " "), err)
	}
	return out.String(), 0
}

// evidenceCosts is `bucketlint evidence --format json` without where each cost's first run
// starts, which names a log file or a History Server URL.
func evidenceCosts(t *testing.T, out string) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("evidence --format json: %v\n%s", err, out)
	}
	costs, _ := v["costs"].([]any)
	if len(costs) == 0 {
		t.Fatalf("evidence found no cost:\n%s", out)
	}
	for _, c := range costs {
		delete(c.(map[string]any), "firstRun")
	}
	return v
}

// checkCLIAgainstServer runs `bucketlint evidence` and `bucketlint check --evidence` over the
// directory of logs and over the History Server at root that serves them, as a user types its
// address: the costs (every figure, every layout) and the findings with their measured cost
// must be the same, whichever way the logs were read.
func checkCLIAgainstServer(t *testing.T, bin, logs, root string) {
	t.Helper()
	fromFiles := evidenceCosts(t, mustRun(t, bin, "evidence", "--format", "json", "--top", "0", logs))
	fromServer := evidenceCosts(t, mustRun(t, bin, "evidence", "--format", "json", "--top", "0", root))
	if !reflect.DeepEqual(fromFiles, fromServer) {
		a, _ := json.MarshalIndent(fromFiles, "", "  ")
		b, _ := json.MarshalIndent(fromServer, "", "  ")
		t.Errorf("bucketlint evidence: from the files\n%s\nfrom %s\n%s", a, root, b)
	}
	for _, code := range []string{"../../cmd/bucketlint/testdata/evidence/work.sql", "../../cmd/bucketlint/testdata/evidence/agg.sql"} {
		files, fc := runCLI(t, bin, "check", "--evidence", logs, code)
		server, sc := runCLI(t, bin, "check", "--evidence", root, code)
		if !strings.Contains(files, "measured: this") {
			t.Errorf("check --evidence %s %s: no measured finding\n%s", logs, code, files)
		}
		if files != server || fc != sc {
			t.Errorf("check --evidence %s: from the files (exit %d)\n%s\nfrom %s (exit %d)\n%s", code, fc, files, root, sc, server)
		}
	}
	t.Logf("bucketlint evidence (%d costs) and check --evidence (work.sql, agg.sql) give the same figures from %s as from the files", len(fromFiles["costs"].([]any)), root)
}

func mustRun(t *testing.T, bin string, args ...string) string {
	t.Helper()
	out, code := runCLI(t, bin, args...)
	if code != 0 {
		t.Fatalf("bucketlint %s: exit %d", strings.Join(args, " "), code)
	}
	return out
}

// copyLog copies a recorded log (a file, or a rolled log's directory) into dir: the History
// Server and the command read the same directory.
func copyLog(t *testing.T, src, dir string) {
	t.Helper()
	fi, err := os.Stat(src)
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(dir, filepath.Base(src))
	if !fi.IsDir() {
		b, err := os.ReadFile(src)
		if err == nil {
			err = os.WriteFile(dst, b, 0o600)
		}
		if err != nil {
			t.Fatal(err)
		}
		return
	}
	if err := os.Mkdir(dst, 0o700); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		copyLog(t, filepath.Join(src, e.Name()), dst)
	}
}

// Package enginetest runs a package's tests in the engine build from a run without the tag.
//
// The embedded engine (engine/store, engine/exec, engine/verify, and verify in report and
// cmd/bucketlint) compiles only with `-tags engine`, so that the linter's default build needs
// no Parquet or compression module (issue 15). A plain `go test ./...` would then skip those
// tests without a word. Each such package has a test file for the build without the tag whose
// one test calls Run: it runs the package's tests again with `-tags engine` and fails with
// their output if they fail. CI's light stage sets BUCKETLINT_ENGINE_TESTS=separate, as it
// runs the engine build's tests in a stage of their own (.ci/run).
package enginetest

import (
	"os"
	"os/exec"
	"testing"
)

// Run runs `go test -tags engine` on the package in the working directory (a test's own).
func Run(t *testing.T) {
	t.Helper()
	if os.Getenv("BUCKETLINT_ENGINE_TESTS") == "separate" {
		t.Skip("BUCKETLINT_ENGINE_TESTS=separate: the engine build's tests run in their own stage")
	}
	args := []string{"test", "-tags", "engine"}
	if testing.Verbose() {
		args = append(args, "-v")
	}
	cmd := exec.CommandContext(t.Context(), "go", append(args, ".")...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go test -tags engine: %v\n%s", err, out)
	}
	t.Logf("go test -tags engine:\n%s", out)
}

package main

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

// needsEngine reports whether a command line runs on the embedded engine: verify in every
// mode, and check --verify. In the light build (no -tags engine) such a line must exit 2
// with the message that says how to get the engine, which expectExit checks in place of the
// output the engine build gives; CI runs the tests in both builds (.ci/run).
func needsEngine(args []string) bool {
	return len(args) > 0 && (args[0] == "verify" || args[0] == "check" && slices.Contains(args, "--verify"))
}

// noEngineMessage is what the light build says of a command that needs the engine.
const noEngineMessage = "this bucketlint was built without the embedded engine"

// checkNoEngine checks a command line that needs the engine in the light build: exit 2, and
// the message naming the engine build.
func checkNoEngine(t *testing.T, code int, stderr []byte) {
	t.Helper()
	if code != exitUsage || !bytes.Contains(stderr, []byte(noEngineMessage)) ||
		!bytes.Contains(stderr, []byte("go install -tags engine github.com/bucketlint/bucketlint/cmd/bucketlint@")) {
		t.Errorf("light build: exit %d, stderr:\n%s\nwant exit 2 and %q with the engine build's install command", code, stderr, noEngineMessage)
	}
}

// TestLightBuildRefusesEngineCommands runs, in either build, the command lines that need the
// engine: in the light build each exits 2 with the message, before reading any input; in the
// engine build none of them says so.
func TestLightBuildRefusesEngineCommands(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, args := range [][]string{
		{"verify", "nope.sql"},
		{"verify", "--spark", "local[2]", "nope.sql"},
		{"verify", "--spark", "sc://localhost:15002", "nope.sql"},
		{"verify", "--layout", "nope", "--table-spec", "t: CLUSTERED BY (k) INTO 8 BUCKETS", "--types", "k:int"},
		{"check", "--verify", "nope.sql"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(args, strings.NewReader(""), &stdout, &stderr)
			if !engineBuilt {
				checkNoEngine(t, code, stderr.Bytes())
			} else if strings.Contains(stderr.String(), noEngineMessage) {
				t.Errorf("the engine build says it has no engine:\n%s", stderr.String())
			}
		})
	}
}

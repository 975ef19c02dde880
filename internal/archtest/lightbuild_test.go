package archtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// heavyModules are the modules the linter's default build must not compile (issue 15: a cold
// `go install` downloads every module whose packages are in the build, so these would cost
// 80 MB): the Parquet library of the embedded engine and the compression and RPC libraries it
// and the Spark Connect client bring. `-tags engine` adds the first group, `-tags sparkconnect`
// (with engine) the second.
var heavyModules = []string{
	"github.com/parquet-go/",
	"github.com/klauspost/compress",
	"github.com/pierrec/lz4",
	"github.com/andybalholm/brotli",
	"github.com/apache/spark-connect-go",
	"github.com/apache/arrow-go",
	"google.golang.org/grpc",
}

// deps lists the packages `go build` compiles for cmd/bucketlint with the given build tags.
func deps(t *testing.T, tags string) []string {
	t.Helper()
	args := []string{"list", "-deps"}
	if tags != "" {
		args = append(args, "-tags", tags)
	}
	out, err := exec.Command("go", append(args, module+"/cmd/bucketlint")...).CombinedOutput()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.Fields(string(out))
}

// TestLightBuildImports checks the import graph of the default build (no tags: what `go
// install github.com/bucketlint/bucketlint/cmd/bucketlint` compiles) holds none of the heavy
// modules, and that the engine build does hold Parquet, so the check sees the difference the
// tag makes. Test files do not count: they never reach `go install`.
func TestLightBuildImports(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list over the whole build")
	}
	for _, p := range deps(t, "") {
		for _, m := range heavyModules {
			if strings.HasPrefix(p, m) {
				t.Errorf("the default build compiles %s; it must stay out of the light linter (build it behind -tags engine)", p)
			}
		}
	}
	full := deps(t, "engine")
	found := false
	for _, p := range full {
		found = found || strings.HasPrefix(p, "github.com/parquet-go/parquet-go")
	}
	if !found {
		t.Error("the engine build (-tags engine) does not compile parquet-go: the embedded engine is missing from it")
	}
}

// TestEngineFilesTagged checks that every Go file of the engine's packages is built only with
// -tags engine, so that no file of theirs slips into the default build (where it would not
// compile without its package, or would bring its imports along).
func TestEngineFilesTagged(t *testing.T) {
	for _, dir := range []string{"engine/store", "engine/exec", "engine/verify"} {
		files, err := filepath.Glob(filepath.Join("../..", dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no Go files (%v)", dir, err)
		}
		for _, f := range files {
			if filepath.Base(f) == "engine_light_test.go" { // the bridge of the build without the tag
				continue
			}
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			line, _, _ := strings.Cut(string(b), "\n")
			expr, ok := strings.CutPrefix(line, "//go:build ")
			if !ok || !slices.Contains(strings.Fields(strings.NewReplacer("&&", " ", "(", " ", ")", " ").Replace(expr)), "engine") {
				t.Errorf("%s: first line %q: every file here starts with //go:build engine (or engine && …)", f, line)
			}
		}
	}
}

package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/internal/golden"
)

var update = flag.Bool("update", false, "rewrite golden sections")

// TestCommands runs each testdata/*.txtar case in-process: the "args" section is the command
// line (one argument per line), every other section except the expectations is a file in a
// fresh working directory, and "stdin" is standard input. The "stdout", "stderr" and "exit"
// sections are what the command must print and return.
func TestCommands(t *testing.T) {
	for _, c := range golden.Load(t, "testdata/*.txtar", *update) {
		t.Run(c.Name(), func(t *testing.T) {
			dir := t.TempDir()
			var stdin []byte
			for _, f := range c.Archive.Files {
				switch f.Name {
				case "args", "stdout", "stderr", "exit":
				case "stdin":
					stdin = f.Data
				default:
					p := filepath.Join(dir, filepath.FromSlash(f.Name))
					if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(p, f.Data, 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			argText, ok := c.File("args")
			if !ok {
				t.Fatal("no args section")
			}
			var args []string
			if s := strings.TrimRight(string(argText), "\n"); s != "" {
				args = strings.Split(s, "\n")
			}
			t.Chdir(dir)
			var stdout, stderr bytes.Buffer
			code := run(args, bytes.NewReader(stdin), &stdout, &stderr)
			if !engineBuilt && needsEngine(args) { // the light build: the golden is the engine build's
				checkNoEngine(t, code, stderr.Bytes())
				return
			}
			c.Check(t, "stdout", stdout.Bytes())
			c.Check(t, "stderr", stderr.Bytes())
			c.Check(t, "exit", []byte(strconv.Itoa(code)+"\n"))
			c.Save(t)
		})
	}
}

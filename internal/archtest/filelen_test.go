package archtest

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// maxFileLines is the most lines a non-test Go file may have (the project brief's bar).
const maxFileLines = 500

// TestNoLongFiles fails naming each non-test Go file of the module over maxFileLines lines.
// golangci-lint has no linter for a file's length, so this test is the guard.
func TestNoLongFiles(t *testing.T) {
	long, err := longFiles("../..", maxFileLines)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range long {
		t.Errorf("%s: split it: a non-test Go file has at most %d lines", f, maxFileLines)
	}
}

// TestLongFilesFindsLongFile proves the guard can fail: a 501-line file is named, a
// 500-line file, a test file and files under testdata, vendor or a dot directory are not.
func TestLongFilesFindsLongFile(t *testing.T) {
	dir := t.TempDir()
	lines := func(n int) []byte { return bytes.Repeat([]byte("//\n"), n) }
	write := func(name string, b []byte) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", []byte("module example.com/m\n"))
	write("a/long.go", lines(501))
	write("a/ok.go", lines(500))
	write("a/unterminated.go", append(lines(500), "// 501st, no newline"...))
	write("a/long_test.go", lines(900))
	write("a/testdata/long.go", lines(900))
	write("vendor/x/long.go", lines(900))
	write(".git/long.go", lines(900))
	write("notgo.txt", lines(900))
	got, err := longFiles(dir, maxFileLines)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"a/long.go: 501 lines", "a/unterminated.go: 501 lines"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("longFiles = %q, want %q", got, want)
	}
}

// longFiles walks the module rooted at root and returns "path: N lines" (path relative to
// root, slash-separated, sorted) for each non-test .go file with more than limit lines. It
// skips testdata, vendor and directories whose name starts with a dot or an underscore, as
// the go tool does.
func longFiles(root string, limit int) ([]string, error) {
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		n, err := countLines(p)
		if err != nil {
			return err
		}
		if n > limit {
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			out = append(out, fmt.Sprintf("%s: %d lines", filepath.ToSlash(rel), n))
		}
		return nil
	})
	sort.Strings(out)
	return out, err
}

// countLines counts the lines of the file at p, a last line without a newline included.
func countLines(p string) (int, error) {
	f, err := os.Open(p)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	n := 0
	for sc.Scan() {
		n++
	}
	return n, sc.Err()
}

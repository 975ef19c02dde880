//go:build unix

package parser

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestLoadHostilePaths names paths no parser should read, each beside a good file: every one
// is a positioned error, none blocks, and the good file's table is still loaded.
func TestLoadHostilePaths(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	good := "CREATE TABLE t (id INT) USING parquet CLUSTERED BY (id) INTO 4 BUCKETS;\n"
	write(t, "repo/t.sql", []byte(good))
	write(t, "nul.sql", []byte("SELECT 1;\x00\n"))
	write(t, "big.sql", []byte(strings.Repeat("-- x\n", 100)))
	if err := syscall.Mkfifo("pipe.sql", 0o644); err != nil {
		t.Fatal(err)
	}
	for old, link := range map[string]string{"/dev/zero": "zero.sql", "repo": "link", "loop-a": "loop-b"} {
		if err := os.Symlink(old, link); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("loop-b", "loop-a"); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		path, want string
	}{
		{"pipe.sql", "error pipe.sql: not a regular file (a named pipe); only regular files are read"},
		{"/dev/zero", "error /dev/zero: not a regular file (a character device); only regular files are read"},
		{"zero.sql", "error zero.sql: not a regular file (a character device); only regular files are read"},
		{"nul.sql", "error nul.sql: binary file (a NUL byte in its first 8000 bytes); not read"},
		{"big.sql", "error big.sql: file is 500 bytes, above the 400 bytes bucketlint reads (--max-input-size)"},
		{"loop-a", "error loop-a: stat: too many levels of symbolic links"},
		{"-", "error -: reading standard input: input is larger than the 400 bytes bucketlint reads (--max-input-size)"},
	}
	for _, c := range cases {
		t.Run(c.path, func(t *testing.T) {
			done := make(chan string, 1)
			go func() {
				opts := LoadOptions{MaxInputSize: 400, Stdin: strings.NewReader(strings.Repeat("x", 401))}
				proj, errs := Load(t.Context(), []string{c.path, "repo"}, opts)
				done <- dump(proj, errs)
			}()
			select {
			case got := <-done:
				for _, want := range []string{c.want, "sources: repo/t.sql:1:1"} {
					if !strings.Contains(got, want) {
						t.Errorf("missing %q in\n%s", want, got)
					}
				}
			case <-time.After(20 * time.Second):
				t.Fatal("Load blocked")
			}
		})
	}
}

// TestLoadHostileWalked finds the same paths in a walked directory, where the walk stats only
// what its directory entry does not call a regular file and the parse workers check the size
// of the rest: each is reported at its name, none is one of the files read, none blocks.
func TestLoadHostileWalked(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	write(t, "repo/t.sql", []byte("CREATE TABLE t (id INT) USING parquet CLUSTERED BY (id) INTO 4 BUCKETS;\n"))
	write(t, "repo/big.sql", []byte(strings.Repeat("-- x\n", 100)))
	write(t, "repo/nul.sql", []byte("SELECT 1;\x00\n"))
	if err := syscall.Mkfifo("repo/pipe.sql", 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan string, 1)
	go func() {
		proj, errs := Load(t.Context(), []string{"repo"}, LoadOptions{MaxInputSize: 400})
		done <- dump(proj, errs)
	}()
	select {
	case got := <-done:
		for _, want := range []string{
			"error repo/big.sql: file is 500 bytes, above the 400 bytes bucketlint reads (--max-input-size)",
			"error repo/nul.sql: binary file (a NUL byte in its first 8000 bytes); not read",
			"error repo/pipe.sql: not a regular file (a named pipe); only regular files are read",
			"files: repo/t.sql\n", "sources: repo/t.sql:1:1",
		} {
			if !strings.Contains(got, want) {
				t.Errorf("missing %q in\n%s", want, got)
			}
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Load blocked")
	}
}

// TestLoadLinkedRoot walks a symbolic link to a directory, named without a trailing slash,
// under the link's name.
func TestLoadLinkedRoot(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	write(t, filepath.Join("repo", "ddl", "t.sql"), []byte("CREATE TABLE t (id INT) USING parquet;\n"))
	if err := os.Symlink("repo", "link"); err != nil {
		t.Fatal(err)
	}
	for _, root := range []string{"link", "link/", "./link"} {
		proj, errs := Load(t.Context(), []string{root}, LoadOptions{})
		got := dump(proj, errs)
		if !strings.Contains(got, "files: link/ddl/t.sql\n") || !strings.Contains(got, "sources: link/ddl/t.sql:1:1") || strings.Contains(got, "error") {
			t.Errorf("%s:\n%s", root, got)
		}
	}
}

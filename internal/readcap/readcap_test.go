//go:build unix

package readcap

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestFile(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small.sql")
	big := filepath.Join(dir, "big.sql")
	fifo := filepath.Join(dir, "pipe.sql")
	zeroLink := filepath.Join(dir, "zero.sql")
	mustWrite(t, small, "SELECT 1;")
	mustWrite(t, big, strings.Repeat("x", 101))
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", zeroLink); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, path string
		want       string // "" reads; else a substring of the error
	}{
		{"regular", small, ""},
		{"too large", big, "file is 101 bytes, above the 100 bytes bucketlint reads"},
		{"fifo", fifo, "not a regular file (a named pipe)"},
		{"device", "/dev/zero", "not a regular file (a character device)"},
		{"symlink to a device", zeroLink, "not a regular file (a character device)"},
		{"directory", dir, "not a regular file (a directory)"},
		{"missing", filepath.Join(dir, "nope"), "no such file"},
	} {
		t.Run(c.name, func(t *testing.T) {
			done := make(chan error, 1)
			go func() {
				_, err := File(c.path, 100)
				done <- err
			}()
			var err error
			select {
			case err = <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("File blocked")
			}
			if c.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want %q", err, c.want)
			}
			if _, cerr := Check(c.path, 100); (cerr == nil) != (err == nil) {
				t.Errorf("Check: %v, File: %v", cerr, err)
			}
		})
	}
}

// TestFileSizes reads files of sizes around the buffer's and the limit's edges and wants every
// byte.
func TestFileSizes(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []int{0, 1, 511, 512, 513, 4096, 99_999, 100_000} {
		p := filepath.Join(dir, fmt.Sprint(n))
		want := strings.Repeat("abcdefg\n", n/8+1)[:n]
		mustWrite(t, p, want)
		got, err := File(p, 100_000)
		if err != nil || string(got) != want {
			t.Errorf("%d bytes: read %d bytes, %v", n, len(got), err)
		}
	}
	// Longer than the buffer sized at open: a file that grew meanwhile is read to its end
	// (and then refused when over the limit).
	got, err := readAll(strings.NewReader("1234567890"), make([]byte, 0, 6))
	if err != nil || string(got) != "1234567890" {
		t.Errorf("readAll past the capacity: %q, %v", got, err)
	}
}

func TestFileMissingIsNotExist(t *testing.T) {
	_, err := File(filepath.Join(t.TempDir(), "nope"), 0)
	if !errors.Is(err, fs.ErrNotExist) || Refused(err) {
		t.Fatalf("%v: want fs.ErrNotExist, not a refusal", err)
	}
	if got := Message(err); got != "open: no such file or directory" {
		t.Errorf("Message = %q", got)
	}
}

func TestStream(t *testing.T) {
	if _, err := Stream(strings.NewReader("12345"), 5); err != nil {
		t.Fatal(err)
	}
	_, err := Stream(strings.NewReader("123456"), 5)
	var tl *TooLargeError
	if !errors.As(err, &tl) || !Refused(err) {
		t.Fatalf("%v: want a TooLargeError", err)
	}
	if want := "input is larger than the 5 bytes bucketlint reads (--max-input-size)"; err.Error() != want {
		t.Errorf("%q, want %q", err, want)
	}
	// /dev/zero never ends: the limit stops the read.
	f, err := os.Open("/dev/zero")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	if _, err := Stream(f, 1<<20); !errors.As(err, &tl) {
		t.Fatalf("%v: want a TooLargeError", err)
	}
}

func TestBinary(t *testing.T) {
	if Binary([]byte("SELECT 1")) || !Binary([]byte("a\x00b")) || Binary(append(make([]byte, 8000, 8001)[:0], strings.Repeat("a", 8000)+"\x00"...)) {
		t.Error("Binary: wrong verdict")
	}
	if got := Bytes(16 << 20); got != "16 MiB" {
		t.Errorf("Bytes = %q", got)
	}
}

func mustWrite(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

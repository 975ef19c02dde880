package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRemoveScratchWhileWritten: a second signal removes the temporary directories while the
// first one's clean-up may still have workers writing into them (issue 14: a table directory
// made after the removal made the warehouse anew, and it was left behind). A writer here makes
// the directory again at each pause, a given number of times, then stops, as a worker does at
// its next check of the cancelled context; removeScratch must outlast it.
func TestRemoveScratchWhileWritten(t *testing.T) {
	for _, writes := range []int{0, 1, 3, 10} {
		dir := filepath.Join(t.TempDir(), "bucketlint-verify-1")
		table := filepath.Join(dir, "t", "part-00000.parquet")
		write := func() {
			if err := os.MkdirAll(filepath.Dir(table), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(table, []byte("rows"), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		write()
		left := writes
		removeScratch([]string{dir}, 100, func() {
			if left > 0 {
				left--
				write()
			}
		})
		if _, err := os.Lstat(dir); !os.IsNotExist(err) {
			t.Errorf("writer making it %d times: %s still there (%v)", writes, dir, err)
		}
		if left > 0 {
			t.Errorf("writer making it %d times: removal stopped with %d writes to come", writes, left)
		}
	}
}

package scratch

import (
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestLiveMissesNothing: a second signal's handler removes the directories Live lists and
// exits, so a directory already made must be listed. Directories are made and removed on
// one goroutine while another lists the parent and then asks Live: a directory seen on disk
// that Live does not list must have been removed by then (issue 14: MkdirTemp registered it
// only after making it, and a handler that ran in between left it behind).
func TestLiveMissesNothing(t *testing.T) {
	parent := t.TempDir()
	var stop atomic.Bool
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			for !stop.Load() {
				_, remove, err := MkdirTemp(parent, "x-")
				if err != nil {
					t.Error(err)
					return
				}
				_ = remove()
			}
		})
	}
	missed := 0
	for deadline := time.Now().Add(time.Second); time.Now().Before(deadline) && missed == 0; {
		entries, _ := os.ReadDir(parent)
		live := Live()
		for _, e := range entries {
			d := filepath.Join(parent, e.Name())
			if slices.Contains(live, d) {
				continue
			}
			if _, err := os.Lstat(d); err == nil {
				missed++
				t.Errorf("%s was on disk before Live and after it, and Live did not list it", d)
			}
		}
	}
	stop.Store(true)
	wg.Wait()
}

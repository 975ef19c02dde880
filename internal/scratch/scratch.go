// Package scratch makes the temporary directories of a run and remembers them until they are
// removed, so that a process ended by a second interrupt (see cmd/bucketlint's signal handling)
// can still remove what it made before it exits.
package scratch

import (
	"errors"
	"os"
	"sync"
)

// The registry is the process's own: the handler of a second signal has nothing else to
// reach it through.
var (
	mu   sync.Mutex              //nolint:gochecknoglobals // see above
	live = map[string]struct{}{} //nolint:gochecknoglobals // see above
)

// MkdirTemp makes a new directory as os.MkdirTemp does and registers it. remove deletes the
// directory and everything below it and forgets it; it may be called more than once.
func MkdirTemp(parent, pattern string) (dir string, remove func() error, err error) {
	// Made and registered under the lock: Live, which takes it, never misses a directory
	// that exists (a second signal's handler would leave it behind).
	mu.Lock()
	dir, err = os.MkdirTemp(parent, pattern)
	if err == nil {
		live[dir] = struct{}{}
	}
	mu.Unlock()
	if err != nil {
		return "", nil, err
	}
	return dir, func() error {
		err := os.RemoveAll(dir)
		if err == nil {
			mu.Lock()
			delete(live, dir)
			mu.Unlock()
		}
		return err
	}, nil
}

// Live returns the directories made by MkdirTemp and not yet removed, in no order.
func Live() []string {
	mu.Lock()
	defer mu.Unlock()
	dirs := make([]string, 0, len(live))
	for d := range live {
		dirs = append(dirs, d)
	}
	return dirs
}

// RemoveAll removes every directory still registered and returns the errors met, joined.
// It is what a process calls on its way out when its normal clean-up cannot run.
func RemoveAll() error {
	var errs []error
	for _, d := range Live() {
		if err := os.RemoveAll(d); err != nil {
			errs = append(errs, err)
			continue
		}
		mu.Lock()
		delete(live, d)
		mu.Unlock()
	}
	return errors.Join(errs...)
}

//go:build engine

package verify

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// outLock is the file that claims Options.OutDir for one run while it writes there.
const outLock = ".bucketlint-verify.lock"

// claimOutDir claims dir for one run: it creates dir when it does not exist, then creates
// the lock file exclusively, so that of two runs given the same directory at the same time
// exactly one goes on (issue 14: both passed the emptiness check and wrote one table of
// files and rows from the two). The directory must hold nothing else. release removes the
// lock file.
func claimOutDir(dir string) (release func() error, err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create output directory: %w", err)
	}
	lock := filepath.Join(dir, outLock)
	f, err := os.OpenFile(lock, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("output directory %s is being written by another bucketlint verify (%s exists; remove it if no run is going on)", dir, outLock)
	}
	if err != nil {
		return nil, fmt.Errorf("output directory %s: %w", dir, err)
	}
	_, werr := f.WriteString("pid " + strconv.Itoa(os.Getpid()) + " since " + time.Now().UTC().Format(time.RFC3339) + "\n")
	if err := errors.Join(werr, f.Close()); err != nil {
		return nil, errors.Join(fmt.Errorf("output directory %s: %w", dir, err), os.Remove(lock))
	}
	release = func() error { return os.Remove(lock) }
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, errors.Join(fmt.Errorf("output directory %s: %w", dir, err), release())
	}
	for _, e := range entries {
		if e.Name() != outLock {
			return nil, errors.Join(fmt.Errorf("output directory %s is not empty; bucketlint writes only into an empty or new directory", dir), release())
		}
	}
	return release, nil
}

// writeFileAtomic writes data to path through a temporary file in the same directory,
// renamed into place, so that a reader sees the whole file or none.
func writeFileAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	if err := errors.Join(werr, f.Close()); err != nil {
		return errors.Join(err, os.Remove(f.Name()))
	}
	if err := os.Chmod(f.Name(), 0o644); err != nil {
		return errors.Join(err, os.Remove(f.Name()))
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return errors.Join(err, os.Remove(f.Name()))
	}
	return nil
}

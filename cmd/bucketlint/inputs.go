package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/bucketlint/bucketlint/internal/readcap"
	"github.com/bucketlint/bucketlint/simulate"
)

// sizeFlag is --max-input-size: the largest input any command reads, in bytes ("16MB").
type sizeFlag int64

func (f *sizeFlag) String() string {
	if f == nil || *f == 0 {
		return readcap.Bytes(readcap.DefaultLimit)
	}
	return readcap.Bytes(int64(*f))
}

func (f *sizeFlag) Set(v string) error {
	n, err := simulate.ParseBytes(v)
	if err != nil || n <= 0 {
		return fmt.Errorf("want a positive size such as 16MB, got %q", v)
	}
	*f = sizeFlag(n)
	return nil
}

// limit is the flag's value, 0 meaning readcap.DefaultLimit.
func (f sizeFlag) limit() int64 { return int64(f) }

// registerMaxInput declares --max-input-size on fs.
func registerMaxInput(fs *flag.FlagSet, f *sizeFlag) {
	fs.Var(f, "max-input-size", "largest input `size` read (16MB, 64MiB …), for files, standard input, --config and --baseline alike;\n"+
		"larger inputs are reported, not read (default 16 MiB)")
}

// checkPaths is the usage error (exit 2) for the first of paths that does not exist: every
// command refuses a mistyped path the same way, before anything is read. "-" is standard
// input, "" a flag not given. A path that exists but cannot be read (a FIFO, a device, a loop of links) is left to
// the reader, which reports it at its position (exit 3).
func checkPaths(paths ...string) error {
	for _, p := range paths {
		if p == "-" || p == "" {
			continue
		}
		if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) {
			return usagef("%s: no such file or directory", p)
		}
	}
	return nil
}

// readInput reads a named file, or standard input for "-", through readcap: a regular file
// of at most limit bytes. A missing file is a usage error (exit 2); one that exists but is
// refused (a FIFO, a device, too large, binary) or cannot be read is returned as the message
// to report at the file's position (exit 3).
func readInput(file string, stdin io.Reader, limit int64) (name string, src []byte, err error) {
	if file == "-" {
		src, err = readcap.Stream(stdin, limit)
		if err != nil {
			return "-", nil, fmt.Errorf("reading standard input: %w", err)
		}
	} else {
		src, err = readcap.File(file, limit)
		if errors.Is(err, fs.ErrNotExist) {
			return file, nil, usagef("%s: no such file or directory", file)
		}
		if err != nil {
			return file, nil, errors.New(readcap.Message(err))
		}
	}
	if readcap.Binary(src) {
		return file, nil, &readcap.BinaryError{}
	}
	return file, src, nil
}

// Package readcap is the one way bucketlint reads an input: only regular files, never more
// than a limit, and never blocking on a FIFO or a device. Every reader (files found in a walk
// or named on the command line, standard input, --config, --baseline, catalog YAML,
// notebooks, verify scenarios) goes through it, so one limit and one set of messages apply.
package readcap

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// DefaultLimit is the size above which an input is not read: 16 MiB. Explain logs, DDL and
// code are far smaller; a file this large is data or a build artefact. The --max-input-size
// flag changes it.
const DefaultLimit = 16 << 20

// A TooLargeError is an input above the limit. Size is -1 when the input is a stream whose
// length is not known (standard input): reading stopped at the limit.
type TooLargeError struct {
	Size, Limit int64
}

func (e *TooLargeError) Error() string {
	if e.Size < 0 {
		return fmt.Sprintf("input is larger than the %s bucketlint reads (--max-input-size)", Bytes(e.Limit))
	}
	return fmt.Sprintf("file is %d bytes, above the %s bucketlint reads (--max-input-size)", e.Size, Bytes(e.Limit))
}

// A NotRegularError is a path that is not a regular file: a FIFO, a device, a socket. It is
// never read, as reading it may block forever or never end.
type NotRegularError struct {
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("not a regular file (%s); only regular files are read", kindName(e.Mode))
}

// A BinaryError is a file with a NUL byte near its start, as git decides that a file is
// binary: it is not text bucketlint can read.
type BinaryError struct{}

func (e *BinaryError) Error() string {
	return "binary file (a NUL byte in its first 8000 bytes); not read"
}

// kindName names the type of a non-regular file.
func kindName(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "mode " + m.String()
}

// Bytes prints a limit: "16 MiB" for whole mebibytes, else bytes.
func Bytes(n int64) string {
	if n > 0 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// orDefault is limit, or DefaultLimit when limit is not positive.
func orDefault(limit int64) int64 {
	if limit <= 0 {
		return DefaultLimit
	}
	return limit
}

// File reads the file at path, following symbolic links, when it is a regular file of at
// most limit bytes (DefaultLimit when limit is 0 or less). It opens without blocking (a FIFO
// is refused at once, not waited on) and checks the open file, so a file swapped for a
// device between a check and the read is refused too. Errors are *fs.PathError from the
// system, *NotRegularError or *TooLargeError; binary content is not judged here (see
// Binary).
func File(path string, limit int64) ([]byte, error) {
	limit = orDefault(limit)
	f, err := os.OpenFile(path, os.O_RDONLY|nonBlock, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &NotRegularError{Mode: fi.Mode()}
	}
	if fi.Size() > limit {
		return nil, &TooLargeError{Size: fi.Size(), Limit: limit}
	}
	// Sized by the file (one byte more sees the end without growing): io.ReadAll's doublings
	// were a third of reading's CPU, and their slack stayed allocated with the text.
	src, err := readAll(io.LimitReader(f, limit+1), make([]byte, 0, fi.Size()+1))
	if err != nil {
		return nil, err
	}
	if int64(len(src)) > limit { // the file grew while it was read
		return nil, &TooLargeError{Size: -1, Limit: limit}
	}
	return src, nil
}

// readAll is io.ReadAll into b, which it grows only when the input is longer than b's
// capacity.
func readAll(r io.Reader, b []byte) ([]byte, error) {
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if errors.Is(err, io.EOF) {
			return b, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// Check reports, without reading it, whether path (symbolic links followed) is a regular file
// of at most limit bytes: the error File would return for its type and size.
func Check(path string, limit int64) (fs.FileInfo, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return fi, &NotRegularError{Mode: fi.Mode()}
	}
	if limit = orDefault(limit); fi.Size() > limit {
		return fi, &TooLargeError{Size: fi.Size(), Limit: limit}
	}
	return fi, nil
}

// Stream reads r to its end when it holds at most limit bytes (DefaultLimit when limit is 0
// or less); past that it stops reading and returns a *TooLargeError.
func Stream(r io.Reader, limit int64) ([]byte, error) {
	limit = orDefault(limit)
	src, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(src)) > limit {
		return nil, &TooLargeError{Size: -1, Limit: limit}
	}
	return src, nil
}

// Binary reports a NUL byte in the first 8000 bytes of src, as git decides that a file is
// binary.
func Binary(src []byte) bool {
	n := min(len(src), 8000)
	for _, c := range src[:n] {
		if c == 0 {
			return true
		}
	}
	return false
}

// Refused reports whether err is one of this package's refusals (too large, not a regular
// file, binary) rather than an error of the operating system.
func Refused(err error) bool {
	var t *TooLargeError
	var n *NotRegularError
	var b *BinaryError
	return errors.As(err, &t) || errors.As(err, &n) || errors.As(err, &b)
}

// Message is err without the path an *fs.PathError repeats, for positioned errors that
// already name the file: "open: permission denied".
func Message(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Op + ": " + pe.Err.Error()
	}
	return err.Error()
}

package eventlog

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/bucketlint/bucketlint/internal/readcap"
)

// rolledPrefix starts the name of a rolled log's directory (spark.eventLog.rolling.enabled).
const rolledPrefix = "eventlog_v2_"

// Logs lists the event logs at path: path itself when it is a log file or a rolled log's
// directory, else the logs in the directory path (as spark.history.fs.logDirectory holds
// them: eventlog_v2_* directories, and files that start as a log or one of Spark's codecs'
// streams does; hidden names skipped), sorted by name.
func Logs(path string) ([]string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() || strings.HasPrefix(filepath.Base(path), rolledPrefix) {
		return []string{path}, nil
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		n := e.Name()
		if strings.HasPrefix(n, ".") || (e.IsDir() && !strings.HasPrefix(n, rolledPrefix)) ||
			(!e.IsDir() && !looksLikeLog(filepath.Join(path, n))) {
			continue
		}
		out = append(out, filepath.Join(path, n))
	}
	return out, nil
}

// IsLog reports whether path is an event log: a rolled log's eventlog_v2_* directory, or a
// regular file that starts as a log or one of Spark's codecs' streams does.
func IsLog(path string) bool {
	fi, err := os.Stat(path)
	if err != nil {
		return false
	}
	if fi.IsDir() {
		return strings.HasPrefix(filepath.Base(path), rolledPrefix)
	}
	return looksLikeLog(path)
}

// looksLikeLog reports whether the file starts as an event log does: a JSON event, or the
// stream header of Spark's lz4, snappy or zstd codec.
func looksLikeLog(path string) bool {
	if _, err := readcap.Check(path, 1<<62); err != nil {
		return false // not a regular file: never opened, a FIFO would block
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var head [16]byte
	n, _ := io.ReadFull(f, head[:])
	h := string(head[:n])
	for _, p := range []string{`{"Event":`, "LZ4Block", snappyMagic, "\x28\xb5\x2f\xfd"} {
		if strings.HasPrefix(h, p) {
			return true
		}
	}
	return false
}

// Read reads the event log at path (a file, or a rolled log's eventlog_v2_* directory) and
// calls fn with each SQL execution when the log records its end, and at the end of the log
// with those whose end it does not record. An error of fn stops the read and is returned.
func Read(path string, opt Options, fn func(*Execution) error) (*App, error) {
	files, inProgress, err := logFiles(path)
	if err != nil {
		return nil, err
	}
	r := newReader(opt, fn)
	for i, f := range files {
		if err := r.file(f, inProgress && i == len(files)-1); err != nil {
			return r.app, err
		}
	}
	return r.close(inProgress)
}

// ReadStream reads one log file's content from src, named name (its extension says its
// codec, as Spark names the files); see Read.
func ReadStream(src io.Reader, name string, opt Options, fn func(*Execution) error) (*App, error) {
	r := newReader(opt, fn)
	inProgress := strings.HasSuffix(name, ".inprogress")
	if err := r.decoded(src, name, inProgress); err != nil {
		return r.app, err
	}
	return r.close(inProgress)
}

func (r *reader) file(path string, cut bool) error {
	if _, err := readcap.Check(path, 1<<62); err != nil {
		return fmt.Errorf("%s: %s", path, readcap.Message(err))
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return r.decoded(f, path, cut)
}

func (r *reader) decoded(src io.Reader, name string, cut bool) error {
	d, closeFn, err := decompress(Codec(strings.TrimSuffix(name, ".compact")), src)
	if err != nil {
		return &Error{Pos: Pos{File: name}, Msg: err.Error()}
	}
	defer closeFn()
	return r.stream(d, name, cut)
}

// close hands on the executions whose end the log does not record, in start order.
func (r *reader) close(inProgress bool) (*App, error) {
	left := make([]*live, 0, len(r.execs))
	for _, lv := range r.execs {
		left = append(left, lv)
	}
	sort.Slice(left, func(i, j int) bool { return left[i].e.ID < left[j].e.ID })
	for _, lv := range left {
		if err := r.finish(lv); err != nil {
			return r.app, err
		}
	}
	if inProgress || !r.ended {
		r.app.Incomplete = true
	}
	return r.app, nil
}

// logFiles returns the files of the log at path in reading order, and whether the log says it
// is still being written (see rolledParts).
func logFiles(path string) ([]string, bool, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, false, err
	}
	if !fi.IsDir() {
		return []string{path}, strings.HasSuffix(path, ".inprogress"), nil
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return nil, false, err
	}
	names, inProgress, err := rolledParts(path, entries)
	for i, n := range names {
		names[i] = filepath.Join(path, n)
	}
	return names, inProgress, err
}

// rolledParts orders the files of a rolled log's directory (named dir in errors): its
// events_N_* files by N, read from the last compacted file (events_N_*.compact, which holds
// what the files before it held) on; the appstatus_* file says whether Spark still writes it.
func rolledParts(dir string, entries []fs.DirEntry) ([]string, bool, error) {
	type part struct {
		n    int
		name string
	}
	var parts []part
	inProgress := false
	for _, e := range entries {
		n := e.Name()
		if strings.HasPrefix(n, "appstatus_") {
			inProgress = strings.HasSuffix(n, ".inprogress")
			continue
		}
		rest, ok := strings.CutPrefix(n, "events_")
		if !ok {
			continue
		}
		num, _, _ := strings.Cut(rest, "_")
		i, err := strconv.Atoi(num)
		if err != nil {
			continue
		}
		parts = append(parts, part{i, n})
	}
	if len(parts) == 0 {
		return nil, false, fmt.Errorf("%s: a rolled event log without events_N_* files", dir)
	}
	sort.Slice(parts, func(i, j int) bool { return parts[i].n < parts[j].n })
	from := 0
	for i, p := range parts {
		if strings.HasSuffix(p.name, ".compact") {
			from = i
		}
	}
	names := make([]string, 0, len(parts)-from)
	for _, p := range parts[from:] {
		names = append(names, p.name)
	}
	return names, inProgress, nil
}

// ReadFS reads the event log name of fsys (a file, or a rolled log's directory), as Read does
// from the operating system's files: an archive of logs (zip.Reader), the History Server's
// /logs download among them. Positions name the files as fsys does.
func ReadFS(fsys fs.FS, name string, opt Options, fn func(*Execution) error) (*App, error) {
	fi, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, err
	}
	files, inProgress := []string{name}, strings.HasSuffix(name, ".inprogress")
	if fi.IsDir() {
		entries, err := fs.ReadDir(fsys, name)
		if err != nil {
			return nil, err
		}
		if files, inProgress, err = rolledParts(name, entries); err != nil {
			return nil, err
		}
		for i, f := range files {
			files[i] = path.Join(name, f)
		}
	}
	r := newReader(opt, fn)
	for i, f := range files {
		if err := r.fsFile(fsys, f, inProgress && i == len(files)-1); err != nil {
			return r.app, err
		}
	}
	return r.close(inProgress)
}

func (r *reader) fsFile(fsys fs.FS, name string, cut bool) error {
	f, err := fsys.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return fmt.Errorf("%s: not a regular file", name)
	}
	return r.decoded(f, name, cut)
}

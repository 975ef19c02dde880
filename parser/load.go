package parser

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"sync"

	"github.com/bucketlint/bucketlint/internal/readcap"
	"github.com/bucketlint/bucketlint/parser/perr"
	"github.com/bucketlint/bucketlint/parser/sql"
	"github.com/bucketlint/bucketlint/plan"
)

// MaxFileSize is the default size above which Load does not read an input and reports it:
// explain logs and DDL are small, a file this large is data or a build artefact.
// LoadOptions.MaxInputSize changes it.
const MaxFileSize = readcap.DefaultLimit

// LoadOptions says which files Load reads and how.
type LoadOptions struct {
	// Exclude are gitignore-style globs of files and directories to skip: a pattern without a
	// slash matches a name at any depth ("*.log", "build"), one with a slash matches the path
	// below the walked root ("jobs/old/*.py", "/tmp"), "**" matches any number of
	// directories, and a trailing slash matches directories only. Negation ("!") is not
	// supported.
	Exclude []string
	// Workers is how many files are parsed at once; 0 or less means one per CPU
	// (runtime.GOMAXPROCS).
	Workers int
	// SQL is a compiled SQL parser to reuse across calls (building one takes tens of
	// milliseconds); nil builds one.
	SQL *sql.Parser
	// Stdin is read, as a SQL file named "-", for a path "-"; nil makes "-" a missing file.
	Stdin io.Reader
	// MaxInputSize is the largest input read, files and standard input alike; 0 or less
	// means MaxFileSize.
	MaxInputSize int64
	// Overlay is the text of files by name, as Load names them (cleaned, slash-separated,
	// spelled as the path given plus the path below it), read instead of the file on disk: an
	// editor's unsaved documents. A name under a walked directory that is not on disk is
	// read too, unless an excluded or skipped directory holds it or its name is not one Load
	// reads; an overlay the walk does not reach is not read.
	Overlay map[string][]byte
	// SQLOptions are the Spark version whose SQL syntax counts; the zero value leaves the SQL
	// parser's own (the newest grammar).
	SQLOptions sql.Options
	// GitIgnore skips, in walked directories, what Git ignores: the patterns of
	// .git/info/exclude and of the .gitignore files from the repository root down (with "!"
	// re-including). Files named explicitly are read all the same.
	GitIgnore bool
	// StdinName is the name standard input is read under for a path "-": its extension picks
	// the format, as a file's does, and a walked file of that name is left out (standard input
	// holds its unsaved text). Empty reads standard input as SQL named "-".
	StdinName string
}

// Load reads every input bucketlint understands under paths (files, or directories walked
// recursively) and merges them into one Project. Directories named .git, node_modules,
// vendor or __pycache__, hidden directories and excluded paths are skipped, and so are
// binary files whose name does not claim a format (a blob.txt); files named explicitly are
// always read. Only regular files are read: a FIFO or a device named explicitly, a file
// larger than MaxInputSize, and a binary file named explicitly or named as SQL, code, YAML
// or JSON are reported. Files are
// parsed in parallel; the result does not depend on scheduling: inputs are merged in path
// order. One bad file never stops the others: its errors are returned, sorted by position
// and capped per file, with everything that could be read. A path that does not exist is an
// error too. Facts two sources state differently about one table are Project.Conflicts.
func Load(ctx context.Context, paths []string, opts LoadOptions) (*plan.Project, perr.List) {
	var errs perr.List
	var stdin []input
	if opts.Stdin != nil && slices.Contains(paths, "-") {
		paths = slices.DeleteFunc(slices.Clone(paths), func(p string) bool { return p == "-" })
		src, err := readcap.Stream(opts.Stdin, opts.MaxInputSize)
		if err != nil {
			errs.Add(plan.Pos{File: "-"}, "reading standard input: %v", err)
		} else {
			stdin = append(stdin, stdinInput(opts.StdinName, src))
		}
	}
	files, walkErrs := walk(paths, opts.Exclude, opts.MaxInputSize, opts.Overlay, opts.GitIgnore)
	if len(stdin) > 0 && opts.StdinName != "" {
		files = slices.DeleteFunc(files, func(in input) bool { return in.name == stdin[0].name })
	}
	files = append(files, stdin...)
	sortInputs(files)
	errs = append(errs, walkErrs...)
	dbtNotes, dbtErrs := attachDbt(files, opts.MaxInputSize)
	errs = append(errs, dbtErrs...)
	sqlp := opts.SQL
	if sqlp == nil {
		var err error
		if sqlp, err = sql.New(); err != nil {
			errs.Add(plan.Pos{}, "%v", err)
			return emptyProject(), errs
		}
	}
	if !opts.SQLOptions.Spark.IsZero() {
		sqlp = sqlp.WithOptions(opts.SQLOptions)
	}
	results := parseAll(ctx, sqlp, files, opts.Workers, opts.MaxInputSize)
	proj := merge(results)
	proj.Notes = append(dbtNotes, proj.Notes...)
	for _, r := range results {
		errs = append(errs, r.errs.Capped()...)
	}
	if err := ctx.Err(); err != nil {
		errs.Add(plan.Pos{}, "loading stopped: %v", err)
	}
	errs.Sort()
	return proj, errs
}

// stdinInput is standard input read as name ("-" as SQL when name is empty).
func stdinInput(name string, src []byte) input {
	if src == nil {
		src = []byte{} // nil would be read from the path
	}
	if name == "" {
		return input{path: "-", name: "-", kind: kindSQL, src: src, explicit: true}
	}
	name = filepath.ToSlash(filepath.Clean(name))
	k := kindOf(name)
	if k == kindNone {
		k = kindText
	}
	return input{path: name, name: name, kind: k, src: src, explicit: true}
}

func emptyProject() *plan.Project { return &plan.Project{Tables: map[string]*plan.Table{}} }

// parseAll parses files on a bounded pool of workers; results[i] belongs to files[i].
func parseAll(ctx context.Context, sqlp *sql.Parser, files []input, workers int, limit int64) []*result {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, max(len(files), 1))
	results := make([]*result, len(files))
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := range next {
				results[i] = parseInput(sqlp, files[i], limit)
			}
		})
	}
	for i := range files {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	out := results[:0]
	for _, r := range results {
		if r != nil {
			out = append(out, r)
		}
	}
	return out
}

// parseInput reads and parses one file of at most limit bytes, turning a panic into an
// internal error so that one file never stops the others.
func parseInput(sqlp *sql.Parser, in input, limit int64) (r *result) {
	r = &result{file: in.name, kind: in.kind, dbt: in.dbt}
	defer func() {
		if p := recover(); p != nil {
			r = &result{file: in.name, kind: in.kind}
			r.errs.Add(plan.Pos{File: in.name, Line: 1, Col: 1}, "internal error: %v", p)
		}
	}()
	src, err := in.src, error(nil)
	if src == nil {
		src, err = readcap.File(in.path, limit)
	}
	if err != nil {
		if readcap.Refused(err) {
			r.kind = kindNone // refused, as the walk refuses what it checks: not one of the files read
		}
		r.errs.Add(plan.Pos{File: in.name}, "%s", readcap.Message(err))
		return r
	}
	if readcap.Binary(src) {
		r.kind = kindNone
		if in.explicit || in.kind != kindText {
			r.errs.Add(plan.Pos{File: in.name}, "%v", &readcap.BinaryError{})
		}
		return r
	}
	r.suppressions = scanSuppressions(in.name, src, r.kind == kindSQL)
	parseSource(sqlp, r, src)
	return r
}

// unwrapPath drops the path os.ReadFile repeats, as positions already name the file.
func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok { //nolint:errorlint // os.ReadFile returns *PathError itself
		return fmt.Errorf("%s: %w", pe.Op, pe.Err)
	}
	return err
}

// sortInputs orders inputs by name, the order everything is merged in.
func sortInputs(in []input) {
	sort.Slice(in, func(i, j int) bool { return in[i].name < in[j].name })
}

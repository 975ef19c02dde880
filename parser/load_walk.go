package parser

import (
	"cmp"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/bucketlint/bucketlint/internal/readcap"
	"github.com/bucketlint/bucketlint/parser/code"
	"github.com/bucketlint/bucketlint/parser/dbt"
	"github.com/bucketlint/bucketlint/parser/perr"
	"github.com/bucketlint/bucketlint/plan"
)

// An input is one file to parse: its path on disk, its name as positions report it
// (slash-separated) and the kind its name suggests.
type input struct {
	path, name string
	kind       kind
	// src is the content when it is not read from path (standard input).
	src []byte
	// explicit is a file named on the command line (or standard input), read whatever its
	// name says.
	explicit bool
	// dbt is the dbt project of a model file, nil for any other file.
	dbt *dbt.Project
}

// skipDir reports directories never walked into: VCS, dependency and hidden directories.
func skipDir(name string) bool {
	switch name {
	case ".git", "node_modules", "vendor", "__pycache__":
		return true
	}
	return strings.HasPrefix(name, ".") && name != "." && name != ".."
}

// walk lists the files under paths that Load reads, sorted by name, and reports paths that
// cannot be read: missing, not regular files (a FIFO, a device: never opened), or larger than
// limit. A root that is a symbolic link to a directory is walked under the name given (the
// link's target resolved once, so a loop of links is an error, not a hang); symbolic links
// met inside a walk are not followed, so no file is read twice and no walk loops.
func walk(paths []string, exclude []string, limit int64, overlay map[string][]byte, gitignore bool) ([]input, perr.List) {
	w := &walker{ex: newExcluder(exclude), seen: map[string]bool{}, limit: limit, overlay: overlay, gitignore: gitignore}
	for _, root := range paths {
		w.root(root)
	}
	sortInputs(w.out)
	return w.out, w.errs
}

// A walker collects the inputs of walk.
type walker struct {
	ex    *excluder
	seen  map[string]bool
	limit int64
	out   []input
	errs  perr.List
	// overlay is LoadOptions.Overlay: text read instead of the file of the same name.
	overlay map[string][]byte
	// gitignore: skip what Git ignores in the repository of each walked root.
	gitignore bool
}

// root lists one path given to Load: a file is read whatever its name, a directory walked.
func (w *walker) root(root string) {
	info, err := os.Stat(root)
	if err != nil && w.overlay[filepath.ToSlash(filepath.Clean(root))] != nil {
		w.add(root, true) // an unsaved document named as the root
		return
	}
	if err != nil {
		w.errs.Add(plan.Pos{File: filepath.ToSlash(root)}, "%v", unwrapPath(err))
		return
	}
	if !info.IsDir() {
		w.add(root, true)
		return
	}
	resolved, err := filepath.EvalSymlinks(root)
	if err != nil {
		w.errs.Add(plan.Pos{File: filepath.ToSlash(root)}, "%v", unwrapPath(err))
		return
	}
	var gi *gitIgnore
	if w.gitignore {
		gi = newGitIgnore(root)
	}
	err = filepath.WalkDir(resolved, func(path string, d fs.DirEntry, err error) error {
		rel, _ := filepath.Rel(resolved, path)
		name := filepath.Join(root, rel) // as the user named it, through a linked root
		if err != nil {
			w.errs.Add(plan.Pos{File: filepath.ToSlash(name)}, "%v", unwrapPath(err))
			return nil
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if path != resolved && (skipDir(d.Name()) || w.ex.match(rel, true) || gi.ignored(name, true)) {
				return filepath.SkipDir
			}
			return nil
		}
		if w.ex.match(rel, false) || gi.ignored(name, false) {
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			return nil // links inside a tree are not followed: no loops, no file read twice
		}
		w.list(name, false, d.Type().IsRegular())
		return nil
	})
	if err != nil {
		w.errs.Add(plan.Pos{File: filepath.ToSlash(root)}, "%v", err)
	}
	w.unsaved(root)
}

// unsaved lists the overlay's files under the directory root that the walk did not find on
// disk, skipping them as the walk would have: under a skipped or excluded directory, or
// excluded themselves.
func (w *walker) unsaved(root string) {
	prefix := strings.TrimSuffix(filepath.ToSlash(filepath.Clean(root)), "/") + "/"
	if prefix == "./" {
		prefix = ""
	}
	names := make([]string, 0, len(w.overlay))
	for name := range w.overlay {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		rel, ok := strings.CutPrefix(name, prefix)
		if !ok || w.seen[name] || rel == "" || path.IsAbs(rel) || rel != path.Clean(rel) || strings.HasPrefix(rel, "../") {
			continue
		}
		if !w.skippedUnder(rel) {
			w.add(name, false)
		}
	}
}

// skippedUnder reports whether the walk skips the file rel (relative to its root): a
// directory on its way is skipped or excluded, or the file is excluded.
func (w *walker) skippedUnder(rel string) bool {
	dirs := strings.Split(rel, "/")
	for i := 1; i < len(dirs); i++ {
		if skipDir(dirs[i-1]) || w.ex.match(strings.Join(dirs[:i], "/"), true) {
			return true
		}
	}
	return w.ex.match(rel, false)
}

// add lists one file, explicit when named on the command line (read whatever its name). A
// file whose name bucketlint does not read is left alone; one it would read but cannot
// (not a regular file, too large, a dangling link) is reported.
func (w *walker) add(path string, explicit bool) { w.list(path, explicit, false) }

// list is add; regular says that the directory entry is a regular file, whose size the
// parse workers check when they read it (readcap.File), so the walk, which runs on one core,
// does not stat it. Anything else is checked here and never opened unless it is a regular
// file.
func (w *walker) list(path string, explicit, regular bool) {
	name := filepath.ToSlash(filepath.Clean(path))
	if w.seen[name] {
		return
	}
	k := kindOf(name)
	if k == kindNone && explicit {
		k = kindText
	}
	if k == kindNone {
		return
	}
	w.seen[name] = true
	if src, ok := w.overlay[name]; ok {
		if limit := cmp.Or(max(w.limit, 0), MaxFileSize); int64(len(src)) > limit {
			w.errs.Add(plan.Pos{File: name}, "%s", readcap.Message(&readcap.TooLargeError{Size: int64(len(src)), Limit: limit}))
			return
		}
		w.out = append(w.out, input{path: path, name: name, kind: k, explicit: explicit, src: src})
		return
	}
	if regular {
		w.out = append(w.out, input{path: path, name: name, kind: k, explicit: explicit})
		return
	}
	if _, err := readcap.Check(path, w.limit); err != nil {
		w.errs.Add(plan.Pos{File: name}, "%s", readcap.Message(err))
		return
	}
	w.out = append(w.out, input{path: path, name: name, kind: k, explicit: explicit})
}

// A kind is what a file holds, as far as its name tells; parseSource looks at the content.
type kind int

const (
	kindNone kind = iota
	kindSQL       // .sql, .hql, .ddl: parser/sql (or a Databricks SQL notebook: parser/code)
	kindCode      // what code.Language names: .py, .scala, .ipynb, .sh, spark-defaults.conf …
	kindYAML      // .yaml, .yml: a catalog when it has a top-level bucketlint key
	kindText      // logs and text: explain output, DESCRIBE or SHOW CREATE TABLE output
	kindJSON      // .json: DESCRIBE … AS JSON output only
)

// kindOf classifies a file by its name.
func kindOf(name string) kind {
	base := strings.ToLower(filepath.Base(name))
	ext := filepath.Ext(base)
	switch ext {
	case ".sql", ".hql", ".ddl":
		return kindSQL
	case ".yaml", ".yml":
		return kindYAML
	case ".json":
		return kindJSON
	case ".txt", ".log", ".out", ".explain", ".plan", ".describe", ".desc", ".text", "":
		return kindText
	}
	if code.Language(base, nil) != "" {
		return kindCode
	}
	return kindNone
}

// An excluder matches paths against gitignore-style globs.
type excluder struct {
	pats []excludePattern
}

type excludePattern struct {
	re       *regexp.Regexp
	anchored bool // contains a slash: matched against the whole relative path
	dirOnly  bool
}

func newExcluder(globs []string) *excluder {
	ex := &excluder{}
	for _, g := range globs {
		g = strings.TrimSpace(g)
		if g == "" || strings.HasPrefix(g, "#") {
			continue
		}
		p := excludePattern{dirOnly: strings.HasSuffix(g, "/")}
		g = strings.TrimSuffix(g, "/")
		p.anchored = strings.Contains(g, "/")
		g = strings.TrimPrefix(g, "/")
		re, err := regexp.Compile("^" + globRegexp(g) + "$")
		if err != nil { // a malformed class ("[1-0]"): the glob is read as a literal name
			re, err = regexp.Compile("^" + quoteName(g) + "$")
		}
		if err != nil {
			continue // not reached: quoteName writes only valid syntax
		}
		p.re = re
		ex.pats = append(ex.pats, p)
	}
	return ex
}

// match reports whether the path rel (relative to the walked root) is excluded.
func (ex *excluder) match(rel string, dir bool) bool {
	base := rel[strings.LastIndex(rel, "/")+1:]
	for _, p := range ex.pats {
		if p.dirOnly && !dir {
			continue
		}
		if p.anchored && p.re.MatchString(rel) || !p.anchored && p.re.MatchString(base) {
			return true
		}
	}
	return false
}

// globRegexp translates a glob: "**/" any directories, "*" and "?" within one name,
// "[…]" a character class.
func globRegexp(g string) string {
	var b strings.Builder
	for i := 0; i < len(g); i++ {
		c := g[i]
		switch {
		case strings.HasPrefix(g[i:], "**/"):
			b.WriteString("(?:.*/)?")
			i += 2
		case strings.HasPrefix(g[i:], "**"):
			b.WriteString(".*")
			i++
		case c == '*':
			b.WriteString("[^/]*")
		case c == '?':
			b.WriteString("[^/]")
		case c == '[' && strings.IndexByte(g[i:], ']') > 1:
			j := i + strings.IndexByte(g[i:], ']')
			class := strings.Replace(g[i+1:j], "!", "^", 1)
			b.WriteString("[" + class + "]")
			i = j
		default:
			_, size := utf8.DecodeRuneInString(g[i:])
			b.WriteString(quoteName(g[i : i+size]))
			i += size - 1
		}
	}
	return b.String()
}

// quoteName is the regular expression matching the name s literally. A byte that is not
// UTF-8 becomes \x{FFFD}, which is how the regexp package reads such a byte in the names it
// matches; regexp rejects the byte itself in a pattern.
func quoteName(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteString(`\x{FFFD}`)
		} else {
			b.WriteString(regexp.QuoteMeta(s[i : i+size]))
		}
		i += size
	}
	return b.String()
}

package parser

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/bucketlint/bucketlint/parser/code"
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
// do not exist and files that are too large.
func walk(paths []string, exclude []string) ([]input, perr.List) {
	var errs perr.List
	ex := newExcluder(exclude)
	seen := map[string]bool{}
	var out []input
	add := func(path string, size int64, explicit bool) {
		name := filepath.ToSlash(filepath.Clean(path))
		if seen[name] {
			return
		}
		k := kindOf(name)
		if k == kindNone && explicit {
			k = kindText
		}
		if k == kindNone {
			return
		}
		seen[name] = true
		if size > MaxFileSize {
			errs.Add(plan.Pos{File: name}, "file is %d bytes, above the %d MiB bucketlint reads; skipped", size, MaxFileSize>>20)
			return
		}
		out = append(out, input{path: path, name: name, kind: k})
	}
	for _, root := range paths {
		info, err := os.Stat(root)
		if err != nil {
			errs.Add(plan.Pos{File: filepath.ToSlash(root)}, "%v", unwrapPath(err))
			continue
		}
		if !info.IsDir() {
			add(root, info.Size(), true)
			continue
		}
		err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				errs.Add(plan.Pos{File: filepath.ToSlash(path)}, "%v", unwrapPath(err))
				return nil
			}
			rel, _ := filepath.Rel(root, path)
			rel = filepath.ToSlash(rel)
			if d.IsDir() {
				if path != root && (skipDir(d.Name()) || ex.match(rel, true)) {
					return filepath.SkipDir
				}
				return nil
			}
			if !d.Type().IsRegular() || ex.match(rel, false) {
				return nil
			}
			info, err := d.Info()
			if err != nil {
				return nil //nolint:nilerr // the file vanished while walking: nothing to read
			}
			add(path, info.Size(), false)
			return nil
		})
		if err != nil {
			errs.Add(plan.Pos{File: filepath.ToSlash(root)}, "%v", err)
		}
	}
	sortInputs(out)
	return out, errs
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
		if err != nil {
			re = regexp.MustCompile("^" + regexp.QuoteMeta(g) + "$")
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
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	return b.String()
}

// isBinary reports a NUL byte in the first 8000 bytes, as git decides.
func isBinary(src []byte) bool {
	n := min(len(src), 8000)
	for _, c := range src[:n] {
		if c == 0 {
			return true
		}
	}
	return false
}

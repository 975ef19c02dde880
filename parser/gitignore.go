package parser

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/bucketlint/bucketlint/internal/readcap"
)

// A gitIgnore answers which paths Git ignores in one repository: the patterns of
// .git/info/exclude, then of every .gitignore from the repository root down to the path's
// directory, the last match deciding, "!" re-including. A directory Git ignores is not walked,
// so, as in Git, a file in it cannot be re-included. Only the ignore files are read, never Git.
type gitIgnore struct {
	root  string                 // the repository root, absolute
	files map[string]*ignoreFile // by directory, absolute; nil entries for none
}

// An ignoreFile is one file of patterns and the directory they are relative to.
type ignoreFile struct {
	dir  string
	pats []ignorePattern
}

type ignorePattern struct {
	excludePattern
	negate bool
}

// newGitIgnore returns the ignore rules of the repository holding path (found by .git at or
// above it), nil outside a repository.
func newGitIgnore(path string) *gitIgnore {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil
	}
	for dir := abs; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			g := &gitIgnore{root: dir, files: map[string]*ignoreFile{}}
			g.files[""] = readIgnoreFile(infoExclude(dir), dir)
			return g
		}
		if filepath.Dir(dir) == dir {
			return nil
		}
	}
}

// infoExclude is the repository's .git/info/exclude; in a worktree (.git is a file naming
// the git directory) the one of the main repository, which Git reads for every worktree.
func infoExclude(root string) string {
	dotgit := filepath.Join(root, ".git")
	if fi, err := os.Stat(dotgit); err == nil && fi.IsDir() {
		return filepath.Join(dotgit, "info", "exclude")
	}
	src, err := readcap.File(dotgit, 4096)
	if err != nil {
		return ""
	}
	gitdir, ok := strings.CutPrefix(strings.TrimSpace(string(src)), "gitdir:")
	if !ok {
		return ""
	}
	gitdir = strings.TrimSpace(gitdir)
	if !filepath.IsAbs(gitdir) {
		gitdir = filepath.Join(root, gitdir)
	}
	if common, err := readcap.File(filepath.Join(gitdir, "commondir"), 4096); err == nil {
		c := strings.TrimSpace(string(common))
		if !filepath.IsAbs(c) {
			c = filepath.Join(gitdir, c)
		}
		gitdir = c
	}
	return filepath.Join(gitdir, "info", "exclude")
}

// readIgnoreFile reads the patterns of file, relative to dir; nil when there is none.
func readIgnoreFile(file, dir string) *ignoreFile {
	if file == "" {
		return nil
	}
	src, err := readcap.File(file, readcap.DefaultLimit)
	if err != nil {
		return nil
	}
	f := &ignoreFile{dir: dir}
	for _, line := range strings.Split(string(src), "\n") {
		line = strings.TrimRight(line, "\r")
		line = strings.TrimRight(line, " ")
		negate := strings.HasPrefix(line, "!")
		line = strings.TrimPrefix(line, "!")
		if line == "" || strings.HasPrefix(line, "#") && !negate {
			continue
		}
		if strings.HasPrefix(line, "\\#") || strings.HasPrefix(line, "\\!") {
			line = "[" + line[1:2] + "]" + line[2:] // \# and \! name files starting with # or !
		}
		for _, p := range newExcluder([]string{line}).pats {
			f.pats = append(f.pats, ignorePattern{excludePattern: p, negate: negate})
		}
	}
	return f
}

// file returns the .gitignore of dir, read once.
func (g *gitIgnore) file(dir string) *ignoreFile {
	f, ok := g.files[dir]
	if !ok {
		f = readIgnoreFile(filepath.Join(dir, ".gitignore"), dir)
		g.files[dir] = f
	}
	return f
}

// ignored reports whether Git ignores path (a directory when dir).
func (g *gitIgnore) ignored(path string, dir bool) bool {
	if g == nil {
		return false
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(g.root, abs)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return false
	}
	files := []*ignoreFile{g.files[""]}
	parts := strings.Split(filepath.ToSlash(rel), "/")
	d := g.root
	files = append(files, g.file(d))
	for _, p := range parts[:len(parts)-1] {
		d = filepath.Join(d, p)
		files = append(files, g.file(d))
	}
	ignored := false
	for _, f := range files {
		if f == nil {
			continue
		}
		r, err := filepath.Rel(f.dir, abs)
		if err != nil {
			continue
		}
		r = filepath.ToSlash(r)
		base := r[strings.LastIndex(r, "/")+1:]
		for _, p := range f.pats {
			if p.dirOnly && !dir {
				continue
			}
			if p.anchored && p.re.MatchString(r) || !p.anchored && p.re.MatchString(base) {
				ignored = !p.negate
			}
		}
	}
	return ignored
}

package main

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/report"
	"github.com/bucketlint/bucketlint/rules"
)

// rootRelative reports whether a format names files relative to the repository root: code
// scanning, annotations, merge-request widgets and review tools resolve paths from the root
// of the checkout, whatever directory bucketlint ran in. Text and JSON keep the paths as
// given, relative to the working directory.
func rootRelative(format string) bool {
	switch format {
	case "text", "json":
		return false
	}
	return true
}

// repoRoot returns the directory holding .git at or above dir, "" when there is none.
func repoRoot(dir string) string {
	for {
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// rebaser rewrites working-directory-relative paths as repository-root-relative ones, and
// any spelling of a path (./jobs/q.sql, an absolute path) as the one name: reports other than
// text and JSON, baselines and fingerprints name files this way, so that they match from any
// working directory. Outside a repository the working directory stands for the root.
type rebaser struct {
	wd, root string
}

// newRebaser returns nil when the working directory cannot be had.
func newRebaser() *rebaser {
	wd, err := os.Getwd()
	if err != nil {
		return nil
	}
	root := repoRoot(wd)
	if root == "" {
		root = wd
	}
	return &rebaser{wd: wd, root: root}
}

// local returns a file's name below the working directory, else below the repository root,
// and false for a file outside both: the part of its path that exclude globs may match. The
// directories above (/tmp, /home/…) are not the project's and never match. A nil rebaser
// gives the name as it is.
func (r *rebaser) local(file string) (string, bool) {
	if r == nil {
		return file, true
	}
	abs := file
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(r.wd, filepath.FromSlash(file))
	}
	for _, base := range []string{r.wd, r.root} {
		rel, err := filepath.Rel(base, abs)
		if err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return filepath.ToSlash(rel), true
		}
	}
	return "", false
}

// path rewrites one file name; names outside the repository stay as they are. A nil
// rebaser leaves every name as it is.
func (r *rebaser) path(file string) string {
	if r == nil || file == "" || file == "-" {
		return file
	}
	abs := file
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(r.wd, filepath.FromSlash(file))
	}
	rel, err := filepath.Rel(r.root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return file
	}
	return filepath.ToSlash(rel)
}

func (r *rebaser) span(s plan.Span) plan.Span {
	s.Start.File, s.End.File = r.path(s.Start.File), r.path(s.End.File)
	return s
}

// check returns a copy of c with every position's file rewritten; the sources are still read
// from where they are.
func (r *rebaser) check(c *report.Check) *report.Check {
	if r == nil {
		return c
	}
	out := *c
	out.Findings = make([]rules.Diagnostic, len(c.Findings))
	for i, d := range c.Findings {
		d.Span = r.span(d.Span)
		d.Related = append([]rules.Related(nil), d.Related...)
		for j := range d.Related {
			d.Related[j].Span = r.span(d.Related[j].Span)
		}
		if d.Fix != nil {
			fix := *d.Fix
			fix.Edits = append([]rules.Edit(nil), fix.Edits...)
			for j := range fix.Edits {
				fix.Edits[j].Span = r.span(fix.Edits[j].Span)
			}
			d.Fix = &fix
		}
		out.Findings[i] = d
	}
	out.Errors = append([]report.PositionedError(nil), c.Errors...)
	for i := range out.Errors {
		out.Errors[i].File = r.path(out.Errors[i].File)
	}
	out.Explains = make([]*plan.Explain, len(c.Explains))
	for i, e := range c.Explains {
		ee := *e
		ee.File, ee.Pos.File = r.path(e.File), r.path(e.Pos.File)
		out.Explains[i] = &ee
	}
	if c.Source != nil {
		out.Source = func(file string) []byte {
			return c.Source(r.back(file))
		}
	}
	return &out
}

// back turns a root-relative name into the name the sources were read by.
func (r *rebaser) back(file string) string {
	if r == nil {
		return file
	}
	rel, err := filepath.Rel(r.wd, filepath.Join(r.root, filepath.FromSlash(file)))
	if err != nil {
		return file
	}
	return filepath.ToSlash(rel)
}

// fingerprint is report.Fingerprint of d with its file named from the repository root, the
// same from every working directory and however the path was spelled.
func (r *rebaser) fingerprint(d *rules.Diagnostic) string {
	dd := *d
	dd.Span.Start.File = r.path(d.Span.Start.File)
	return report.Fingerprint(&dd)
}

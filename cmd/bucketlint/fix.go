package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/rules"
)

// check --fix and --diff apply the edits of the findings' fixes. Edits are only what rules
// record at spans the parsers gave them, and a fix carries edits only when applying them
// mechanically is safe (rules.Fix); a fix without edits is advice and is never applied. A
// finding's edits are applied all together or not at all: when one overlaps an edit already
// taken (another finding's), or falls outside its file, the finding is left as it is.

// A byteEdit is an edit at byte offsets of one file's text.
type byteEdit struct {
	start, end int
	text       string
}

// A fixPlan is what --fix writes: per file the text read and the edits taken, and which
// findings they fix.
type fixPlan struct {
	files map[string]*fileFix
	fixed map[int]bool // indices into the findings
	edits int
}

type fileFix struct {
	src   []byte
	edits []byteEdit
}

// planFixes takes the edits of each finding in order, the whole finding or none of it. Only
// files that are inputs of the run are edited.
func planFixes(ds []rules.Diagnostic, inputs []string, source func(string) []byte) *fixPlan {
	isInput := map[string]bool{}
	for _, f := range inputs {
		isInput[f] = true
	}
	p := &fixPlan{files: map[string]*fileFix{}, fixed: map[int]bool{}}
	for i := range ds {
		if ds[i].Fix == nil || len(ds[i].Fix.Edits) == 0 {
			continue
		}
		taken, ok := p.resolve(ds[i].Fix.Edits, isInput, source)
		if !ok {
			continue
		}
		for file, es := range taken {
			ff := p.files[file]
			for _, e := range es {
				if !slices.Contains(ff.edits, e) {
					ff.edits = append(ff.edits, e)
					p.edits++
				}
			}
		}
		p.fixed[i] = true
	}
	return p
}

// resolve turns one finding's edits into byte edits, false when one cannot be taken.
func (p *fixPlan) resolve(edits []rules.Edit, isInput map[string]bool, source func(string) []byte) (map[string][]byteEdit, bool) {
	taken := map[string][]byteEdit{}
	for _, e := range edits {
		file := e.Span.Start.File
		if !isInput[file] || e.Span.End.IsValid() && e.Span.End.File != file {
			return nil, false
		}
		ff := p.files[file]
		if ff == nil {
			src := source(file)
			if src == nil {
				return nil, false
			}
			ff = &fileFix{src: src}
			p.files[file] = ff
		}
		start, ok := byteOffset(ff.src, e.Span.Start)
		end := start
		if ok && e.Span.End.IsValid() {
			end, ok = byteOffset(ff.src, e.Span.End)
		}
		if !ok || end < start {
			return nil, false
		}
		be := byteEdit{start: start, end: end, text: e.Text}
		for _, other := range append(slices.Clone(ff.edits), taken[file]...) {
			if other != be && overlap(other, be) {
				return nil, false
			}
		}
		taken[file] = append(taken[file], be)
	}
	return taken, true
}

// overlap reports whether two edits touch the same bytes, or insert at the same place.
func overlap(a, b byteEdit) bool {
	if a.start == a.end || b.start == b.end {
		return a.start == b.start || a.start > b.start && a.start < b.end || b.start > a.start && b.start < a.end
	}
	return a.start < b.end && b.start < a.end
}

// byteOffset is the offset of a 1-based line and byte column in src; the column may be one
// past the line's end.
func byteOffset(src []byte, p plan.Pos) (int, bool) {
	if p.Line < 1 || p.Col < 1 {
		return 0, false
	}
	off := 0
	for line := 1; line < p.Line; line++ {
		i := bytes.IndexByte(src[off:], '\n')
		if i < 0 {
			return 0, false
		}
		off += i + 1
	}
	lineEnd := len(src)
	if i := bytes.IndexByte(src[off:], '\n'); i >= 0 {
		lineEnd = off + i
	}
	if off+p.Col-1 > lineEnd {
		return 0, false
	}
	return off + p.Col - 1, true
}

// apply returns the file's text with its edits made.
func (f *fileFix) apply() []byte {
	es := slices.Clone(f.edits)
	sort.Slice(es, func(i, j int) bool { return es[i].start < es[j].start })
	var b bytes.Buffer
	at := 0
	for _, e := range es {
		b.Write(f.src[at:e.start])
		b.WriteString(e.text)
		at = e.end
	}
	b.Write(f.src[at:])
	return b.Bytes()
}

// sortedFiles are the plan's files by name.
func (p *fixPlan) sortedFiles() []string {
	var out []string
	for f, ff := range p.files {
		if len(ff.edits) > 0 {
			out = append(out, f)
		}
	}
	sort.Strings(out)
	return out
}

// write makes the edits on disk. A file is written only if it is still what was read: not
// modified since the run began (loaded) and byte for byte the text the edits were computed on.
// It is replaced whole through a temporary file in its directory, keeping its mode.
func (p *fixPlan) write(loaded time.Time) error {
	var errs []error
	for _, file := range p.sortedFiles() {
		ff := p.files[file]
		fi, err := os.Stat(file)
		if err != nil {
			errs = append(errs, fmt.Errorf("--fix: %s: %w", file, err))
			continue
		}
		now, err := os.ReadFile(file)
		if err != nil || fi.ModTime().After(loaded) || !bytes.Equal(now, ff.src) {
			errs = append(errs, fmt.Errorf("--fix: %s changed since it was read; not written (run check --fix again)", file))
			continue
		}
		if err := replaceFile(file, ff.apply(), fi.Mode().Perm()); err != nil {
			errs = append(errs, fmt.Errorf("--fix: %s: %w", file, err))
		}
	}
	return errors.Join(errs...)
}

func replaceFile(file string, data []byte, mode os.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(file), "."+filepath.Base(file)+".bucketlint-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // gone after the rename; left over only on failure
	if _, err := tmp.Write(data); err != nil {
		_ = tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), mode); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), file)
}

// diff writes the plan as a unified diff, files named from the repository root (a/ and b/
// prefixes, as git apply takes it at the root).
func (p *fixPlan) diff(w io.Writer, r *rebaser) error {
	var b strings.Builder
	for _, file := range p.sortedFiles() {
		name := r.path(file)
		fmt.Fprintf(&b, "--- a/%s\n+++ b/%s\n", name, name)
		writeHunks(&b, p.files[file])
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// applyFixes runs --diff (prints the diff; a pendingFixes error when there is one) or --fix
// (writes the files); it returns how many findings the edits fix.
func applyFixes(opts *checkOptions, ds []rules.Diagnostic, inputs []string, source func(string) []byte, loaded time.Time, s *streams) (int, error) {
	p := planFixes(ds, inputs, source)
	files := len(p.sortedFiles())
	if opts.diff {
		if err := p.diff(s.out, newRebaser()); err != nil {
			return 0, err
		}
		if len(p.fixed) > 0 {
			return len(p.fixed), &pendingFixes{findings: len(p.fixed), files: files}
		}
		return 0, nil
	}
	if err := p.write(loaded); err != nil {
		return 0, err
	}
	if len(p.fixed) > 0 {
		fmt.Fprintf(s.err, "bucketlint check: fixed %d %s (%d %s in %d %s)\n", len(p.fixed), plural(len(p.fixed), "finding"),
			p.edits, plural(p.edits, "edit"), files, plural(files, "file"))
	}
	return len(p.fixed), nil
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// pendingFixes is check --diff's outcome when there is something to fix: exit 1.
type pendingFixes struct{ findings, files int }

func (e *pendingFixes) Error() string {
	return fmt.Sprintf("%d %s can be fixed in %d %s (--fix)", e.findings, plural(e.findings, "finding"), e.files, plural(e.files, "file"))
}

// Package golden reads and rewrites txtar golden files for tests: one case per archive, its
// comment saying what the case proves, inputs and "want" sections side by side. Tests pass
// their own -update flag value; nothing here is global.
package golden

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"golang.org/x/tools/txtar"
)

// A Case is one golden archive.
type Case struct {
	Path    string
	Archive *txtar.Archive
	update  bool
	changed bool
}

// Load reads the archives matching pattern (a filepath.Glob pattern), sorted by name.
func Load(t *testing.T, pattern string, update bool) []*Case {
	t.Helper()
	paths, err := filepath.Glob(pattern)
	if err != nil {
		t.Fatalf("golden: %v", err)
	}
	if len(paths) == 0 {
		t.Fatalf("golden: no files match %s", pattern)
	}
	sort.Strings(paths)
	cases := make([]*Case, 0, len(paths))
	for _, p := range paths {
		// Absolute, so that Save still finds the file after a test changes directory.
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
		a, err := txtar.ParseFile(p)
		if err != nil {
			t.Fatalf("golden: %v", err)
		}
		cases = append(cases, &Case{Path: p, Archive: a, update: update})
	}
	return cases
}

// Name is the archive's file name without directory and extension, for t.Run.
func (c *Case) Name() string {
	base := filepath.Base(c.Path)
	return base[:len(base)-len(filepath.Ext(base))]
}

// File returns the contents of the named section and whether it exists.
func (c *Case) File(name string) ([]byte, bool) {
	for _, f := range c.Archive.Files {
		if f.Name == name {
			return f.Data, true
		}
	}
	return nil, false
}

// Check compares got with the named section. With update set, it rewrites the section (adding
// it when missing) instead of failing; call Save afterwards. A missing section without update
// fails the test, so that a case cannot pass by having no expectation.
func (c *Case) Check(t *testing.T, name string, got []byte) {
	t.Helper()
	got = normalise(got)
	for i, f := range c.Archive.Files {
		if f.Name != name {
			continue
		}
		if bytes.Equal(f.Data, got) {
			return
		}
		if c.update {
			c.Archive.Files[i].Data = got
			c.changed = true
			return
		}
		t.Errorf("%s: section %q differs (run with -update to rewrite)\n--- got\n%s--- want\n%s", c.Path, name, got, f.Data)
		return
	}
	if c.update {
		c.Archive.Files = append(c.Archive.Files, txtar.File{Name: name, Data: got})
		c.changed = true
		return
	}
	t.Errorf("%s: no section %q; got\n%s", c.Path, name, got)
}

// Save writes the archive back when Check changed it.
func (c *Case) Save(t *testing.T) {
	t.Helper()
	if !c.changed {
		return
	}
	if err := os.WriteFile(c.Path, txtar.Format(c.Archive), 0o644); err != nil {
		t.Fatalf("golden: %v", err)
	}
}

// normalise ends non-empty text with exactly one newline, as txtar stores sections.
func normalise(b []byte) []byte {
	if len(b) == 0 {
		return b
	}
	b = bytes.TrimRight(b, "\n")
	return append(b[:len(b):len(b)], '\n')
}

// String describes the case for messages.
func (c *Case) String() string { return fmt.Sprintf("golden case %s", c.Path) }

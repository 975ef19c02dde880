package parser

import (
	"os"
	"path/filepath"
	"testing"
)

func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestGitIgnore: Git's rules as far as bucketlint walks: patterns relative to their file's
// directory, the last match deciding, "!" re-including, directory-only patterns, comments,
// escapes, .git/info/exclude, and a worktree's .git file pointing at the main repository.
func TestGitIgnore(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		".git/info/exclude":           "local/\n",
		".gitignore":                  "# comment\n*.gen.sql\n!keep.gen.sql\nbuild/\n/top.sql\n\\#hash.sql\ndocs/**/*.tmp\n",
		"sub/.gitignore":              "x.sql\n/anchored.sql\n",
		"wt/.git":                     "gitdir: " + filepath.Join(root, ".git", "worktrees", "wt") + "\n",
		".git/worktrees/wt/commondir": "../..\n",
		"wt/.gitignore":               "w.sql\n",
	})
	g := newGitIgnore(root)
	for _, tc := range []struct {
		path string
		dir  bool
		want bool
	}{
		{"a.sql", false, false},
		{"jobs/a.gen.sql", false, true},
		{"jobs/keep.gen.sql", false, false},
		{"build", true, true},
		{"build", false, false}, // a file named build: the pattern is for directories
		{"top.sql", false, true},
		{"jobs/top.sql", false, false},
		{"#hash.sql", false, true},
		{"docs/a/b/c.tmp", false, true},
		{"local", true, true},
		{"sub/x.sql", false, true},
		{"sub/deeper/x.sql", false, true},
		{"x.sql", false, false},
		{"sub/anchored.sql", false, true},
		{"sub/deeper/anchored.sql", false, false},
	} {
		if got := g.ignored(filepath.Join(root, filepath.FromSlash(tc.path)), tc.dir); got != tc.want {
			t.Errorf("ignored(%s, dir=%v) = %v, want %v", tc.path, tc.dir, got, tc.want)
		}
	}
	wt := newGitIgnore(filepath.Join(root, "wt", "w.sql"))
	if wt == nil || wt.root != filepath.Join(root, "wt") {
		t.Fatalf("worktree root: %+v", wt)
	}
	if !wt.ignored(filepath.Join(root, "wt", "local"), true) || !wt.ignored(filepath.Join(root, "wt", "w.sql"), false) {
		t.Error("a worktree reads the main repository's info/exclude and its own .gitignore")
	}
}

// FuzzGitIgnore: any .gitignore text is read without a panic, and a path is answered.
func FuzzGitIgnore(f *testing.F) {
	f.Add("*.sql\n!a.sql\nbuild/\n", "jobs/a.sql")
	f.Add("[z-a]\n\\\n**/\n/**\n!\n#\n", "x/y")
	f.Add("a/**/b\n[!x]*\n?\n", "a/q/b")
	f.Fuzz(func(t *testing.T, text, path string) {
		root := t.TempDir()
		if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, ".gitignore"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		g := newGitIgnore(root)
		if g == nil {
			t.Fatal("no repository found at a root with .git")
		}
		g.ignored(filepath.Join(root, filepath.FromSlash(path)), false)
		g.ignored(filepath.Join(root, filepath.FromSlash(path)), true)
	})
}

// TestExcludeNonASCII: globs match names by character, not by byte (é was two unrelated runes),
// and a glob that is not UTF-8 or whose class is malformed is a literal name, never a panic
// (FuzzGitIgnore's finding in CI, kept as a seed).
func TestExcludeNonASCII(t *testing.T) {
	for _, c := range []struct {
		glob, name string
		want       bool
	}{
		{"café.sql", "café.sql", true},
		{"caf?.sql", "café.sql", true},
		{"caf?.sql", "cafe.sql", true},
		{"[1-0]\xda", "[1-0]\xda", true},
		{"[1-0]\xda", "x", false},
		{"\xff*", "\xffabc", true},
	} {
		if got := newExcluder([]string{c.glob}).match(c.name, false); got != c.want {
			t.Errorf("glob %q, name %q: %v, want %v", c.glob, c.name, got, c.want)
		}
	}
}

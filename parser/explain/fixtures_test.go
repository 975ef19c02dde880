package explain

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fixtureModes maps the file name endings the oracle harness writes ("<label>.<mode>.txt",
// "<label>.executed.<mode>.txt") to the explain mode the text must be read as.
func fixtureMode(name string) string {
	for _, m := range []string{"simple", "extended", "formatted", "cost", "codegen"} {
		if strings.HasSuffix(name, "."+m+".txt") {
			return m
		}
	}
	return ""
}

// TestFixtures parses every explain text recorded from real Spark by the oracle harness under
// fixtures/spark/<version>/: each must hold exactly one explain output, read in the mode it
// was recorded in, with zero errors and at least one physical plan.
func TestFixtures(t *testing.T) {
	root := filepath.Join("..", "..", "fixtures", "spark")
	n := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		want := fixtureMode(d.Name())
		if want == "" {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		n++
		es, errs := Parse(path, src)
		for _, e := range errs {
			t.Errorf("%v", e)
		}
		switch {
		case len(es) != 1:
			t.Errorf("%s: %d explain outputs, want 1", path, len(es))
		case es[0].Mode != want:
			t.Errorf("%s: read as %s mode, recorded as %s", path, es[0].Mode, want)
		case len(es[0].Plans) == 0:
			t.Errorf("%s: no physical plan", path)
		}
		return nil
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	if n == 0 {
		t.Skip("no recorded Spark explain text under fixtures/spark yet")
	}
	t.Logf("%d recorded explain files parsed", n)
}

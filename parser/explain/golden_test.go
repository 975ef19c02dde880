package explain

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/bucketlint/bucketlint/parser/perr"
	"github.com/bucketlint/bucketlint/plan"
)

var update = flag.Bool("update", false, "rewrite golden sections")

// goldenInput returns a case's input: section "input.txt", or "input.crlf.txt" whose lines
// are given Windows line ends before parsing (txtar itself needs "\n" after its markers).
func goldenInput(t *testing.T, a *txtar.Archive) (string, []byte) {
	t.Helper()
	for _, f := range a.Files {
		switch f.Name {
		case "input.txt":
			return f.Name, f.Data
		case "input.crlf.txt":
			return f.Name, bytes.ReplaceAll(f.Data, []byte("\n"), []byte("\r\n"))
		}
	}
	t.Fatal("no input.txt section")
	return "", nil
}

// render prints the parse result as the goldens hold it: the model as plan.Fprint prints it
// followed by the extra text sections it leaves out, and the errors one per line.
func render(t *testing.T, es []*plan.Explain, errs perr.List) (want, errors string) {
	t.Helper()
	var b bytes.Buffer
	if err := plan.Fprint(&b, es...); err != nil {
		t.Fatal(err)
	}
	var e strings.Builder
	for _, x := range errs {
		e.WriteString(x.Error())
		e.WriteString("\n")
	}
	return b.String(), e.String()
}

// TestGolden parses the input of every testdata/*.txtar case and compares the model and the
// errors with the case's "want" and "errors" sections; -update rewrites them.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden cases: %v", err)
	}
	for _, path := range files {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			a, err := txtar.ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			name, src := goldenInput(t, a)
			es, errs := Parse(name, src)
			want, errText := render(t, es, errs)
			got := map[string]string{"want": want, "errors": errText}
			if *update {
				rewrite(t, path, a, got)
				return
			}
			for _, sec := range []string{"want", "errors"} {
				if exp := section(a, sec); exp != got[sec] {
					t.Errorf("%s section differs:\n--- got ---\n%s--- want ---\n%s", sec, got[sec], exp)
				}
			}
		})
	}
}

// section returns a section's text, "" when absent.
func section(a *txtar.Archive, name string) string {
	for _, f := range a.Files {
		if f.Name == name {
			return string(f.Data)
		}
	}
	return ""
}

// rewrite replaces the expectation sections of a case; an empty "errors" section is dropped.
func rewrite(t *testing.T, path string, a *txtar.Archive, got map[string]string) {
	t.Helper()
	var files []txtar.File
	for _, f := range a.Files {
		if f.Name != "want" && f.Name != "errors" {
			files = append(files, f)
		}
	}
	files = append(files, txtar.File{Name: "want", Data: []byte(got["want"])})
	if got["errors"] != "" {
		files = append(files, txtar.File{Name: "errors", Data: []byte(got["errors"])})
	}
	a.Files = files
	if err := os.WriteFile(path, txtar.Format(a), 0o644); err != nil {
		t.Fatal(err)
	}
}

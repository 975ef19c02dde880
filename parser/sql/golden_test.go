package sql

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/bucketlint/bucketlint/parser/perr"
)

var update = flag.Bool("update", false, "rewrite golden sections")

// TestGolden parses the input section of every testdata/*.txtar (input.sql through
// ParseFile, describe.txt through ParseDescribe, showcreate.txt through ParseShowCreate) and
// compares the dump with the want section and the errors with the errors section.
func TestGolden(t *testing.T) {
	p, err := New()
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("testdata/*.txtar")
	if len(files) == 0 {
		t.Fatal("no testdata/*.txtar")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			t.Parallel()
			golden(t, p, file)
		})
	}
}

func golden(t *testing.T, p *Parser, file string) {
	t.Helper()
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	got, errs := run(t, p, ar)
	gotErrs := errText(errs)
	if *update {
		var files []txtar.File
		for _, f := range ar.Files {
			if f.Name != "want" && f.Name != "errors" {
				files = append(files, f)
			}
		}
		files = append(files, txtar.File{Name: "want", Data: []byte(got)})
		if gotErrs != "" {
			files = append(files, txtar.File{Name: "errors", Data: []byte(gotErrs)})
		}
		ar.Files = files
		if err := os.WriteFile(file, txtar.Format(ar), 0o600); err != nil {
			t.Fatal(err)
		}
		return
	}
	if want := section(ar, "want"); got != want {
		t.Errorf("%s: dump differs\n--- got ---\n%s--- want ---\n%s", file, got, want)
	}
	if want := section(ar, "errors"); gotErrs != want {
		t.Errorf("%s: errors differ\n--- got ---\n%s--- want ---\n%s", file, gotErrs, want)
	}
}

// run parses the archive's input section and returns the dump and the errors.
func run(t *testing.T, p *Parser, ar *txtar.Archive) (string, perr.List) {
	t.Helper()
	var b bytes.Buffer
	for _, f := range ar.Files {
		switch f.Name {
		case "input.sql":
			file, errs := p.ParseFile(f.Name, f.Data)
			if err := Fprint(&b, file, nil); err != nil {
				t.Fatal(err)
			}
			return b.String(), errs
		case "describe.txt", "showcreate.txt":
			parse := p.ParseDescribe
			if f.Name == "showcreate.txt" {
				parse = p.ParseShowCreate
			}
			tab, errs := parse(f.Name, f.Data)
			if tab != nil {
				if err := FprintTable(&b, tab); err != nil {
					t.Fatal(err)
				}
			}
			return b.String(), errs
		}
	}
	t.Fatal("no input.sql, describe.txt or showcreate.txt section")
	return "", nil
}

func section(ar *txtar.Archive, name string) string {
	for _, f := range ar.Files {
		if f.Name == name {
			return string(f.Data)
		}
	}
	return ""
}

func errText(errs perr.List) string {
	var b strings.Builder
	for _, e := range errs {
		b.WriteString(e.Error() + "\n")
	}
	return b.String()
}

package catalog

import (
	"bytes"
	"path/filepath"
	"testing"

	"golang.org/x/tools/txtar"
)

// FuzzCatalog reads arbitrary input: Read never panics, every error lies inside the input,
// and whatever it reads writes back to a catalog that reads to the same number of tables.
func FuzzCatalog(f *testing.F) {
	paths, _ := filepath.Glob("testdata/*.txtar")
	for _, p := range paths {
		a, err := txtar.ParseFile(p)
		if err != nil {
			f.Fatal(err)
		}
		for _, s := range a.Files {
			if s.Name == "catalog.yaml" {
				f.Add(s.Data)
			}
		}
	}
	f.Add([]byte("bucketlint: {version: 1}\ntables: [{name: t, bucket: {numBuckets: 2, columns: [a]}}]\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		tables, errs := Read("f.yaml", src)
		lines := bytes.Count(src, []byte("\n")) + 1
		for _, e := range errs {
			if e.Pos.File != "f.yaml" || e.Pos.Line < 1 || e.Pos.Line > lines || e.Pos.Col < 1 {
				t.Fatalf("error outside the input (%d lines): %v", lines, e)
			}
		}
		var buf bytes.Buffer
		if err := Write(&buf, tables); err != nil {
			t.Fatal(err)
		}
		again, errs := Read("g.yaml", buf.Bytes())
		if len(errs) > 0 || len(again) != len(tables) {
			t.Fatalf("write → read: %d tables, want %d; errors %v\n%s", len(again), len(tables), errs, buf.String())
		}
	})
}

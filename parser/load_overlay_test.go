package parser

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadOverlay reads an editor's unsaved text instead of the file on disk, reads an
// unsaved new file under a walked directory, and skips the overlay files the walk would skip
// (hidden or excluded directories, names Load does not read, files outside the roots).
func TestLoadOverlay(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "ddl", "t.sql"), []byte("CREATE TABLE t (id INT) USING parquet CLUSTERED BY (id) INTO 4 BUCKETS;\n"))
	root := filepath.ToSlash(dir)
	overlay := map[string][]byte{
		root + "/ddl/t.sql":         []byte("CREATE TABLE t (id INT) USING parquet CLUSTERED BY (id) INTO 8 BUCKETS;\n"),
		root + "/ddl/new.sql":       []byte("CREATE TABLE n (id INT) USING parquet;\n"),
		root + "/.hidden/h.sql":     []byte("CREATE TABLE h (id INT) USING parquet;\n"),
		root + "/build/b.sql":       []byte("CREATE TABLE b (id INT) USING parquet;\n"),
		root + "/ddl/notes.bin":     []byte("CREATE TABLE x (id INT) USING parquet;\n"),
		root + "/../outside.sql":    []byte("CREATE TABLE o (id INT) USING parquet;\n"),
		root + "x/sibling.sql":      []byte("CREATE TABLE s (id INT) USING parquet;\n"),
		root + "/ddl/too_big.sql":   []byte(strings.Repeat("-", 200)),
		root + "/ddl/.sub/../u.sql": []byte("CREATE TABLE u (id INT) USING parquet;\n"),
	}
	proj, errs := Load(t.Context(), []string{dir}, LoadOptions{Exclude: []string{"build/"}, Overlay: overlay, MaxInputSize: 100})
	got := dump(proj, errs)
	for _, want := range []string{"8 buckets by (id)", "table n format=parquet", "too_big.sql: file is 200 bytes, above the 100 bytes"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	for _, absent := range []string{"table h ", "table b ", "table x ", "table o ", "table s ", "table u "} {
		if strings.Contains(got, absent) {
			t.Errorf("%q should not be read:\n%s", absent, got)
		}
	}
}

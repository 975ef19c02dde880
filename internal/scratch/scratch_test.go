package scratch

import (
	"os"
	"path/filepath"
	"testing"
)

func TestMkdirTempRemove(t *testing.T) {
	parent := t.TempDir()
	cases := []struct {
		name string
		end  func(remove func() error) error
	}{
		{"own remove", func(remove func() error) error { return remove() }},
		{"RemoveAll", func(func() error) error { return RemoveAll() }},
		{"both", func(remove func() error) error {
			if err := RemoveAll(); err != nil {
				return err
			}
			return remove()
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir, remove, err := MkdirTemp(parent, "x-")
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "f"), []byte("data"), 0o600); err != nil {
				t.Fatal(err)
			}
			if got := Live(); len(got) != 1 || got[0] != dir {
				t.Fatalf("Live() = %v, want [%s]", got, dir)
			}
			if err := c.end(remove); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(dir); !os.IsNotExist(err) {
				t.Fatalf("%s still there (err %v)", dir, err)
			}
			if got := Live(); len(got) != 0 {
				t.Fatalf("Live() = %v after removal", got)
			}
		})
	}
}

func TestMkdirTempBadParent(t *testing.T) {
	if _, _, err := MkdirTemp(filepath.Join(t.TempDir(), "missing"), "x-"); err == nil {
		t.Fatal("no error for a missing parent")
	}
	if got := Live(); len(got) != 0 {
		t.Fatalf("Live() = %v after a failed MkdirTemp", got)
	}
}

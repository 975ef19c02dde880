package rules

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestValidate(t *testing.T) {
	t.Parallel()
	if err := Validate(All()); err != nil {
		t.Fatal(err)
	}
	bad := All()
	bad[1].ID = bad[0].ID
	bad[2].Name = "Not Kebab"
	bad[3].Doc = ""
	bad[4].Run = nil
	err := Validate(bad)
	if err == nil {
		t.Fatal("Validate accepted a duplicate ID, a bad name, an empty Doc and a nil Run")
	}
	for _, want := range []string{"duplicate ID", "malformed name", "empty Doc", "nil Run"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Validate error %q does not mention %q", err, want)
		}
	}
}

// TestAllOrder checks that All lists the rules in ID order, fresh on every call.
func TestAllOrder(t *testing.T) {
	t.Parallel()
	a, b := All(), All()
	for i := 1; i < len(a); i++ {
		if a[i-1].ID >= a[i].ID {
			t.Errorf("All: %s before %s", a[i-1].ID, a[i].ID)
		}
	}
	a[0].Name = "changed"
	if b[0].Name == "changed" || All()[0].Name == "changed" {
		t.Error("All returns shared rule values")
	}
}

// TestRulesDoc fails when docs/rules.md is not what WriteDocs produces; -update rewrites it.
func TestRulesDoc(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	if err := WriteDocs(&buf, All()); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("..", "docs", "rules.md")
	if *update {
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./rules -run TestRulesDoc -update)", err)
	}
	if !bytes.Equal(got, buf.Bytes()) {
		t.Errorf("%s is stale: run go test ./rules -run TestRulesDoc -update", path)
	}
}

package catalog

import (
	"strings"
	"testing"
)

// TestReadTooDeep reads a catalog nested ten times deeper than yamlpos.MaxDepth: one
// positioned error, no tables, no crash.
func TestReadTooDeep(t *testing.T) {
	src := "bucketlint:\n  version: 1\ntables: " + strings.Repeat("[", 640) + strings.Repeat("]", 640) + "\n"
	tables, errs := Read("c.yaml", []byte(src))
	if len(tables) != 0 || len(errs) != 1 || errs[0].Error() != "c.yaml:3:72: YAML nested more than 64 deep" {
		t.Fatalf("tables %v, errors %v", tables, errs)
	}
}

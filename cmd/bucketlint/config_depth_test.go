package main

import (
	"errors"
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/rules"
)

// TestConfigTooDeep reads a configuration nested ten times deeper than yamlpos.MaxDepth: a
// positioned configuration error (exit 2).
func TestConfigTooDeep(t *testing.T) {
	src := "exclude: " + strings.Repeat("[", 640) + strings.Repeat("]", 640) + "\n"
	_, err := parseConfig("c.yaml", []byte(src), rules.All())
	var ce *configError
	if !errors.As(err, &ce) || err.Error() != "c.yaml:1:73: YAML nested more than 64 deep" || exitCode(err) != exitUsage {
		t.Fatalf("error %v", err)
	}
}

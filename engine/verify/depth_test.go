//go:build engine

package verify

import (
	"errors"
	"strings"
	"testing"
)

// TestParseScenarioTooDeep reads a scenario file nested ten times deeper than
// yamlpos.MaxDepth: a positioned *ScenarioError.
func TestParseScenarioTooDeep(t *testing.T) {
	src := "tables: " + strings.Repeat("[", 640) + strings.Repeat("]", 640) + "\n"
	_, err := ParseScenario("s.yaml", []byte(src))
	var se *ScenarioError
	if !errors.As(err, &se) || err.Error() != "s.yaml:1:72: YAML nested more than 64 deep" {
		t.Fatalf("error %v", err)
	}
}

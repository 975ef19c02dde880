//go:build engine

package verify

import (
	"errors"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/bucketlint/bucketlint/internal/yamlpos"
)

// A scenarioSource is a scenario file's text and YAML nodes, to place errors.
type scenarioSource struct {
	file string
	root yaml.Node
	// lines are the file's lines, split at YAML's line breaks.
	lines []string
}

// at formats an error at the node found by path (keys or sequence indexes; see lookup).
func (s *scenarioSource) at(path []string, format string, args ...any) error {
	return s.errorAt(yamlpos.Nearest(&s.root, path), format, args...)
}

// errorAt formats an error at node n: file:line:col: with the column in bytes (YAML counts
// characters), 1:1 without a node. Line breaks in the message are escaped.
func (s *scenarioSource) errorAt(n *yaml.Node, format string, args ...any) error {
	line, col := 1, 1
	if n != nil && n.Line > 0 {
		line, col = n.Line, max(n.Column, 1)
		if line > len(s.lines) { // yaml.v3 places an empty last document past the end
			line, col = len(s.lines), len(s.lines[len(s.lines)-1])+1
		} else {
			col = yamlpos.ByteColumn(s.lines[line-1], col)
		}
	}
	// One line per error: a value quoted in the message may span lines.
	msg := strings.NewReplacer("\r", `\r`, "\n", `\n`).Replace(fmt.Sprintf(format, args...))
	return fmt.Errorf("%s:%d:%d: %s", s.file, line, col, msg)
}

// yamlError rewrites yaml.v3's errors ("line 3: message") as file:line:col: message, the
// column that of the node on that line the message names (column 1 for syntax errors, where
// yaml.v3 gives only the line).
func (s *scenarioSource) yamlError(err error) error {
	var errs []error
	for _, e := range yamlpos.Messages(err) {
		line, msg, ok := yamlpos.CutLine(e)
		if !ok {
			errs = append(errs, s.errorAt(nil, "%s", e))
			continue
		}
		hint := ""
		if name, found := yamlpos.UnknownField(msg); found {
			msg, hint = fmt.Sprintf("unknown key %q", name), name
		}
		if _, v, found := strings.Cut(msg, "`"); found {
			hint, _, _ = strings.Cut(v, "`")
			hint = strings.TrimSuffix(hint, "...")
		}
		n := s.nodeOnLine(line, hint)
		if n == nil {
			n = &yaml.Node{Line: line, Column: 1}
		}
		errs = append(errs, s.errorAt(n, "%s", msg))
	}
	return joinByLine(errs)
}

// nodeOnLine returns the first scalar on line whose value starts with hint, else the first
// node on line, else nil.
func (s *scenarioSource) nodeOnLine(line int, hint string) *yaml.Node {
	if hint != "" {
		if n := yamlpos.OnLine(&s.root, line, func(n *yaml.Node) bool {
			return n.Kind == yaml.ScalarNode && strings.HasPrefix(n.Value, hint)
		}); n != nil {
			return n
		}
	}
	return yamlpos.OnLine(&s.root, line, func(*yaml.Node) bool { return true })
}

// joinByLine is the errors ("file:line:col: message") as one *ScenarioError, in line order,
// one per line.
func joinByLine(errs []error) *ScenarioError {
	yamlpos.SortByLine(errs)
	return &ScenarioError{msg: errors.Join(errs...).Error()}
}

package verify

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// A scenarioSource is a scenario file's text and YAML nodes, to place errors.
type scenarioSource struct {
	file string
	root yaml.Node
	// lines are the file's lines, split at YAML's line breaks.
	lines []string
}

// yamlLines splits src at the line breaks YAML counts: \r\n, \r, \n, NEL, LS and PS.
func yamlLines(src string) []string {
	var lines []string
	start := 0
	for i := 0; i < len(src); {
		n := 0
		switch {
		case strings.HasPrefix(src[i:], "\r\n"), strings.HasPrefix(src[i:], "\u0085"):
			n = 2
		case src[i] == '\r' || src[i] == '\n':
			n = 1
		case strings.HasPrefix(src[i:], "\u2028"), strings.HasPrefix(src[i:], "\u2029"):
			n = 3
		}
		if n == 0 {
			i++
			continue
		}
		lines = append(lines, src[start:i])
		i += n
		start = i
	}
	return append(lines, src[start:])
}

// at formats an error at the node found by path (keys or sequence indexes; see lookup).
func (s *scenarioSource) at(path []string, format string, args ...any) error {
	return s.errorAt(lookup(&s.root, path), format, args...)
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
			col = byteColumn(s.lines[line-1], col)
		}
	}
	// One line per error: a value quoted in the message may span lines.
	msg := strings.NewReplacer("\r", `\r`, "\n", `\n`).Replace(fmt.Sprintf(format, args...))
	return fmt.Errorf("%s:%d:%d: %s", s.file, line, col, msg)
}

// byteColumn converts the 1-based character column col of text to a byte column.
func byteColumn(text string, col int) int {
	k := 1
	for i := range text {
		if k == col {
			return i + 1
		}
		k++
	}
	return len(text) + 1
}

// yamlError rewrites yaml.v3's errors ("line 3: message") as file:line:col: message, the
// column that of the node on that line the message names (column 1 for syntax errors, where
// yaml.v3 gives only the line).
func (s *scenarioSource) yamlError(err error) error {
	var te *yaml.TypeError
	msgs := []string{strings.TrimPrefix(err.Error(), "yaml: ")}
	if errors.As(err, &te) {
		msgs = te.Errors
	}
	var errs []error
	for _, e := range msgs {
		ln, msg, ok := cutLine(e)
		if !ok {
			errs = append(errs, s.errorAt(nil, "%s", e))
			continue
		}
		line, _ := strconv.Atoi(ln)
		hint := ""
		if k, found := strings.CutPrefix(msg, "field "); found {
			if name, _, found := strings.Cut(k, " not found"); found {
				msg, hint = fmt.Sprintf("unknown key %q", name), name
			}
		}
		if _, v, found := strings.Cut(msg, "`"); found {
			hint, _, _ = strings.Cut(v, "`")
			hint = strings.TrimSuffix(hint, "...")
		}
		n := nodeOnLine(&s.root, line, hint)
		if n == nil {
			n = &yaml.Node{Line: line, Column: 1}
		}
		errs = append(errs, s.errorAt(n, "%s", msg))
	}
	return joinByLine(errs)
}

// nodeOnLine returns the first scalar on line whose value starts with hint, else the first
// node on line, else nil.
func nodeOnLine(root *yaml.Node, line int, hint string) *yaml.Node {
	var first, match *yaml.Node
	var walk func(n *yaml.Node, depth int)
	walk = func(n *yaml.Node, depth int) {
		if n == nil || match != nil || depth > 1000 {
			return
		}
		if n.Line == line && n.Kind != yaml.DocumentNode {
			if first == nil {
				first = n
			}
			if hint != "" && n.Kind == yaml.ScalarNode && strings.HasPrefix(n.Value, hint) {
				match = n
			}
		}
		for _, c := range n.Content {
			walk(c, depth+1)
		}
	}
	walk(root, 0)
	if match != nil {
		return match
	}
	return first
}

// joinByLine is the errors ("file:line:col: message") as one *ScenarioError, in line order,
// one per line.
func joinByLine(errs []error) *ScenarioError {
	lineOf := func(e error) int {
		_, rest, _ := strings.Cut(e.Error(), ":")
		n, _ := strconv.Atoi(strings.SplitN(rest, ":", 2)[0])
		return n
	}
	sort.SliceStable(errs, func(i, j int) bool { return lineOf(errs[i]) < lineOf(errs[j]) })
	return &ScenarioError{msg: errors.Join(errs...).Error()}
}

// cutLine splits yaml.v3's "line 3: message" into its parts.
func cutLine(s string) (line, msg string, ok bool) {
	rest, ok := strings.CutPrefix(s, "line ")
	if !ok {
		return "", "", false
	}
	line, msg, ok = strings.Cut(rest, ": ")
	if _, err := strconv.Atoi(line); !ok || err != nil {
		return "", "", false
	}
	return line, msg, true
}

// lookup walks a document by mapping keys and sequence indexes and returns the node found,
// or the deepest one reached.
func lookup(n *yaml.Node, path []string) *yaml.Node {
	if n != nil && n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	for depth, p := range path {
		if n == nil {
			return nil
		}
		switch n.Kind {
		case yaml.MappingNode:
			var next *yaml.Node
			for i := 0; i+1 < len(n.Content); i += 2 {
				if n.Content[i].Value != p {
					continue
				}
				next = n.Content[i+1]
				if depth == len(path)-1 && next.Kind != yaml.ScalarNode {
					next = n.Content[i] // a section: point at its key
				}
			}
			if next == nil {
				return n
			}
			n = next
		case yaml.SequenceNode:
			i, err := strconv.Atoi(p)
			if err != nil || i >= len(n.Content) {
				return n
			}
			n = n.Content[i]
		default:
			return n
		}
	}
	return n
}

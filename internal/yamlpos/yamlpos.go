// Package yamlpos places errors in YAML documents read with go.yaml.in/yaml/v3: the node at a
// path of keys or on a line, yaml.v3's messages split into line and text, and columns in
// bytes. The configuration file (cmd/bucketlint), verify scenario files (engine/verify) and
// catalog files (parser/catalog) use it. It is a leaf: YAML and the standard library only.
package yamlpos

import (
	"errors"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Messages returns yaml.v3's messages in err: one per problem of a *yaml.TypeError ("line 3:
// field x not found in type …"), else err's own message without its "yaml: " prefix.
func Messages(err error) []string {
	var te *yaml.TypeError
	if errors.As(err, &te) {
		return te.Errors
	}
	return []string{strings.TrimPrefix(err.Error(), "yaml: ")}
}

// CutLine splits yaml.v3's "line 3: message" into the line and the message; ok is false for a
// message that names no line.
func CutLine(s string) (line int, msg string, ok bool) {
	rest, ok := strings.CutPrefix(s, "line ")
	if !ok {
		return 0, "", false
	}
	ln, msg, ok := strings.Cut(rest, ": ")
	n, err := strconv.Atoi(ln)
	if !ok || err != nil {
		return 0, "", false
	}
	return n, msg, true
}

// UnknownField returns the key a strict decoder refused ("field colour not found in type
// main.config" names colour); ok is false for any other message.
func UnknownField(msg string) (key string, ok bool) {
	rest, ok := strings.CutPrefix(msg, "field ")
	if !ok {
		return "", false
	}
	key, _, ok = strings.Cut(rest, " not found")
	return key, ok
}

// Value follows mapping keys from n and returns the value node they lead to, nil when one is
// absent or n is not a mapping.
func Value(n *yaml.Node, keys ...string) *yaml.Node {
	for _, k := range keys {
		if n == nil || n.Kind != yaml.MappingNode {
			return nil
		}
		var next *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == k {
				next = n.Content[i+1]
				break
			}
		}
		n = next
	}
	return n
}

// Nearest walks a document by mapping keys and sequence indexes and returns the node found,
// or the deepest one reached: the place to report a problem with the value at path. A path
// that ends at a section (a mapping or a list) gives the section's key.
func Nearest(n *yaml.Node, path []string) *yaml.Node {
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

// maxDepth bounds the walk of OnLine; yaml.v3 refuses documents nested much deeper.
const maxDepth = 1000

// OnLine returns the first node on line, in document order, for which match is true; nil
// when none is. The document node itself is never returned.
func OnLine(root *yaml.Node, line int, match func(*yaml.Node) bool) *yaml.Node {
	var found *yaml.Node
	var walk func(n *yaml.Node, depth int)
	walk = func(n *yaml.Node, depth int) {
		if n == nil || found != nil || depth > maxDepth {
			return
		}
		if n.Line == line && n.Kind != yaml.DocumentNode && match(n) {
			found = n
			return
		}
		for _, c := range n.Content {
			walk(c, depth+1)
		}
	}
	walk(root, 0)
	return found
}

// SortByLine orders errors printed as "file:line: …" or "file:line:col: …" by line, keeping
// the order of errors on one line.
func SortByLine(errs []error) {
	lineOf := func(e error) int {
		_, rest, _ := strings.Cut(e.Error(), ":")
		n, _ := strconv.Atoi(strings.SplitN(rest, ":", 2)[0])
		return n
	}
	sort.SliceStable(errs, func(i, j int) bool { return lineOf(errs[i]) < lineOf(errs[j]) })
}

// Lines splits src at the line breaks YAML counts: \r\n, \r, \n, NEL, LS and PS, so that
// line n of a node is Lines(src)[n-1].
func Lines(src string) []string {
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

// ByteColumn converts the 1-based character column col of text (as yaml.v3 counts) to a
// 1-based byte column (as plan.Pos counts); a column past the end gives the end.
func ByteColumn(text string, col int) int {
	k := 1
	for i := range text {
		if k == col {
			return i + 1
		}
		k++
	}
	return len(text) + 1
}

// MaxDepth bounds the nesting of the YAML files bucketlint reads (configuration, catalog,
// verify scenarios): none needs more than a few levels, and the readers walk the tree.
const MaxDepth = 64

// TooDeep returns the first node of root (in document order) nested more than max levels
// deep, nil when there is none. It walks without recursion.
func TooDeep(root *yaml.Node, limit int) *yaml.Node {
	type at struct {
		n *yaml.Node
		d int
	}
	stack := []at{{root, 0}}
	for len(stack) > 0 {
		cur := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if cur.n == nil {
			continue
		}
		if cur.d > limit {
			return cur.n
		}
		for i := len(cur.n.Content) - 1; i >= 0; i-- {
			stack = append(stack, at{cur.n.Content[i], cur.d + 1})
		}
	}
	return nil
}

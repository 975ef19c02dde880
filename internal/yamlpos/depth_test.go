package yamlpos

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

func TestTooDeep(t *testing.T) {
	for _, c := range []struct {
		src       string
		line, col int // 0: not too deep
	}{
		{"a: 1\nb: [1, {c: 2}]\n", 0, 0},
		{"x: " + strings.Repeat("[", MaxDepth-1) + strings.Repeat("]", MaxDepth-1), 0, 0},
		{"x: " + strings.Repeat("[", 10*MaxDepth) + strings.Repeat("]", 10*MaxDepth), 1, 3 + MaxDepth},
		{"x:\n" + nestedBlock(10*MaxDepth), MaxDepth + 1, 2*(MaxDepth-1) + 1},
	} {
		var root yaml.Node
		if err := yaml.Unmarshal([]byte(c.src), &root); err != nil {
			t.Fatal(err)
		}
		n := TooDeep(&root, MaxDepth)
		switch {
		case c.line == 0 && n != nil:
			t.Errorf("%.30q: too deep at %d:%d", c.src, n.Line, n.Column)
		case c.line != 0 && (n == nil || n.Line != c.line || n.Column != c.col):
			t.Errorf("%.30q: got %v, want %d:%d", c.src, n, c.line, c.col)
		}
	}
}

// nestedBlock is n levels of block mappings, one a line.
func nestedBlock(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(strings.Repeat("  ", i) + "k:\n")
	}
	return b.String()
}

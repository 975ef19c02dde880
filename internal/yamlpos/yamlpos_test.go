package yamlpos

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

const doc = `spark:
  version: "3.5"
  conf:
    spark.sql.shuffle.partitions: 400
rules: [all, -BL106]
tables:
  - name: ünïcode
    bucket: {numBuckets: 8}
`

func parse(t *testing.T) *yaml.Node {
	t.Helper()
	var root yaml.Node
	if err := yaml.Unmarshal([]byte(doc), &root); err != nil {
		t.Fatal(err)
	}
	return &root
}

func TestNearestAndValue(t *testing.T) {
	t.Parallel()
	root := parse(t)
	for _, c := range []struct {
		path      []string
		line, col int
	}{
		{[]string{"spark", "version"}, 2, 12},
		{[]string{"spark", "conf"}, 3, 3},          // a section: its key
		{[]string{"spark", "missing"}, 2, 3},       // the deepest node reached
		{[]string{"rules", "1"}, 5, 14},            // a list index
		{[]string{"rules", "9"}, 5, 8},             // past the end: the list
		{[]string{"tables", "0", "name"}, 7, 11},   // through a list
		{[]string{"spark", "version", "x"}, 2, 12}, // below a scalar: the scalar
	} {
		n := Nearest(root, c.path)
		if n == nil || n.Line != c.line || n.Column != c.col {
			t.Errorf("Nearest(%v) = %v, want %d:%d", c.path, n, c.line, c.col)
		}
	}
	top := root.Content[0]
	if n := Value(top, "spark", "conf"); n == nil || n.Kind != yaml.MappingNode || n.Line != 4 {
		t.Errorf("Value(spark, conf) = %v, want the mapping on line 4", n)
	}
	if n := Value(top, "spark", "missing"); n != nil {
		t.Errorf("Value(spark, missing) = %v, want nil", n)
	}
	if n := Value(top, "rules", "0"); n != nil {
		t.Errorf("Value through a list = %v, want nil", n)
	}
}

func TestOnLine(t *testing.T) {
	t.Parallel()
	root := parse(t)
	scalar := func(v string) func(*yaml.Node) bool {
		return func(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && strings.HasPrefix(n.Value, v) }
	}
	anyNode := func(*yaml.Node) bool { return true }
	if n := OnLine(root, 8, scalar("numB")); n == nil || n.Column != 14 {
		t.Errorf("OnLine(8, numB) = %v, want column 14", n)
	}
	if n := OnLine(root, 7, anyNode); n == nil || n.Kind != yaml.SequenceNode || n.Column != 3 {
		t.Errorf("OnLine(7, any) = %v, want the list first, at its dash", n)
	}
	if n := OnLine(root, 1, anyNode); n == nil || n.Kind == yaml.DocumentNode {
		t.Errorf("OnLine(1, any) = %v, want a node below the document", n)
	}
	if n := OnLine(root, 99, anyNode); n != nil {
		t.Errorf("OnLine(99) = %v, want nil", n)
	}
}

func TestMessages(t *testing.T) {
	t.Parallel()
	type cfg struct {
		Spark map[string]any `yaml:"spark"`
	}
	dec := yaml.NewDecoder(strings.NewReader("spark: {}\ncolour: red\n"))
	dec.KnownFields(true)
	var c cfg
	msgs := Messages(dec.Decode(&c))
	if len(msgs) != 1 {
		t.Fatalf("Messages = %q, want one", msgs)
	}
	line, msg, ok := CutLine(msgs[0])
	key, known := UnknownField(msg)
	if !ok || line != 2 || !known || key != "colour" {
		t.Errorf("CutLine/UnknownField(%q) = %d %q %t / %q %t", msgs[0], line, msg, ok, key, known)
	}
	syntax := Messages(yaml.Unmarshal([]byte("a: [\n"), &c))
	if len(syntax) != 1 || strings.HasPrefix(syntax[0], "yaml: ") {
		t.Errorf("syntax error messages %q: want one without the yaml: prefix", syntax)
	}
	for _, s := range []string{"did not find expected node", "line x: y", "line 3 no colon"} {
		if _, _, ok := CutLine(s); ok {
			t.Errorf("CutLine(%q) ok, want not", s)
		}
	}
	if _, ok := UnknownField("cannot unmarshal !!str"); ok {
		t.Error("UnknownField of another message ok")
	}
}

func TestSortByLine(t *testing.T) {
	t.Parallel()
	errs := []error{errors.New("f:10: b"), errors.New("f:2:5: a"), errors.New("f:10: a"), fmt.Errorf("f:1: c")}
	SortByLine(errs)
	var got []string
	for _, e := range errs {
		got = append(got, e.Error())
	}
	if want := []string{"f:1: c", "f:2:5: a", "f:10: b", "f:10: a"}; !slices.Equal(got, want) {
		t.Errorf("SortByLine = %q, want %q", got, want)
	}
}

func TestLinesAndByteColumn(t *testing.T) {
	t.Parallel()
	got := Lines("a\r\nb\rc\nd\u0085e\u2028f\u2029g")
	if want := []string{"a", "b", "c", "d", "e", "f", "g"}; !slices.Equal(got, want) {
		t.Errorf("Lines = %q, want %q", got, want)
	}
	for _, c := range []struct {
		text      string
		col, want int
	}{
		{"name: ünïcode", 7, 7},
		{"- ünïcode: x", 11, 13},
		{"abc", 9, 4},
	} {
		if got := ByteColumn(c.text, c.col); got != c.want {
			t.Errorf("ByteColumn(%q, %d) = %d, want %d", c.text, c.col, got, c.want)
		}
	}
}

package code

import (
	"fmt"
	"strings"
	"testing"
)

// TestDepthLimits parses code and notebooks ten times deeper than each limit: every one is
// one positioned error, at the statement or token where the limit was reached, that names
// the limit reached, and the statement after it is still read.
func TestDepthLimits(t *testing.T) {
	after := "\ndf = spark.table(\"after\")\n"
	nb := func(cell string) string {
		return `{"cells": [{"cell_type": "code", "source": [` + cell + `]}, ` +
			`{"cell_type": "code", "source": ["df = spark.table(\"after\")\n"]}]}`
	}
	brackets := fmt.Sprintf("brackets nested more than %d deep; not read", maxBrackets)
	chain := fmt.Sprintf("a chain of operators, attributes or calls nested more than %d deep; not read", maxHeight)
	cases := []struct {
		name, file, src, want string
	}{
		{
			"brackets", "b.py", "x = " + strings.Repeat("(", 10*maxDepth) + "a" + strings.Repeat(")", 10*maxDepth) + after,
			fmt.Sprintf("b.py:1:%d: %s", len("x = ")+maxBrackets+2, brackets),
		},
		{
			"calls", "c.scala", "val x = " + strings.Repeat("f(", 10*maxDepth) + "a" + strings.Repeat(")", 10*maxDepth) + after,
			fmt.Sprintf("c.scala:1:%d: %s", len("val x = ")+2*(maxBrackets+1)+1, brackets),
		},
		{
			"prefix operators", "u.py", "x = " + strings.Repeat("-", 10*maxDepth) + "a" + after,
			fmt.Sprintf("u.py:1:%d: expression nested more than %d levels deep", len("x = ")+maxDepth+1, maxDepth),
		},
		{
			"operator chain", "o.py", "x = a" + strings.Repeat(" + a", 10*maxHeight) + after,
			fmt.Sprintf("o.py:1:%d: %s", len("x = a")+maxHeight*len(" + a")+2, chain),
		},
		{
			"method chain", "m.py", "x = df" + strings.Repeat(".f()", 10*maxHeight) + after,
			fmt.Sprintf("m.py:1:%d: %s", len("x = df")+maxHeight/2*len(".f()")+1, chain),
		}, // two links a call
		{
			"string concatenation", "s.py", "x = " + strings.Repeat(`"a" `, 10*maxHeight) + after,
			fmt.Sprintf("s.py:1:%d: %s", len("x = ")+(maxHeight+1)*len(`"a" `)+1, chain),
		},
		{
			// Two chains, each below the limit, one inside the other: the tree is too high.
			"chains in a chain", "h.py", "x = (a" + strings.Repeat(" + a", maxHeight-10) + ")" + strings.Repeat(" + a", maxHeight-10) + after,
			fmt.Sprintf("h.py:1:%d: chains of operators, attributes or calls nested more than %d deep in all", len("x = ")+1, maxHeight),
		},
		{
			"notebook JSON", "n.ipynb", strings.Repeat("[", 10*maxJSONDepth) + strings.Repeat("]", 10*maxJSONDepth),
			fmt.Sprintf("n.ipynb:1:%d: notebook: JSON nested more than %d deep", maxJSONDepth+1, maxJSONDepth),
		},
		{"notebook cell", "d.ipynb", nb(`"x = ` + strings.Repeat("(", 10*maxDepth) + `"`), "d.ipynb:1:"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			file, errs := Parse(c.file, []byte(c.src))
			if len(errs) != 1 || !strings.HasPrefix(errs[0].Error(), c.want) {
				t.Fatalf("errors %v, want one starting %q", errs, c.want)
			}
			if c.name == "notebook JSON" {
				return
			}
			if c.name == "notebook cell" && !strings.HasSuffix(errs[0].Msg, brackets) {
				t.Errorf("error %q does not name the bracket limit", errs[0].Msg)
			}
			var tables []string
			for _, r := range file.Reads {
				tables = append(tables, r.Table)
			}
			if !strings.Contains(strings.Join(tables, " "), "after") {
				t.Errorf("the statement after the deep one is not read: reads %v", tables)
			}
		})
	}
}

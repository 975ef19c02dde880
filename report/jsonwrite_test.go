package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/plan"
)

// TestIndentJSONAsEncoder: writeJSON prints what encoding/json's Encoder prints with
// SetIndent("", "  ") and SetEscapeHTML(false).
func TestIndentJSONAsEncoder(t *testing.T) {
	for _, v := range []any{
		nil, 1, "a",
		[]int{},
		map[string]any{},
		[]any{[]int{}, map[string]int{}},
		map[string]any{"a": []any{1, "x,y", map[string]any{"b": nil, "c": []string{"]", "}", "\"{", "\\"}}}, "d": "<&>\n\t:"},
		struct {
			A []struct{ B map[string][]int } `json:"a"`
		}{A: []struct{ B map[string][]int }{{B: map[string][]int{"k": {1, 2}, "e": {}}}}},
	} {
		var want, got bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			t.Fatal(err)
		}
		if err := writeJSON(&got, v); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("%#v:\ngot  %q\nwant %q", v, got.String(), want.String())
		}
	}
}

// TestPlanJSONDeep: plan --format json of a plan 50,000 operators deep, ten times the depth
// at which encoding/json's indentation gave up with "exceeded max depth" (issue 14), is
// valid JSON holding every operator, indented no deeper than maxIndentLevels.
func TestPlanJSONDeep(t *testing.T) {
	const depth = 50_000
	var root plan.Node = &plan.FileScan{OpInfo: plan.OpInfo{Name: "FileScan"}, Table: "db.t"}
	for range depth - 1 {
		root = &plan.Filter{OpInfo: plan.OpInfo{Name: "Filter", Kids: []plan.Node{root}}}
	}
	e := &plan.Explain{Mode: "simple", Plans: []plan.Section{{Name: "Physical Plan", Root: root}}}
	var out bytes.Buffer
	if err := PlanJSON(&out, "deep.txt", []*plan.Explain{e}, nil); err != nil {
		t.Fatal(err)
	}
	// The first explain's plans are printed twice: at the top and in "explains".
	if n := strings.Count(out.String(), `"name": "Filter"`); n != 2*(depth-1) {
		t.Fatalf("%d Filters in the output, want %d", n, 2*(depth-1))
	}
	for line := range strings.Lines(out.String()) {
		if len(line) > 2*maxIndentLevels+100 {
			t.Fatalf("a line of %d bytes: the indentation grows with the depth", len(line))
		}
	}
	// Decoded without encoding/json's limit: every bracket closes, in order.
	var stack []byte
	inString, escaped := false, false
	for _, c := range out.Bytes() {
		switch {
		case inString:
			escaped, inString = !escaped && c == '\\', inString && (escaped || c != '"')
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			stack = append(stack, c)
		case c == '}' || c == ']':
			if len(stack) == 0 || (stack[len(stack)-1] == '{') != (c == '}') {
				t.Fatal("unbalanced brackets")
			}
			stack = stack[:len(stack)-1]
		}
	}
	if len(stack) != 0 || inString {
		t.Fatal("unterminated JSON")
	}
}

package report

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/bucketlint/bucketlint/parser/explain"
	"github.com/bucketlint/bucketlint/plan"
)

// planJSON is `plan --format json` (DESIGN.md §4) as a value, as PlanJSON built it before it
// streamed. The top-level mode, adaptive and plans
// describe the file's first explain output; explains lists every explain output of the file.
type planJSON struct {
	File     string         `json:"file"`
	Mode     string         `json:"mode"`
	Adaptive *adaptiveJSON  `json:"adaptive"`
	Plans    []sectionJSON  `json:"plans"`
	Explains []explainJSON  `json:"explains"`
	Errors   []positionJSON `json:"errors"`
}

type explainJSON struct {
	Line     int           `json:"line"`
	Mode     string        `json:"mode"`
	Adaptive *adaptiveJSON `json:"adaptive"`
	Plans    []sectionJSON `json:"plans"`
}

type positionJSON struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
}

// planJSONValue is what PlanJSON streams, built whole.
func planJSONValue(file string, explains []*plan.Explain, errs []PositionedError) planJSON {
	out := planJSON{File: file, Plans: []sectionJSON{}, Explains: []explainJSON{}, Errors: []positionJSON{}}
	for i, e := range explains {
		ej := explainJSON{Line: e.Pos.Line, Mode: e.Mode, Plans: []sectionJSON{}}
		if e.Adaptive != nil {
			ej.Adaptive = &adaptiveJSON{IsFinalPlan: e.Adaptive.IsFinalPlan}
		}
		for _, s := range e.Plans {
			ej.Plans = append(ej.Plans, sectionJSON{Section: s.Name, Line: s.Pos.Line, Root: toNodeJSON(s.Root, nil)})
		}
		if i == 0 {
			out.Mode, out.Adaptive, out.Plans = ej.Mode, ej.Adaptive, ej.Plans
		}
		out.Explains = append(out.Explains, ej)
	}
	for _, e := range errs {
		out.Errors = append(out.Errors, positionJSON(e))
	}
	return out
}

// planJSONInputs are explain texts of every shape: the explain parser's golden inputs, a
// plan deeper than maxIndentLevels and, when present, the corpus's TPC plans.
func planJSONInputs(t *testing.T) map[string][]byte {
	t.Helper()
	in := map[string][]byte{}
	paths, _ := filepath.Glob(filepath.Join("..", "parser", "explain", "testdata", "*.txtar"))
	for _, path := range paths {
		a, err := txtar.ParseFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range a.Files {
			if strings.HasPrefix(f.Name, "input") {
				in[filepath.Base(path)+"/"+f.Name] = f.Data
			}
		}
	}
	if len(in) == 0 {
		t.Fatal("no explain golden inputs")
	}
	var deep strings.Builder
	deep.WriteString("== Physical Plan ==\nProject [a#1]\n")
	for i := range 300 {
		deep.WriteString(strings.Repeat(" ", 3*i) + "+- Filter (a#1 = \"x\u2028\\y\x01\xff\")\n")
	}
	in["deep"] = []byte(deep.String())
	if testing.Short() {
		return in
	}
	if tpc := tpcPlans(t); len(tpc) > 0 {
		in["tpc"] = tpc
	}
	return in
}

// TestPlanJSONStreams: the streamed JSON is byte for byte what encoding the whole value with
// writeJSON gives.
func TestPlanJSONStreams(t *testing.T) {
	errs := []PositionedError{{File: "f\"<&>.txt", Line: 3, Column: 4, Message: "bad \t\x00 \u2029 \xc3"}}
	for name, src := range planJSONInputs(t) {
		explains, _ := explain.Parse(name, src)
		for _, es := range [][]PositionedError{nil, errs} {
			var got, want bytes.Buffer
			if err := PlanJSON(&got, name, explains, es); err != nil {
				t.Fatal(err)
			}
			if err := writeJSON(&want, planJSONValue(name, explains, es)); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				_ = os.WriteFile(filepath.Join(t.TempDir(), "got.json"), got.Bytes(), 0o600)
				t.Errorf("%s: streamed JSON differs from the encoded value at byte %d", name, firstDiff(got.Bytes(), want.Bytes()))
			}
		}
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

//go:build engine

package verify

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/plan"
)

// FuzzReadScenario: any bytes in a *.verify.yaml file give a scenario or errors that each
// start file:line:col: inside the file, never a panic.
func FuzzReadScenario(f *testing.F) {
	files, _ := filepath.Glob("../../fixtures/verify/*" + ScenarioSuffix)
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	for _, s := range []string{
		"", "sql: [a.sql]\n", "sql: a.sql\n", "sql: [a.sql]\nrows: -1\n", "nme: x\nsql: [a.sql]\n",
		"sql: [a.sql]\nlayout:\n  t: {columns: [k], buckets: 0}\n",
		"sql: [a.sql]\nlayout:\n  t:\n", "sql: [a.sql]\nwritten:\n  t:\n  u: {buckets: 8}\n",
		"sql: [a.sql]\ncurrent:\n  t: {columns: [k], buckets: 200000, types: {k: intt}}\n",
		"sql: [a.sql]\ntables:\n  t:\n    rows: 5\n    columns:\n      k: {cardinality: -3, zipf: .nan, nulls: 2}\n",
		"sql: [a.sql]\ntables:\n  t: {columns: {k: {zipf: .inf}}}\n",
		"sql: [a.sql]\nspark: {version: \"3.5\", conf: {a: [1]}}\n", "sql: [a.sql]\nsql: [b.sql]\n",
		"- a\n- b\n", "sql: [\n", "\tsql: x", "&a [*a, *a]", "rows: 99999999999999999999999\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		path := filepath.Join(t.TempDir(), "s"+ScenarioSuffix)
		if err := os.WriteFile(path, src, 0o644); err != nil {
			t.Fatal(err)
		}
		sf, err := ReadScenario(path)
		if err != nil {
			checkPositions(t, path, string(src), err)
			return
		}
		if len(sf.SQL) == 0 {
			t.Fatal("a scenario without SQL files and without an error")
		}
		_, _, _ = sf.Paths(), sf.Data(), sf.WrittenSpecs()
		tables := map[string]*plan.Table{}
		for n := range sf.Tables {
			tables[strings.ToLower(n)] = &plan.Table{Name: n}
		}
		_ = sf.CheckTables(tables)
		_, _ = ApplyLayout(tables, sf.Layout)
	})
}

// checkPositions fails unless every line of err starts path:line:col: with line and col
// inside src.
func checkPositions(t *testing.T, path, src string, err error) {
	t.Helper()
	var se *ScenarioError
	if !errors.As(err, &se) {
		t.Fatalf("not a scenario error: %v", err)
	}
	// YAML counts \r, \r\n, NEL, LS and PS as line breaks too.
	lines := strings.Split(strings.NewReplacer("\r\n", "\n", "\r", "\n", "\u0085", "\n", "\u2028", "\n", "\u2029", "\n").Replace(src), "\n")
	for _, msg := range strings.Split(err.Error(), "\n") {
		rest, ok := strings.CutPrefix(msg, path+":")
		if !ok {
			t.Fatalf("error without the file name: %q", msg)
		}
		parts := strings.SplitN(rest, ":", 3)
		if len(parts) < 3 {
			t.Fatalf("error without line and column: %q", msg)
		}
		line, lerr := strconv.Atoi(parts[0])
		col, cerr := strconv.Atoi(parts[1])
		if lerr != nil || cerr != nil || line < 1 || line > len(lines) || col < 1 || col > len(lines[line-1])+1 {
			t.Fatalf("position outside the input (%d lines): %q", len(lines), msg)
		}
	}
}

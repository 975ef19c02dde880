package main

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/bucketlint/bucketlint/engine/hash"
	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
)

// maxBuckets is Spark's default spark.sql.sources.bucketing.maxBuckets.
const maxBuckets = 100000

// validate checks what decoding cannot: the SQL files are named, the Spark version parses,
// counts and fractions are in range, layouts are complete and their types parse.
func (sf *scenarioFile) validate() []error {
	var errs []error
	at := func(path []string, format string, args ...any) {
		errs = append(errs, sf.src.at(path, format, args...))
	}
	if len(sf.SQL) == 0 {
		at([]string{"sql"}, "sql: want the files with the DDL and the queries")
	}
	if sf.Spark.Version != "" {
		if _, err := simulate.ParseVersion(sf.Spark.Version); err != nil {
			at([]string{"spark", "version"}, "%v", err)
		}
	}
	if sf.Rows < 0 {
		at([]string{"rows"}, "rows %d: want a count of 0 or more (0: --rows)", sf.Rows)
	}
	for _, name := range sortedKeys(sf.Tables) {
		t := sf.Tables[name]
		if t.Rows < 0 {
			at([]string{"tables", name, "rows"}, "table %s: rows %d: want a count of 0 or more", name, t.Rows)
		}
		for _, c := range sortedKeys(t.Columns) {
			g, p := t.Columns[c], []string{"tables", name, "columns", c}
			if g.Cardinality < 0 {
				at(append(p, "cardinality"), "column %s.%s: cardinality %d: want 0 (one per row) or more", name, c, g.Cardinality)
			}
			if !(g.Zipf >= 0) || math.IsInf(g.Zipf, 0) {
				at(append(p, "zipf"), "column %s.%s: zipf %v: want 0 (uniform) or a finite skew above 1", name, c, g.Zipf)
			}
			if !(g.Nulls >= 0 && g.Nulls <= 1) {
				at(append(p, "nulls"), "column %s.%s: nulls %v: want a fraction from 0 to 1", name, c, g.Nulls)
			}
		}
	}
	for _, n := range sortedKeys(sf.Current) {
		errs = append(errs, ptr(sf.Current[n]).validate(sf.src, "current", n, false)...)
	}
	for _, n := range sortedKeys(sf.Layout) {
		errs = append(errs, ptr(sf.Layout[n]).validate(sf.src, "layout", n, true)...)
	}
	for _, n := range sortedKeys(sf.Written) {
		errs = append(errs, sf.Written[n].validate(sf.src, "written", n, false)...)
	}
	return errs
}

func ptr[T any](v T) *T { return &v }

// validate checks one bucket spec of section key (current, layout, written); required specs
// (layout) must be bucketed. A nil spec (an empty value) is unbucketed.
func (l *layoutSpec) validate(src *scenarioSource, key, name string, required bool) []error {
	var errs []error
	at := func(path []string, format string, args ...any) {
		errs = append(errs, src.at(append([]string{key, name}, path...), format, args...))
	}
	switch {
	case l == nil:
		if required {
			at(nil, "%s %s: want columns and buckets > 0", key, name)
		}
		return errs
	case l.Buckets < 0 || l.Buckets > maxBuckets:
		at([]string{"buckets"}, "%s %s: buckets %d out of range 1..%d (spark.sql.sources.bucketing.maxBuckets)", key, name, l.Buckets, maxBuckets)
	case required && (l.Buckets == 0 || len(l.Columns) == 0):
		at(nil, "%s %s: want columns and buckets > 0", key, name)
	}
	for _, c := range sortedKeys(l.Types) {
		if _, err := hash.ParseType(l.Types[c]); err != nil {
			at([]string{"types", c}, "%s %s: type of %s: %v", key, name, c, err)
		}
	}
	return errs
}

// checkColumns reports the columns of spec l (of section key, table name) that table t
// does not have.
func (l *layoutSpec) checkColumns(src *scenarioSource, key, name string, t *plan.Table) []error {
	if l == nil {
		return nil
	}
	has := func(c string) bool {
		for _, tc := range t.Columns {
			if strings.EqualFold(tc.Name, c) {
				return true
			}
		}
		return false
	}
	var errs []error
	for _, f := range []struct {
		key  string
		cols []string
	}{{"columns", l.Columns}, {"sortedBy", l.SortedBy}, {"types", sortedKeys(l.Types)}} {
		for i, c := range f.cols {
			if has(c) {
				continue
			}
			path := []string{key, name, f.key, strconv.Itoa(i)}
			if f.key == "types" {
				path = []string{key, name, f.key, c}
			}
			errs = append(errs, src.at(path, "%s %s: no column %s in table %s", key, name, c, t.Name))
		}
	}
	return errs
}

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
	return &configError{msg: joinByLine(errs)}
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

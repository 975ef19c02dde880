//go:build engine

package verify

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/bucketlint/bucketlint/internal/readcap"
	"github.com/bucketlint/bucketlint/internal/yamlpos"
	"github.com/bucketlint/bucketlint/plan"
)

// ScenarioSuffix names verify scenario files: fixtures/verify/*.verify.yaml.
const ScenarioSuffix = ".verify.yaml"

// A ScenarioFile is one verify scenario file: the workload's SQL files, data per table, and
// optionally the layout to verify instead of the advice (fixtures/verify/README.md).
type ScenarioFile struct {
	// Name names the scenario; the file name without ScenarioSuffix when not given.
	Name  string `yaml:"name"`
	About string `yaml:"about"`
	// SQL are the files with the DDL and the queries, relative to the scenario file.
	SQL   []string `yaml:"sql"`
	Spark struct {
		Version string            `yaml:"version"`
		Conf    map[string]string `yaml:"conf"`
	} `yaml:"spark"`
	// Rows is the default row count of the tables; 0 means the command's.
	Rows   int                      `yaml:"rows"`
	Tables map[string]ScenarioTable `yaml:"tables"`
	// Current overrides the DDL's bucket spec of tables as they are today (buckets: 0 or no
	// columns: unbucketed); Layout is the layout to verify instead of the advice; Written is
	// the layout the after-side data is really written with (Scenario.Written).
	Current map[string]Layout  `yaml:"current"`
	Layout  map[string]Layout  `yaml:"layout"`
	Written map[string]*Layout `yaml:"written"`
	// dir is the file's directory: relative paths are read from it.
	dir string
	// src locates the file's keys and values for error messages.
	src *scenarioSource
}

// A ScenarioTable is where one table's rows come from.
type ScenarioTable struct {
	Rows    int                       `yaml:"rows"`
	Data    string                    `yaml:"data"`
	Columns map[string]ScenarioColumn `yaml:"columns"`
}

// A ScenarioColumn tunes the generated values of one column (ColumnGen).
type ScenarioColumn struct {
	Cardinality int     `yaml:"cardinality"`
	Zipf        float64 `yaml:"zipf"`
	Nulls       float64 `yaml:"nulls"`
	Start       string  `yaml:"start"`
}

// A ScenarioError is a scenario file that is not valid: one problem a line, each starting
// file:line:col: at the key or value at fault, in line order.
type ScenarioError struct{ msg string }

func (e *ScenarioError) Error() string { return e.msg }

// spec is the bucket spec of l; nil (unbucketed) for no columns or no buckets.
func (l *Layout) spec() *plan.BucketSpec {
	if l == nil || l.Buckets == 0 || len(l.Columns) == 0 {
		return nil
	}
	return &plan.BucketSpec{NumBuckets: l.Buckets, Columns: l.Columns, SortColumns: l.SortedBy}
}

// ReadScenario reads and checks a scenario file: a regular file of at most
// readcap.DefaultLimit bytes. A file that cannot be read gives the operating system's error
// or readcap's refusal; a file that is not valid a *ScenarioError.
func ReadScenario(path string) (*ScenarioFile, error) {
	raw, err := readcap.File(path, 0)
	if err != nil {
		return nil, err
	}
	return ParseScenario(path, raw)
}

// ParseScenario decodes the scenario file at path, whose text is raw, strictly (unknown keys
// are errors) and checks it. Errors are a *ScenarioError.
func ParseScenario(path string, raw []byte) (*ScenarioFile, error) {
	src := &scenarioSource{file: path, lines: yamlpos.Lines(string(raw))}
	if err := yaml.Unmarshal(raw, &src.root); err != nil {
		return nil, src.yamlError(err)
	}
	if n := yamlpos.TooDeep(&src.root, yamlpos.MaxDepth); n != nil {
		return nil, &ScenarioError{msg: fmt.Sprintf("%s:%d:%d: YAML nested more than %d deep", path, n.Line, n.Column, yamlpos.MaxDepth)}
	}
	dec := yaml.NewDecoder(bytes.NewReader(raw))
	dec.KnownFields(true)
	sf := &ScenarioFile{src: src}
	if err := dec.Decode(sf); err != nil && !errors.Is(err, io.EOF) {
		return nil, src.yamlError(err)
	}
	sf.dir = filepath.Dir(path)
	if sf.Name == "" {
		sf.Name = strings.TrimSuffix(filepath.Base(path), ScenarioSuffix)
	}
	if errs := sf.validate(); len(errs) > 0 {
		return nil, joinByLine(errs)
	}
	return sf, nil
}

// Paths returns the scenario's SQL files, relative to the working directory.
func (sf *ScenarioFile) Paths() []string {
	out := make([]string, len(sf.SQL))
	for i, p := range sf.SQL {
		out[i] = sf.rel(p)
	}
	return out
}

func (sf *ScenarioFile) rel(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.ToSlash(filepath.Join(sf.dir, p))
}

// Data is the scenario's TableData per table (lower-case names), for Scenario.Data.
func (sf *ScenarioFile) Data() map[string]TableData {
	out := map[string]TableData{}
	for name, t := range sf.Tables {
		td := TableData{Rows: t.Rows, Columns: map[string]ColumnGen{}}
		if td.Rows == 0 {
			td.Rows = sf.Rows
		}
		if t.Data != "" {
			td.Path = sf.rel(t.Data)
		}
		for c, g := range t.Columns {
			td.Columns[c] = ColumnGen{Cardinality: g.Cardinality, Zipf: g.Zipf, NullFraction: g.Nulls, Start: g.Start}
		}
		out[strings.ToLower(name)] = td
	}
	return out
}

// WrittenSpecs is the scenario's written-layout overrides (lower-case names), for
// Scenario.Written; nil when it has none.
func (sf *ScenarioFile) WrittenSpecs() map[string]*plan.BucketSpec {
	if len(sf.Written) == 0 {
		return nil
	}
	out := map[string]*plan.BucketSpec{}
	for n, l := range sf.Written {
		out[strings.ToLower(n)] = l.spec()
	}
	return out
}

// ApplyLayout returns the tables with the layouts of m (a scenario's Current or Layout)
// applied: bucket spec and column types. tables is not changed. A layout naming a table
// tables does not hold is a *ScenarioError.
func ApplyLayout(tables map[string]*plan.Table, m map[string]Layout) (map[string]*plan.Table, error) {
	out := make(map[string]*plan.Table, len(tables))
	for k, v := range tables {
		out[k] = v
	}
	for _, n := range slices.Sorted(maps.Keys(m)) {
		l := m[n]
		t := tables[strings.ToLower(n)]
		if t == nil {
			return nil, &ScenarioError{msg: fmt.Sprintf("layout %s: no such table in the DDL", n)}
		}
		cp := *t
		cp.SetBuckets(l.spec())
		cp.Columns = append([]plan.Column(nil), t.Columns...)
		for i, c := range cp.Columns {
			if typ, ok := l.Types[c.Name]; ok {
				cp.Columns[i].Type = strings.ToLower(typ)
			}
		}
		out[t.Name] = &cp
	}
	return out, nil
}

// CheckTables reports, as a *ScenarioError, a table the scenario names (tables, current,
// layout, written) that no DDL in its SQL files declares, and a layout naming a column its
// table does not have.
func (sf *ScenarioFile) CheckTables(tables map[string]*plan.Table) error {
	var errs []error
	for _, section := range []struct {
		key   string
		names []string
	}{
		{"tables", slices.Sorted(maps.Keys(sf.Tables))},
		{"current", slices.Sorted(maps.Keys(sf.Current))},
		{"layout", slices.Sorted(maps.Keys(sf.Layout))},
		{"written", slices.Sorted(maps.Keys(sf.Written))},
	} {
		for _, n := range section.names {
			t := tables[strings.ToLower(n)]
			if t == nil {
				errs = append(errs, sf.src.at([]string{section.key, n}, "table %s is not declared in %s", n, strings.Join(sf.SQL, ", ")))
				continue
			}
			var l *Layout
			switch section.key {
			case "current":
				l = ptr(sf.Current[n])
			case "layout":
				l = ptr(sf.Layout[n])
			case "written":
				l = sf.Written[n]
			}
			errs = append(errs, l.checkColumns(sf.src, section.key, n, t)...)
		}
	}
	if len(errs) > 0 {
		return joinByLine(errs)
	}
	return nil
}

package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/bucketlint/bucketlint/engine/verify"
	"github.com/bucketlint/bucketlint/plan"
)

// scenarioSuffix names verify scenario files: fixtures/verify/*.verify.yaml.
const scenarioSuffix = ".verify.yaml"

// A scenarioFile is one verify scenario: the workload's SQL files, data per table, and
// optionally the layout to verify instead of the advice.
type scenarioFile struct {
	Name  string   `yaml:"name"`
	About string   `yaml:"about"`
	SQL   []string `yaml:"sql"`
	Spark struct {
		Version string            `yaml:"version"`
		Conf    map[string]string `yaml:"conf"`
	} `yaml:"spark"`
	Rows   int                      `yaml:"rows"`
	Tables map[string]scenarioTable `yaml:"tables"`
	// Current overrides the DDL's bucket spec of tables as they are today (buckets: 0 or no
	// columns: unbucketed); Layout is the layout to verify instead of the advice.
	Current map[string]layoutSpec  `yaml:"current"`
	Layout  map[string]layoutSpec  `yaml:"layout"`
	Written map[string]*layoutSpec `yaml:"written"`
	// dir is the file's directory: relative paths are read from it.
	dir string
	// src locates the file's keys and values for error messages.
	src *scenarioSource
}

// scenarioTable is where one table's rows come from.
type scenarioTable struct {
	Rows    int                       `yaml:"rows"`
	Data    string                    `yaml:"data"`
	Columns map[string]scenarioColumn `yaml:"columns"`
}

type scenarioColumn struct {
	Cardinality int     `yaml:"cardinality"`
	Zipf        float64 `yaml:"zipf"`
	Nulls       float64 `yaml:"nulls"`
	Start       string  `yaml:"start"`
}

// layoutSpec is a bucket spec in a scenario file.
type layoutSpec struct {
	Columns  []string          `yaml:"columns"`
	Buckets  int               `yaml:"buckets"`
	SortedBy []string          `yaml:"sortedBy"`
	Types    map[string]string `yaml:"types"`
}

func (l *layoutSpec) spec() *plan.BucketSpec {
	if l == nil || l.Buckets == 0 || len(l.Columns) == 0 {
		return nil
	}
	return &plan.BucketSpec{NumBuckets: l.Buckets, Columns: l.Columns, SortColumns: l.SortedBy}
}

// readScenario reads and checks a scenario file.
func readScenario(path string) (*scenarioFile, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, &usageError{msg: err.Error()}
	}
	return parseScenario(path, raw)
}

// parseScenario decodes a scenario file strictly (unknown keys are errors) and checks it.
// Every error starts file:line:col: at the key or value at fault.
func parseScenario(path string, raw []byte) (*scenarioFile, error) {
	src := &scenarioSource{file: path, lines: yamlLines(string(raw))}
	if err := yaml.Unmarshal(raw, &src.root); err != nil {
		return nil, src.yamlError(err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(raw))
	dec.KnownFields(true)
	sf := &scenarioFile{src: src}
	if err := dec.Decode(sf); err != nil && !errors.Is(err, io.EOF) {
		return nil, src.yamlError(err)
	}
	sf.dir = filepath.Dir(path)
	if sf.Name == "" {
		sf.Name = strings.TrimSuffix(filepath.Base(path), scenarioSuffix)
	}
	if errs := sf.validate(); len(errs) > 0 {
		return nil, &configError{msg: joinByLine(errs)}
	}
	return sf, nil
}

// paths returns the scenario's SQL files, relative to the working directory.
func (sf *scenarioFile) paths() []string {
	out := make([]string, len(sf.SQL))
	for i, p := range sf.SQL {
		out[i] = sf.rel(p)
	}
	return out
}

func (sf *scenarioFile) rel(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.ToSlash(filepath.Join(sf.dir, p))
}

// data is the scenario's TableData per table (lower-case names).
func (sf *scenarioFile) data() map[string]verify.TableData {
	out := map[string]verify.TableData{}
	for name, t := range sf.Tables {
		td := verify.TableData{Rows: t.Rows, Columns: map[string]verify.ColumnGen{}}
		if td.Rows == 0 {
			td.Rows = sf.Rows
		}
		if t.Data != "" {
			td.Path = sf.rel(t.Data)
		}
		for c, g := range t.Columns {
			td.Columns[c] = verify.ColumnGen{Cardinality: g.Cardinality, Zipf: g.Zipf, NullFraction: g.Nulls, Start: g.Start}
		}
		out[strings.ToLower(name)] = td
	}
	return out
}

// applyLayout returns the tables with the layouts of m (the scenario's current or advised
// layouts) applied.
func applyLayout(tables map[string]*plan.Table, m map[string]layoutSpec) (map[string]*plan.Table, error) {
	out := make(map[string]*plan.Table, len(tables))
	for k, v := range tables {
		out[k] = v
	}
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		l := m[n]
		t := tables[strings.ToLower(n)]
		if t == nil {
			return nil, &configError{msg: fmt.Sprintf("layout %s: no such table in the DDL", n)}
		}
		cp := *t
		cp.Bucket = l.spec()
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

// written is the scenario's written-layout overrides.
func (sf *scenarioFile) written() map[string]*plan.BucketSpec {
	if len(sf.Written) == 0 {
		return nil
	}
	out := map[string]*plan.BucketSpec{}
	for n, l := range sf.Written {
		out[strings.ToLower(n)] = l.spec()
	}
	return out
}

// checkTables reports a table the scenario names (tables, current, layout, written) that no
// DDL in its SQL files declares, and a layout naming a column its table does not have.
func (sf *scenarioFile) checkTables(tables map[string]*plan.Table) error {
	var errs []error
	for _, section := range []struct {
		key   string
		names []string
	}{
		{"tables", sortedKeys(sf.Tables)},
		{"current", sortedKeys(sf.Current)},
		{"layout", sortedKeys(sf.Layout)},
		{"written", sortedKeys(sf.Written)},
	} {
		for _, n := range section.names {
			t := tables[strings.ToLower(n)]
			if t == nil {
				errs = append(errs, sf.src.at([]string{section.key, n}, "table %s is not declared in %s", n, strings.Join(sf.SQL, ", ")))
				continue
			}
			var l *layoutSpec
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
		return &configError{msg: joinByLine(errs)}
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

package catalog

import (
	"bytes"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/bucketlint/bucketlint/internal/yamlpos"
	"github.com/bucketlint/bucketlint/parser/perr"
	"github.com/bucketlint/bucketlint/plan"
)

// Version is the catalog format version Read accepts and Write writes.
const Version = 1

// document is the YAML file, field by field as users write it.
type document struct {
	Bucketlint *marker    `yaml:"bucketlint"`
	Tables     []tableDoc `yaml:"tables"`
}

type marker struct {
	Version int `yaml:"version"`
}

type tableDoc struct {
	Name             string      `yaml:"name"`
	Format           string      `yaml:"format,omitempty"`
	Columns          []columnDoc `yaml:"columns,omitempty"`
	PartitionColumns []string    `yaml:"partitionColumns,omitempty,flow"`
	Bucket           *bucketDoc  `yaml:"bucket,omitempty"`
	Location         string      `yaml:"location,omitempty"`
	SizeInBytes      *int64      `yaml:"sizeInBytes,omitempty"`
	RowCount         *int64      `yaml:"rowCount,omitempty"`
	FileCount        *int64      `yaml:"fileCount,omitempty"`
	Hive             bool        `yaml:"hive,omitempty"`
}

type columnDoc struct {
	Name string `yaml:"name"`
	Type string `yaml:"type"`
}

type bucketDoc struct {
	NumBuckets  int      `yaml:"numBuckets"`
	Columns     []string `yaml:"columns,flow"`
	SortColumns []string `yaml:"sortColumns,omitempty,flow"`
}

// markerLine finds a top-level "bucketlint:" key.
const markerLine = `(?m)^bucketlint[ \t]*:`

// IsCatalog reports whether src looks like a catalog: YAML with a top-level "bucketlint" key.
func IsCatalog(src []byte) bool {
	return bytes.Contains(src, []byte("bucketlint")) && regexp.MustCompile(markerLine).Match(src)
}

// Read decodes the catalog in src, the contents of the file named file, and returns its
// tables in file order, each with its Sources set to the position of its list item. Unknown
// keys, values of the wrong type, a missing or unsupported version, tables without a name,
// duplicate names and invalid bucket specs are errors at their file:line:column; the tables
// that are valid are still returned.
func Read(file string, src []byte) ([]*plan.Table, perr.List) {
	var errs perr.List
	var root yaml.Node
	if err := yaml.Unmarshal(src, &root); err != nil {
		errs = append(errs, yamlErrors(file, err, nil)...)
		return nil, clamp(errs, src).Capped()
	}
	if len(root.Content) == 0 {
		errs.Add(plan.Pos{File: file, Line: 1, Col: 1}, "empty catalog: want a top-level bucketlint key")
		return nil, errs
	}
	if n := yamlpos.TooDeep(&root, yamlpos.MaxDepth); n != nil {
		errs.Add(plan.Pos{File: file, Line: n.Line, Col: n.Column}, "YAML nested more than %d deep", yamlpos.MaxDepth)
		return nil, errs
	}
	top := root.Content[0]
	var doc document
	dec := yaml.NewDecoder(bytes.NewReader(src))
	dec.KnownFields(true)
	if err := dec.Decode(&doc); err != nil {
		errs = append(errs, yamlErrors(file, err, top)...)
	}
	bad := map[int]bool{}
	for _, e := range errs {
		bad[e.Pos.Line] = true
	}
	at := func(n *yaml.Node) plan.Pos { return plan.Pos{File: file, Line: n.Line, Col: n.Column} }
	switch {
	case doc.Bucketlint == nil:
		errs.Add(at(top), "not a bucketlint catalog: want a top-level bucketlint key with version: %d", Version)
	case doc.Bucketlint.Version != Version:
		pos := at(top)
		if n := yamlpos.Value(top, "bucketlint", "version"); n != nil {
			pos = at(n)
		}
		errs.Add(pos, "unsupported catalog version %d; want %d", doc.Bucketlint.Version, Version)
	}
	items := yamlpos.Value(top, "tables")
	tables := make([]*plan.Table, 0, len(doc.Tables))
	seen := map[string]plan.Pos{}
	for i, td := range doc.Tables {
		pos := at(top)
		var item *yaml.Node
		if items != nil && i < len(items.Content) {
			item = items.Content[i]
			pos = at(item)
			if hasBadLine(items, i, bad) {
				continue // its errors are reported; a half-read table would mislead
			}
		}
		t, ok := td.table(pos, item, at, &errs)
		if !ok {
			continue
		}
		if prev, dup := seen[t.Name]; dup {
			errs.Add(pos, "table %s listed twice (first at line %d)", t.Name, prev.Line)
			continue
		}
		seen[t.Name] = pos
		tables = append(tables, t)
	}
	return tables, clamp(errs, src).Capped()
}

// clamp keeps positions inside the input: yaml places the node of an empty document ("---")
// on the line after the input's last.
func clamp(errs perr.List, src []byte) perr.List {
	lines := bytes.Count(src, []byte("\n")) + 1
	for _, e := range errs {
		e.Pos.Line = min(max(e.Pos.Line, 1), lines)
		e.Pos.Col = max(e.Pos.Col, 1)
	}
	return errs
}

// hasBadLine reports whether an error lies on a line of item i of the list.
func hasBadLine(items *yaml.Node, i int, bad map[int]bool) bool {
	from, to := items.Content[i].Line, int(^uint(0)>>1)
	if i+1 < len(items.Content) {
		to = items.Content[i+1].Line
	}
	for l := range bad {
		if l >= from && l < to {
			return true
		}
	}
	return false
}

// table converts one decoded list item, reporting what makes it invalid.
func (td *tableDoc) table(pos plan.Pos, item *yaml.Node, at func(*yaml.Node) plan.Pos, errs *perr.List) (*plan.Table, bool) {
	field := func(key string) plan.Pos {
		if n := yamlpos.Value(item, key); n != nil {
			return at(n)
		}
		return pos
	}
	parts := plan.NameParts(strings.ToLower(strings.TrimSpace(td.Name)))
	if len(parts) > 1 && parts[0] == "spark_catalog" {
		parts = parts[1:]
	}
	name := plan.JoinName(parts...)
	if strings.TrimSpace(td.Name) == "" {
		name = ""
	}
	if name == "" {
		errs.Add(pos, "table without a name")
		return nil, false
	}
	t := &plan.Table{
		Name:             name,
		Format:           strings.ToLower(td.Format),
		Location:         td.Location,
		PartitionColumns: lower(td.PartitionColumns),
		Hive:             td.Hive || strings.EqualFold(td.Format, "hive"),
		SizeInBytes:      -1,
		RowCount:         -1,
		Sources:          []plan.Pos{pos},
	}
	for _, c := range td.Columns {
		if c.Name == "" {
			errs.Add(field("columns"), "table %s: column without a name", name)
			return nil, false
		}
		t.Columns = append(t.Columns, plan.Column{Name: strings.ToLower(c.Name), Type: plan.CanonicalType(c.Type), Pos: pos})
	}
	if td.SizeInBytes != nil {
		t.SizeInBytes = *td.SizeInBytes
	}
	if td.RowCount != nil {
		t.RowCount = *td.RowCount
	}
	if td.FileCount != nil {
		t.FileCount = *td.FileCount
	}
	if b := td.Bucket; b != nil {
		bpos := field("bucket")
		switch {
		case b.NumBuckets <= 0:
			errs.Add(bpos, "table %s: numBuckets must be positive, got %d", name, b.NumBuckets)
			return nil, false
		case len(b.Columns) == 0:
			errs.Add(bpos, "table %s: bucket needs at least one column", name)
			return nil, false
		}
		t.SetBuckets(&plan.BucketSpec{NumBuckets: b.NumBuckets, Columns: lower(b.Columns), SortColumns: lower(b.SortColumns), Span: plan.Span{Start: bpos}})
	}
	return t, true
}

func lower(ss []string) []string {
	out := make([]string, 0, len(ss))
	for _, s := range ss {
		out = append(out, strings.ToLower(strings.Trim(strings.TrimSpace(s), "`")))
	}
	return out
}

// yamlErrors turns a yaml error into positioned errors. yaml reports lines only; the column
// is that of the key the message names on that line (an unknown field), else of the first
// node on the line.
func yamlErrors(file string, err error, top *yaml.Node) perr.List {
	var out perr.List
	for _, m := range yamlpos.Messages(err) {
		pos := plan.Pos{File: file, Line: 1, Col: 1}
		msg := m
		if line, rest, ok := yamlpos.CutLine(m); ok {
			msg = rest
			key, _ := yamlpos.UnknownField(msg)
			pos.Line, pos.Col = line, column(top, line, key)
		}
		msg = readable(msg)
		out = append(out, perr.Errorf(pos, "%s", msg))
	}
	return out
}

// readable names the catalog's parts instead of Go types in a yaml message.
func readable(msg string) string {
	if name, ok := yamlpos.UnknownField(msg); ok && name != "" {
		_, typ, _ := strings.Cut(msg, "in type catalog.")
		where := map[string]string{"document": "at the top level", "marker": "in bucketlint", "tableDoc": "in a table", "columnDoc": "in a column", "bucketDoc": "in bucket"}[typ]
		return strings.TrimSpace("unknown key " + name + " " + where)
	}
	return strings.ReplaceAll(msg, "cannot unmarshal", "cannot read")
}

// column finds the column of key (or of any scalar, when key is empty) on line; 1 when there
// is none.
func column(top *yaml.Node, line int, key string) int {
	n := yamlpos.OnLine(top, line, func(n *yaml.Node) bool {
		return n.Kind == yaml.ScalarNode && (key == "" || n.Value == key)
	})
	if n == nil {
		return 1
	}
	return n.Column
}

package parser

import (
	"slices"
	"sort"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// fold merges the facts about one table. The facts are taken in rank order (catalog, DESCRIBE,
// SHOW CREATE, DDL, code writes), then by position; the first to state a fact sets it, a
// later source stating it differently is a Conflict and does not change it, and every source
// is kept in Sources. Identical facts merge silently.
func fold(name string, facts []fact) (*plan.Table, []plan.Conflict) {
	sort.SliceStable(facts, func(i, j int) bool {
		if facts[i].rank != facts[j].rank {
			return facts[i].rank < facts[j].rank
		}
		return source(facts[i].t).Before(source(facts[j].t))
	})
	m := &merger{t: cloneTable(facts[0].t), kept: map[string]plan.Pos{}}
	m.t.Name = name
	m.t.Sources = nil
	for _, f := range facts {
		m.add(f)
	}
	if m.t.Hive && m.t.HiveFormat == "" {
		// SHOW CREATE TABLE prints a Hive table as USING parquet when it can: its storage.
		m.t.HiveFormat = m.fileFormat
	}
	sort.SliceStable(m.t.Sources, func(i, j int) bool { return m.t.Sources[i].Before(m.t.Sources[j]) })
	m.t.Sources = slices.Compact(m.t.Sources)
	return m.t, m.conflicts
}

// A merger folds facts into one table, remembering which source set each fact.
type merger struct {
	t         *plan.Table
	kept      map[string]plan.Pos // fact name → source that set it; absent: not yet known
	conflicts []plan.Conflict
	// fileFormat is the first format other than "hive" a source states, in Hive's spelling.
	fileFormat string
}

func (m *merger) add(f fact) {
	t, pos := f.t, source(f.t)
	m.t.Sources = append(m.t.Sources, t.Sources...)
	if t.Format != "" {
		m.check("format", pos, t.Format, sameFormat(m.t.Format, t.Format), func() {
			m.t.Format = t.Format
		})
		if t.Format == "hive" {
			m.t.Format = "hive"
		}
	}
	m.t.Hive = m.t.Hive || t.Hive
	if m.fileFormat == "" && t.Format != "" && t.Format != "hive" {
		m.fileFormat = t.Format
		if m.fileFormat == "text" {
			m.fileFormat = "textfile"
		}
	}
	if len(t.Columns) > 0 {
		m.check("columns", pos, columnsText(t.Columns), sameColumns(m.t.Columns, t.Columns), func() {
			m.t.Columns = slices.Clone(t.Columns)
		})
	}
	if !f.partial || len(t.PartitionColumns) > 0 {
		m.check("partition columns", pos, listText(t.PartitionColumns), sameNames(m.t.PartitionColumns, t.PartitionColumns), func() {
			m.t.PartitionColumns = slices.Clone(t.PartitionColumns)
		})
	}
	if !f.partial || t.Buckets() != nil {
		m.check("bucket spec", pos, t.Buckets().String(), sameBucket(m.t.Buckets(), t.Buckets()), func() {
			m.t.SetBuckets(t.Buckets().Clone())
		})
	}
	fill(m.t, t)
	m.t.RetagBuckets()
}

// check sets a fact the first time a source states it and records a conflict when a later
// source states it differently.
func (m *merger) check(name string, pos plan.Pos, value string, same bool, set func()) {
	keptPos, known := m.kept[name]
	if !known {
		m.kept[name] = pos
		set()
		return
	}
	if same {
		return
	}
	m.conflicts = append(m.conflicts, plan.Conflict{
		Table: m.t.Name, Fact: name, Kept: keptPos,
		KeptValue: m.value(name), Other: pos, OtherValue: value,
	})
}

// value renders the kept value of a fact for a conflict message.
func (m *merger) value(name string) string {
	switch name {
	case "format":
		return m.t.Format
	case "columns":
		return columnsText(m.t.Columns)
	case "partition columns":
		return listText(m.t.PartitionColumns)
	}
	return m.t.Buckets().String()
}

// fill takes the facts that never conflict (location, statistics, clustering) from the
// first source that states them.
func fill(dst, src *plan.Table) {
	if dst.Location == "" {
		dst.Location = src.Location
	}
	if dst.SizeInBytes < 0 {
		dst.SizeInBytes = src.SizeInBytes
	}
	if dst.RowCount < 0 {
		dst.RowCount = src.RowCount
	}
	if dst.FileCount == 0 {
		dst.FileCount = src.FileCount
	}
	if dst.Layout == nil {
		switch src.Layout.(type) {
		case *plan.Transforms, *plan.Clustering:
			dst.Layout = plan.CloneLayout(src.Layout)
		}
	}
	if dst.Like == "" {
		dst.Like = src.Like
	}
	if dst.HiveFormat == "" {
		dst.HiveFormat = src.HiveFormat
	}
}

// sameFormat compares data sources. A Hive-serde table is "hive" in DESCRIBE output and DDL
// (STORED AS ORC) but the file format in SHOW CREATE TABLE, which Spark prints as USING orc
// when it can: those agree.
func sameFormat(a, b string) bool {
	norm := func(s string) string {
		if s == "textfile" {
			return "text"
		}
		return s
	}
	a, b = norm(a), norm(b)
	if a == b {
		return true
	}
	hiveFile := func(s string) bool {
		switch s {
		case "parquet", "orc", "text", "avro", "sequencefile", "rcfile", "csv", "json":
			return true
		}
		return false
	}
	return a == "hive" && hiveFile(b) || b == "hive" && hiveFile(a)
}

// sameColumns compares schemas as sets of names with types: Spark moves partition columns of
// a data-source table to the end, so DESCRIBE's order may differ from the DDL's.
func sameColumns(a, b []plan.Column) bool {
	if len(a) != len(b) {
		return false
	}
	types := make(map[string]string, len(a))
	for _, c := range a {
		types[strings.ToLower(c.Name)] = normType(c.Type)
	}
	for _, c := range b {
		if t, ok := types[strings.ToLower(c.Name)]; !ok || t != normType(c.Type) {
			return false
		}
	}
	return true
}

// normType maps type synonyms to the names Spark prints.
func normType(t string) string {
	t = strings.ToLower(strings.ReplaceAll(t, " ", ""))
	switch t {
	case "integer":
		return "int"
	case "long":
		return "bigint"
	case "short":
		return "smallint"
	case "byte":
		return "tinyint"
	case "real":
		return "float"
	case "dec", "numeric":
		return "decimal"
	}
	return t
}

func sameNames(a, b []string) bool {
	return slices.EqualFunc(a, b, strings.EqualFold)
}

// sameBucket compares specs; a count that is a template (NumBuckets 0) matches any count.
func sameBucket(a, b *plan.BucketSpec) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return (a.NumBuckets == b.NumBuckets || a.NumBuckets == 0 || b.NumBuckets == 0) &&
		sameNames(a.Columns, b.Columns) && sameNames(a.SortColumns, b.SortColumns)
}

func columnsText(cs []plan.Column) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.Name + " " + c.Type
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func listText(ss []string) string {
	if len(ss) == 0 {
		return "(none)"
	}
	return "(" + strings.Join(ss, ", ") + ")"
}

// source is where a fact was stated: its first source.
func source(t *plan.Table) plan.Pos {
	if len(t.Sources) == 0 {
		return plan.Pos{}
	}
	return t.Sources[0]
}

func cloneTable(t *plan.Table) *plan.Table {
	c := *t
	c.Columns = slices.Clone(t.Columns)
	c.PartitionColumns = slices.Clone(t.PartitionColumns)
	c.Layout = plan.CloneLayout(t.Layout)
	c.Sources = slices.Clone(t.Sources)
	return &c
}

package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// WriteTablesText writes `tables`: one block per table (format, bucketing, partitioning,
// columns, location, statistics and where each fact came from) in the order given, then a
// summary line counting tables, files read and conflicts in p.
func WriteTablesText(w io.Writer, p *plan.Project, tables []*plan.Table) error {
	var b strings.Builder
	bucketed := 0
	for _, t := range tables {
		if t.Buckets() != nil {
			bucketed++
		}
		format := t.Format
		switch {
		case format == "":
			format = "format unknown"
		case t.Hive && format != "hive":
			format += " (Hive serde)"
		}
		fmt.Fprintf(&b, "%s  %s\n", t.Name, format)
		row := func(k, v string) { fmt.Fprintf(&b, "  %-12s %s\n", k, v) }
		row("bucketing", t.Buckets().String())
		if len(t.PartitionColumns) > 0 {
			row("partitioned", "by ("+strings.Join(t.PartitionColumns, ", ")+")")
		}
		if cl := t.ClusterBy(); len(cl) > 0 {
			row("clustered", "by ("+strings.Join(cl, ", ")+") (clustering, not bucketing)")
		}
		if l, ok := t.Layout.(*plan.Transforms); ok {
			row("transforms", l.String()+" (the catalog's partitioning, not Spark bucketing)")
		}
		if len(t.Columns) > 0 {
			row("columns", columnList(t.Columns))
		}
		if t.Location != "" {
			row("location", t.Location)
		}
		if st := tableStats(t); st != "" {
			row("size", st)
		}
		row("sources", sourceList(t.Sources))
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "%s (%d bucketed) from %s", plural(len(tables), "table"), bucketed, plural(len(p.Files), "file"))
	if n := len(p.Conflicts); n > 0 {
		fmt.Fprintf(&b, "; %s", plural(n, "conflict"))
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func columnList(cs []plan.Column) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = strings.TrimSpace(c.Name + " " + c.Type)
	}
	return strings.Join(parts, ", ")
}

// sourceList prints where a table's facts came from, file:line each.
func sourceList(ps []plan.Pos) string {
	parts := make([]string, len(ps))
	for i, p := range ps {
		parts[i] = plan.Pos{File: p.File, Line: p.Line}.String()
	}
	return strings.Join(parts, ", ")
}

// tableStats prints the known statistics: "50.0 MiB, 100000 rows".
func tableStats(t *plan.Table) string {
	var parts []string
	if t.SizeInBytes >= 0 {
		parts = append(parts, plan.SizeText(t.SizeInBytes))
	}
	if t.RowCount >= 0 {
		parts = append(parts, fmt.Sprintf("%d rows", t.RowCount))
	}
	if t.FileCount > 0 {
		parts = append(parts, fmt.Sprintf("%d files", t.FileCount))
	}
	return strings.Join(parts, ", ")
}

// tablesJSON is `tables --format json` (DESIGN.md §4). Unknown values (format, location,
// statistics) are null.
type tablesJSON struct {
	Tables []tableJSON `json:"tables"`
}

type tableJSON struct {
	Name             string       `json:"name"`
	Format           *string      `json:"format"`
	Columns          []columnJSON `json:"columns"`
	PartitionColumns []string     `json:"partitionColumns"`
	Bucket           *bucketJSON  `json:"bucket"`
	// Layout is the layout's kind: "spark-buckets", "hive-buckets", "transforms",
	// "clustering", or null; Transforms and ClusterBy hold the last two.
	Layout      *string      `json:"layout"`
	Transforms  []string     `json:"partitionTransforms,omitempty"`
	ClusterBy   []string     `json:"clusterBy,omitempty"`
	Location    *string      `json:"location"`
	SizeInBytes *int64       `json:"sizeInBytes"`
	RowCount    *int64       `json:"rowCount"`
	Hive        bool         `json:"hive"`
	Sources     []sourceJSON `json:"sources"`
}

type columnJSON struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

type bucketJSON struct {
	NumBuckets  int      `json:"numBuckets"`
	Columns     []string `json:"columns"`
	SortColumns []string `json:"sortColumns"`
}

type sourceJSON struct {
	File string `json:"file"`
	Line int    `json:"line"`
}

// WriteTablesJSON writes the tables, in the order given, as `tables --format json`
// (DESIGN.md §4): unknown values are null, empty lists [].
func WriteTablesJSON(w io.Writer, tables []*plan.Table) error {
	out := tablesJSON{Tables: make([]tableJSON, 0, len(tables))}
	for _, t := range tables {
		tj := tableJSON{
			Name: t.Name, Format: nonEmpty(t.Format), Location: nonEmpty(t.Location), Hive: t.Hive,
			Columns: make([]columnJSON, 0, len(t.Columns)), PartitionColumns: orEmpty(t.PartitionColumns),
			Sources: make([]sourceJSON, 0, len(t.Sources)),
		}
		for _, c := range t.Columns {
			tj.Columns = append(tj.Columns, columnJSON{Name: c.Name, Type: c.Type})
		}
		if b := t.Buckets(); b != nil {
			tj.Bucket = &bucketJSON{NumBuckets: b.NumBuckets, Columns: orEmpty(b.Columns), SortColumns: orEmpty(b.SortColumns)}
		}
		tj.Layout, tj.Transforms, tj.ClusterBy = layoutKindJSON(t.Layout)
		if t.SizeInBytes >= 0 {
			tj.SizeInBytes = &t.SizeInBytes
		}
		if t.RowCount >= 0 {
			tj.RowCount = &t.RowCount
		}
		for _, p := range t.Sources {
			tj.Sources = append(tj.Sources, sourceJSON{File: p.File, Line: p.Line})
		}
		out.Tables = append(out.Tables, tj)
	}
	data, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding tables: %w", err)
	}
	_, err = w.Write(append(data, '\n'))
	return err
}

// nonEmpty is &s, or nil for "", so that JSON says null for an unknown value.
func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// layoutKindJSON is a layout's kind and, for transforms and clustering, its items.
func layoutKindJSON(l plan.Layout) (kind *string, transforms, clusterBy []string) {
	var k string
	switch l := l.(type) {
	case *plan.SparkBuckets:
		k = "spark-buckets"
	case *plan.HiveBuckets:
		k = "hive-buckets"
	case *plan.Transforms:
		k = "transforms"
		for _, t := range l.Items {
			transforms = append(transforms, t.Text)
		}
	case *plan.Clustering:
		k, clusterBy = "clustering", l.Columns
	default:
		return nil, nil, nil
	}
	return &k, transforms, clusterBy
}

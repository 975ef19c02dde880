package catalog

import (
	"fmt"
	"io"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/bucketlint/bucketlint/internal/yamlpos"
	"github.com/bucketlint/bucketlint/plan"
)

// Write writes tables as a catalog that Read accepts, in the order given, each preceded by a
// comment listing its sources. Unknown statistics (negative sizes and counts) are left out.
func Write(w io.Writer, tables []*plan.Table) error {
	doc := document{Bucketlint: &marker{Version: Version}, Tables: make([]tableDoc, 0, len(tables))}
	for _, t := range tables {
		doc.Tables = append(doc.Tables, fromTable(t))
	}
	var root yaml.Node
	if err := root.Encode(doc); err != nil {
		return fmt.Errorf("encoding catalog: %w", err)
	}
	if items := yamlpos.Value(&root, "tables"); items != nil {
		if len(items.Content) == 0 {
			items.Style = yaml.FlowStyle
		}
		for i, item := range items.Content {
			if i < len(tables) {
				item.HeadComment = sourcesComment(tables[i].Sources)
			}
			if cols := yamlpos.Value(item, "columns"); cols != nil {
				for _, c := range cols.Content {
					c.Style = yaml.FlowStyle
				}
			}
		}
	}
	enc := yaml.NewEncoder(w)
	enc.SetIndent(2)
	if err := enc.Encode(&root); err != nil {
		return fmt.Errorf("writing catalog: %w", err)
	}
	if err := enc.Close(); err != nil {
		return fmt.Errorf("writing catalog: %w", err)
	}
	return nil
}

func fromTable(t *plan.Table) tableDoc {
	td := tableDoc{Name: t.Name, Format: t.Format, Location: t.Location, PartitionColumns: t.PartitionColumns, Hive: t.Hive && t.Format != "hive"}
	if t.Hive && t.Format == "hive" && t.HiveFormat != "" && !strings.Contains(t.HiveFormat, ".") {
		// A Hive table of known storage: format parquet with hive set, as Read takes it back.
		td.Format, td.Hive = t.HiveFormat, true
	}
	for _, c := range t.Columns {
		td.Columns = append(td.Columns, columnDoc{Name: c.Name, Type: c.Type})
	}
	if b := t.Buckets(); b != nil {
		td.Bucket = &bucketDoc{NumBuckets: b.NumBuckets, Columns: b.Columns, SortColumns: b.SortColumns}
	}
	if t.SizeInBytes >= 0 {
		td.SizeInBytes = &t.SizeInBytes
	}
	if t.RowCount >= 0 {
		td.RowCount = &t.RowCount
	}
	if t.FileCount > 0 {
		td.FileCount = &t.FileCount
	}
	return td
}

// sourcesComment lists where a table's facts came from.
func sourcesComment(sources []plan.Pos) string {
	if len(sources) == 0 {
		return ""
	}
	parts := make([]string, len(sources))
	for i, s := range sources {
		parts[i] = plan.Pos{File: s.File, Line: s.Line}.String()
	}
	return "from " + strings.Join(parts, ", ")
}

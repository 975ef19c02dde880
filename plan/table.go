package plan

import (
	"fmt"
	"strings"
)

// A Table is a table as a project declares or a catalog describes it.
type Table struct {
	// Name is the table name in lower case, as qualified as the source gave it ("db.t").
	Name string
	// Format is the data source ("parquet", "orc", "delta", "hive", …), lower case.
	Format  string
	Columns []Column
	// PartitionColumns are the partition column names, in declared order.
	PartitionColumns []string
	// Layout is the table's bucketing, transform partitioning or clustering; nil when none.
	Layout   Layout
	Location string
	// SizeInBytes and RowCount are statistics when known; -1 when unknown.
	SizeInBytes int64
	RowCount    int64
	// FileCount is the number of data files when a catalog records it; 0 when unknown.
	FileCount int64
	// Hive reports a Hive-serde table (STORED AS …), which Spark never reads as bucketed.
	Hive bool
	// HiveFormat is the storage of a Hive-serde table, lower case: "parquet" or "orc" when its
	// serde is Parquet's or ORC's (Spark then reads it with its own file source while
	// spark.sql.hive.convertMetastoreParquet or …Orc holds), else the STORED AS format
	// ("textfile", "avro", "sequencefile", …) or the serde class. "" when unknown. Format
	// stays "hive" when the declaration names Hive.
	HiveFormat string
	// Like is the source table of CREATE TABLE … LIKE, whose schema, partitioning and bucket
	// spec the table copies.
	Like string
	// Sources are where the table was declared or described.
	Sources []Pos
	// DBTModel is set for a dbt model's table: its layout is the model's config
	// ({{ config(clustered_by=…, buckets=…) }}, dbt_project.yml, schema.yml).
	DBTModel bool
}

// HiveStorage returns the storage format of a Hive-serde table: HiveFormat when known, else
// a file format the table's Format names (a catalog's "parquet" with Hive set), else "".
func (t *Table) HiveStorage() string {
	switch {
	case !t.Hive:
		return ""
	case t.HiveFormat != "":
		return t.HiveFormat
	case t.Format != "hive":
		return strings.ToLower(t.Format)
	}
	return ""
}

// Column returns the column named name (case-insensitive, as Spark resolves names).
func (t *Table) Column(name string) (Column, bool) {
	for _, c := range t.Columns {
		if equalFold(c.Name, name) {
			return c, true
		}
	}
	return Column{}, false
}

// A Column is one table column.
type Column struct {
	Name string
	// Type is the Spark SQL type in lower case: "int", "bigint", "decimal(10,2)", "string".
	Type    string
	Comment string
	Pos     Pos
}

// A BucketSpec is a table's bucketing: CLUSTERED BY (Columns) [SORTED BY (SortColumns)] INTO
// NumBuckets BUCKETS, or bucketBy(NumBuckets, Columns…).sortBy(SortColumns…).
type BucketSpec struct {
	NumBuckets int
	// NumTemplate is the template text ("{{ n }}") when the count is a dbt/Jinja template;
	// NumBuckets is then 0 and unknown, not invalid.
	NumTemplate string
	Columns     []string
	// ColumnsExpr is the bucket columns as written when they are not all constants (a
	// parameter, fields.head, a list built at run time): Columns is then nil, and the
	// columns are not known statically. Empty when Columns is the spec.
	ColumnsExpr string
	SortColumns []string
	// Span is the clause or call that declared the spec. CountSpan is the count as written
	// when it is an integer literal (the n of INTO n BUCKETS, bucketBy's first argument),
	// ColumnsSpan the bucket columns as written (between the parentheses of CLUSTERED BY, or
	// bucketBy's arguments after the count); both zero when not known.
	Span        Span
	CountSpan   Span
	ColumnsSpan Span
}

func equalFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// String describes the spec as "8 buckets by (customer_id) sorted by (customer_id)", and a
// nil spec as "not bucketed".
func (b *BucketSpec) String() string {
	if b == nil {
		return "not bucketed"
	}
	n := fmt.Sprint(b.NumBuckets)
	if b.NumBuckets == 0 && b.NumTemplate != "" {
		n = b.NumTemplate
	}
	s := n + " buckets by (" + strings.Join(b.Columns, ", ") + ")"
	if b.NumBuckets == 1 && b.NumTemplate == "" {
		s = "1 bucket by (" + strings.Join(b.Columns, ", ") + ")"
	}
	if len(b.SortColumns) > 0 {
		s += " sorted by (" + strings.Join(b.SortColumns, ", ") + ")"
	}
	return s
}

// ColumnType returns the type of the named column, "" when t is nil or has no such column.
func (t *Table) ColumnType(name string) string {
	if t == nil {
		return ""
	}
	if c, ok := t.Column(name); ok {
		return c.Type
	}
	return ""
}

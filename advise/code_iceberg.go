package advise

import (
	"fmt"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// An Iceberg table (or another DataSource V2 catalog's) is not bucketed by bucketBy: its
// layout is its partition transforms, and Spark joins two tables partitioned by the same
// bucket(n, k) without a shuffle through a storage-partitioned join (Spark 3.3+, with
// spark.sql.sources.v2.bucketing.enabled and Iceberg's
// spark.sql.iceberg.planning.preserve-data-grouping). The advice for such a table is its
// spec as bucket transforms, one per bucket column, each into the spec's count.

// IcebergTransforms are the partition transforms that stand for spec on a v2 table:
// bucket(n, c) for each bucket column c, after the table's identity partition columns.
func IcebergTransforms(spec *plan.BucketSpec) []plan.Transform {
	out := make([]plan.Transform, 0, len(spec.Columns))
	for _, c := range spec.Columns {
		text := fmt.Sprintf("bucket(%d, %s)", spec.NumBuckets, c)
		x := &plan.X{Op: plan.OpCall, Name: "bucket", Raw: text, Args: []*plan.X{
			{Op: plan.OpLiteral, Value: fmt.Sprint(spec.NumBuckets), Raw: fmt.Sprint(spec.NumBuckets)},
			{Op: plan.OpColumn, Name: strings.ToLower(c), Raw: c},
		}}
		out = append(out, plan.Transform{Text: text, X: x})
	}
	return out
}

// partitionFields are the PARTITIONED BY fields of the rewritten v2 table: its identity
// partition columns, then the bucket transforms.
func (r rewrite) partitionFields() []string {
	fields := append([]string(nil), r.t.PartitionColumns...)
	for _, tr := range IcebergTransforms(r.spec) {
		fields = append(fields, tr.Text)
	}
	return fields
}

// icebergCode is LayoutCode for a v2 table: DataFrameWriterV2 with partitionedBy(bucket(…))
// in PySpark, Scala and Java, CREATE TABLE … PARTITIONED BY (bucket(n, k)) with an INSERT, a
// CTAS, and dbt's partition_by. Each says that a storage-partitioned join needs the two
// settings, and that ALTER TABLE … ADD PARTITION FIELD would change only new files.
func (r rewrite) icebergCode() Code {
	return Code{
		PySpark: r.icebergPySpark(),
		Scala:   r.icebergJVM("import org.apache.spark.sql.functions.{bucket, col}\n", "val df", "", "\n"),
		SQL:     r.icebergCreateInsert(),
		CTAS:    r.icebergCTAS(),
		Java:    r.icebergJVM("import static org.apache.spark.sql.functions.*;\n", "Dataset<Row> df", ";", ";\n"),
		DBT:     r.icebergDBT(),
	}
}

func (r rewrite) icebergNote(comment string) string {
	return fmt.Sprintf("%s a storage-partitioned join also needs: SET spark.sql.sources.v2.bucketing.enabled=true;\n"+
		"%s SET spark.sql.iceberg.planning.preserve-data-grouping=true; (ALTER TABLE %s ADD PARTITION FIELD would\n"+
		"%s partition only files written after it)\n", comment, comment, r.t.Name, comment)
}

func (r rewrite) icebergPySpark() string {
	var b strings.Builder
	b.WriteString("from pyspark.sql import functions as F\n")
	b.WriteString(r.icebergNote("#"))
	b.WriteString("# df holds the table's rows, e.g. df = spark.table(\"" + r.t.Name + "_old\")\n")
	b.WriteString("(df")
	for _, c := range r.castNames() {
		fmt.Fprintf(&b, "\n    .withColumn(%q, F.col(%q).cast(%q))", c, c, r.casts[c])
	}
	var parts []string
	for _, c := range r.t.PartitionColumns {
		parts = append(parts, fmt.Sprintf("F.col(%q)", c))
	}
	for _, c := range r.spec.Columns {
		parts = append(parts, fmt.Sprintf("F.bucket(%d, F.col(%q))", r.spec.NumBuckets, c))
	}
	fmt.Fprintf(&b, "\n    .writeTo(%q)\n    .using(%q)\n    .partitionedBy(%s)\n    .createOrReplace())\n", r.t.Name, r.format, strings.Join(parts, ", "))
	return b.String()
}

// icebergJVM is the Scala or Java write: its imports, the frame's declaration in the comment,
// that comment's statement end, and the write's.
func (r rewrite) icebergJVM(imports, decl, end, stmtEnd string) string {
	var b strings.Builder
	b.WriteString(imports)
	b.WriteString(r.icebergNote("//"))
	fmt.Fprintf(&b, "// df holds the table's rows, e.g. %s = spark.table(\"%s_old\")%s\n", decl, r.t.Name, end)
	b.WriteString("df")
	for _, c := range r.castNames() {
		fmt.Fprintf(&b, "\n  .withColumn(%q, col(%q).cast(%q))", c, c, r.casts[c])
	}
	var parts []string
	for _, c := range r.t.PartitionColumns {
		parts = append(parts, fmt.Sprintf("col(%q)", c))
	}
	for _, c := range r.spec.Columns {
		parts = append(parts, fmt.Sprintf("bucket(%d, col(%q))", r.spec.NumBuckets, c))
	}
	fmt.Fprintf(&b, "\n  .writeTo(%q)\n  .using(%q)\n  .partitionedBy(%s)\n  .createOrReplace()%s", r.t.Name, r.format, strings.Join(parts, ", "), stmtEnd)
	return b.String()
}

func (r rewrite) icebergColumns() string {
	var cols []string
	for _, c := range r.t.Columns {
		typ := c.Type
		if ct, ok := r.casts[strings.ToLower(c.Name)]; ok {
			typ = ct
		}
		col := fmt.Sprintf("%s %s", c.Name, strings.ToUpper(typ))
		if c.Comment != "" {
			col += " COMMENT " + sqlString(c.Comment)
		}
		cols = append(cols, col)
	}
	return strings.Join(cols, ", ")
}

func (r rewrite) icebergCreateInsert() string {
	if len(r.t.Columns) == 0 {
		return r.icebergCTAS()
	}
	var b strings.Builder
	b.WriteString(r.icebergNote("--"))
	fmt.Fprintf(&b, "-- first: ALTER TABLE %s RENAME TO %s_old;\n", r.t.Name, r.t.Name)
	fmt.Fprintf(&b, "CREATE TABLE %s (%s)\nUSING %s\nPARTITIONED BY (%s);\n", r.t.Name, r.icebergColumns(), r.format, strings.Join(r.partitionFields(), ", "))
	fmt.Fprintf(&b, "INSERT INTO %s SELECT * FROM %s_old;\n", r.t.Name, r.t.Name)
	return b.String()
}

func (r rewrite) icebergCTAS() string {
	var b strings.Builder
	b.WriteString(r.icebergNote("--"))
	fmt.Fprintf(&b, "-- first: ALTER TABLE %s RENAME TO %s_old;\n", r.t.Name, r.t.Name)
	fmt.Fprintf(&b, "CREATE TABLE %s\nUSING %s\nPARTITIONED BY (%s)\nAS SELECT ", r.t.Name, r.format, strings.Join(r.partitionFields(), ", "))
	sel := []string{"*"}
	if len(r.t.Columns) > 0 {
		sel = sel[:0]
		for _, c := range r.t.Columns {
			if typ, ok := r.casts[strings.ToLower(c.Name)]; ok {
				sel = append(sel, fmt.Sprintf("CAST(%s AS %s) AS %s", c.Name, strings.ToUpper(typ), c.Name))
				continue
			}
			sel = append(sel, c.Name)
		}
	}
	fmt.Fprintf(&b, "%s FROM %s_old;\n", strings.Join(sel, ", "), r.t.Name)
	return b.String()
}

func (r rewrite) icebergDBT() string {
	var fields []string
	for _, f := range r.partitionFields() {
		fields = append(fields, "'"+f+"'")
	}
	return fmt.Sprintf("{{ config(\n    materialized='table',\n    file_format='%s',\n    partition_by=[%s]\n) }}\n-- %s: a storage-partitioned join also needs spark.sql.sources.v2.bucketing.enabled=true\n-- and spark.sql.iceberg.planning.preserve-data-grouping=true\nselect * from {{ ref('%s_source') }}\n",
		r.format, strings.Join(fields, ", "), r.t.Name, r.t.Name)
}

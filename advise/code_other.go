package advise

import (
	"fmt"
	"strings"
)

// java is the rewrite as a Java Dataset write: the same calls as Scala's, with Java's
// parentheses on write() and a statement's semicolon.
func (r rewrite) java() string {
	t, spec, n := r.t, r.spec, r.spec.NumBuckets
	var b strings.Builder
	b.WriteString("import static org.apache.spark.sql.functions.col;\n")
	b.WriteString("// df holds the table's rows, e.g. Dataset<Row> df = spark.table(\"" + t.Name + "_old\");\n")
	b.WriteString("df")
	for _, c := range r.castNames() {
		fmt.Fprintf(&b, "\n  .withColumn(%q, col(%q).cast(%q))", c, c, r.casts[c])
	}
	fmt.Fprintf(&b, "\n  .repartition(%d, %s)\n  .write().format(%q)\n  .bucketBy(%d, %s)", n, colList(spec.Columns), r.format, n, quoted(spec.Columns))
	if len(spec.SortColumns) > 0 {
		fmt.Fprintf(&b, ".sortBy(%s)", quoted(spec.SortColumns))
	}
	if len(t.PartitionColumns) > 0 {
		fmt.Fprintf(&b, "\n  .partitionBy(%s)", quoted(t.PartitionColumns))
	}
	fmt.Fprintf(&b, "\n  .saveAsTable(%q);\n", t.Name)
	return b.String()
}

// dbt is the rewrite as the config of the dbt model that makes the table (dbt-spark's
// clustered_by and buckets; it has no sort columns), and the hint that makes the model's query
// write one file per bucket. Casts are said, as the model's query makes its columns.
func (r rewrite) dbt() string {
	t, spec, n := r.t, r.spec, r.spec.NumBuckets
	var b strings.Builder
	fmt.Fprintf(&b, "{{ config(materialized='table', file_format='%s'", r.format)
	if len(t.PartitionColumns) > 0 {
		fmt.Fprintf(&b, ", partition_by=%s", jinjaList(t.PartitionColumns))
	}
	fmt.Fprintf(&b, ", clustered_by=%s, buckets=%d) }}\n", jinjaList(spec.Columns), n)
	fmt.Fprintf(&b, "-- and in the query of model %s: SELECT /*+ REPARTITION(%d, %s) */ …", t.Name, n, strings.Join(spec.Columns, ", "))
	for _, c := range r.castNames() {
		fmt.Fprintf(&b, ", CAST(%s AS %s) AS %s", c, r.casts[c], c)
	}
	b.WriteString("\n")
	return b.String()
}

// jinjaList lists names as a Jinja list of single-quoted strings: ['a', 'b'].
func jinjaList(cols []string) string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = "'" + strings.ReplaceAll(c, "'", "\\'") + "'"
	}
	return "[" + strings.Join(out, ", ") + "]"
}

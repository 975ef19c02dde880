package advise

import (
	"fmt"
	"strconv"
	"strings"
)

// pyspark is the rewrite as a PySpark DataFrame write: casts, a repartition by the bucket
// columns into the bucket count, then bucketBy, sortBy and partitionBy.
func (r rewrite) pyspark() string {
	t, spec, n := r.t, r.spec, r.spec.NumBuckets
	var b strings.Builder
	b.WriteString("from pyspark.sql import functions as F\n")
	b.WriteString("# df holds the table's rows, e.g. df = spark.table(\"" + t.Name + "_old\")\n")
	b.WriteString("(df")
	for _, c := range r.castNames() {
		fmt.Fprintf(&b, "\n    .withColumn(%q, F.col(%q).cast(%q))", c, c, r.casts[c])
	}
	fmt.Fprintf(&b, "\n    .repartition(%d, %s)\n    .write.format(%q)\n    .bucketBy(%d, %s)", n, quoted(spec.Columns), r.format, n, quoted(spec.Columns))
	if len(spec.SortColumns) > 0 {
		fmt.Fprintf(&b, ".sortBy(%s)", quoted(spec.SortColumns))
	}
	if len(t.PartitionColumns) > 0 {
		fmt.Fprintf(&b, "\n    .partitionBy(%s)", quoted(t.PartitionColumns))
	}
	fmt.Fprintf(&b, "\n    .saveAsTable(%q))\n", t.Name)
	return b.String()
}

// scala is the same write in Scala.
func (r rewrite) scala() string {
	t, spec, n := r.t, r.spec, r.spec.NumBuckets
	var b strings.Builder
	b.WriteString("import org.apache.spark.sql.functions.col\n")
	b.WriteString("// df holds the table's rows, e.g. val df = spark.table(\"" + t.Name + "_old\")\n")
	b.WriteString("df")
	for _, c := range r.castNames() {
		fmt.Fprintf(&b, "\n  .withColumn(%q, col(%q).cast(%q))", c, c, r.casts[c])
	}
	fmt.Fprintf(&b, "\n  .repartition(%d, %s)\n  .write.format(%q)\n  .bucketBy(%d, %s)", n, colList(spec.Columns), r.format, n, quoted(spec.Columns))
	if len(spec.SortColumns) > 0 {
		fmt.Fprintf(&b, ".sortBy(%s)", quoted(spec.SortColumns))
	}
	if len(t.PartitionColumns) > 0 {
		fmt.Fprintf(&b, "\n  .partitionBy(%s)", quoted(t.PartitionColumns))
	}
	fmt.Fprintf(&b, "\n  .saveAsTable(%q)\n", t.Name)
	return b.String()
}

// quoted lists column names as double-quoted string literals: "a", "b".
func quoted(cols []string) string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = strconv.Quote(c)
	}
	return strings.Join(out, ", ")
}

// colList lists column names as Scala column references: col("a"), col("b").
func colList(cols []string) string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = fmt.Sprintf("col(%q)", c)
	}
	return strings.Join(out, ", ")
}

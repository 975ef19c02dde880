package simulate

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// layoutCode writes a layout as PySpark, Scala and SQL. The data is repartitioned by the
// bucket columns into the bucket count before the write, so that each bucket is written by
// one task as one file (without it every write task emits a file per bucket it sees).
func layoutCode(t *plan.Table, spec *plan.BucketSpec, casts map[string]string) Code {
	n := spec.NumBuckets
	q := func(cols []string) string {
		out := make([]string, len(cols))
		for i, c := range cols {
			out[i] = strconv.Quote(c)
		}
		return strings.Join(out, ", ")
	}
	format := t.Format
	if format == "" || format == "hive" || format == "delta" {
		format = "parquet"
	}
	castNames := make([]string, 0, len(casts))
	for c := range casts {
		castNames = append(castNames, c)
	}
	sort.Strings(castNames)
	var py, sc strings.Builder
	py.WriteString("# df holds the table's rows, e.g. df = spark.table(\"" + t.Name + "_old\")\n")
	py.WriteString("(df")
	sc.WriteString("// df holds the table's rows, e.g. val df = spark.table(\"" + t.Name + "_old\")\n")
	sc.WriteString("df")
	for _, c := range castNames {
		fmt.Fprintf(&py, "\n    .withColumn(%q, F.col(%q).cast(%q))", c, c, casts[c])
		fmt.Fprintf(&sc, "\n  .withColumn(%q, col(%q).cast(%q))", c, c, casts[c])
	}
	fmt.Fprintf(&py, "\n    .repartition(%d, %s)\n    .write.format(%q)\n    .bucketBy(%d, %s)", n, q(spec.Columns), format, n, q(spec.Columns))
	fmt.Fprintf(&sc, "\n  .repartition(%d, %s)\n  .write.format(%q)\n  .bucketBy(%d, %s)", n, colList(spec.Columns), format, n, q(spec.Columns))
	if len(spec.SortColumns) > 0 {
		fmt.Fprintf(&py, ".sortBy(%s)", q(spec.SortColumns))
		fmt.Fprintf(&sc, ".sortBy(%s)", q(spec.SortColumns))
	}
	if len(t.PartitionColumns) > 0 {
		fmt.Fprintf(&py, "\n    .partitionBy(%s)", q(t.PartitionColumns))
		fmt.Fprintf(&sc, "\n  .partitionBy(%s)", q(t.PartitionColumns))
	}
	fmt.Fprintf(&py, "\n    .saveAsTable(%q))\n", t.Name)
	fmt.Fprintf(&sc, "\n  .saveAsTable(%q)\n", t.Name)

	var ddl strings.Builder
	fmt.Fprintf(&ddl, "CREATE TABLE %s (", t.Name)
	for i, c := range t.Columns {
		if i > 0 {
			ddl.WriteString(", ")
		}
		typ := c.Type
		if ct, ok := casts[strings.ToLower(c.Name)]; ok {
			typ = ct
		}
		fmt.Fprintf(&ddl, "%s %s", c.Name, strings.ToUpper(typ))
	}
	fmt.Fprintf(&ddl, ")\nUSING %s", format)
	if len(t.PartitionColumns) > 0 {
		fmt.Fprintf(&ddl, "\nPARTITIONED BY (%s)", strings.Join(t.PartitionColumns, ", "))
	}
	fmt.Fprintf(&ddl, "\nCLUSTERED BY (%s)", strings.Join(spec.Columns, ", "))
	if len(spec.SortColumns) > 0 {
		fmt.Fprintf(&ddl, " SORTED BY (%s)", strings.Join(spec.SortColumns, ", "))
	}
	fmt.Fprintf(&ddl, " INTO %d BUCKETS;\nINSERT INTO %s SELECT /*+ REPARTITION(%d, %s) */ * FROM %s_old;\n", n, t.Name, n, strings.Join(spec.Columns, ", "), t.Name)
	return Code{PySpark: "from pyspark.sql import functions as F\n" + py.String(), Scala: "import org.apache.spark.sql.functions.col\n" + sc.String(), SQL: ddl.String()}
}

func colList(cols []string) string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = fmt.Sprintf("col(%q)", c)
	}
	return strings.Join(out, ", ")
}

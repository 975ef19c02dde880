package advise

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// RewriteFormat is the data source a bucketed rewrite of t is written with: t's own file
// format, Parquet or ORC for a Hive table stored so, and Parquet for a Delta table, a Hive
// table of other storage, or an unknown format.
func RewriteFormat(t *plan.Table) string {
	switch f := strings.ToLower(t.Format); {
	case t.Hive && (t.HiveStorage() == "parquet" || t.HiveStorage() == "orc"):
		return t.HiveStorage()
	case f == "" || f == "hive" || f == "delta":
		return "parquet"
	}
	return t.Format
}

// LayoutCode writes table t rewritten with the bucket spec as PySpark, Scala and SQL, the
// key columns in casts written with the wider type ("account_id" → "bigint"). The data is
// repartitioned by the bucket columns into the bucket count before the write, so that each
// bucket is written by one task as one file (without it every write task emits a file per
// bucket it sees). The advisor and the rules' fixes print the same code.
func LayoutCode(t *plan.Table, spec *plan.BucketSpec, casts map[string]string) Code {
	n := spec.NumBuckets
	q := func(cols []string) string {
		out := make([]string, len(cols))
		for i, c := range cols {
			out[i] = strconv.Quote(c)
		}
		return strings.Join(out, ", ")
	}
	format := RewriteFormat(t)
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

	return Code{
		PySpark: "from pyspark.sql import functions as F\n" + py.String(),
		Scala:   "import org.apache.spark.sql.functions.col\n" + sc.String(),
		SQL:     createInsert(t, spec, format),
		CTAS:    createAsSelect(t, spec, format, casts),
	}
}

// layoutClauses are the USING, PARTITIONED BY and CLUSTERED BY clauses of the new table.
func layoutClauses(t *plan.Table, spec *plan.BucketSpec, format string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "USING %s", format)
	if len(t.PartitionColumns) > 0 {
		fmt.Fprintf(&b, "\nPARTITIONED BY (%s)", strings.Join(t.PartitionColumns, ", "))
	}
	fmt.Fprintf(&b, "\nCLUSTERED BY (%s)", strings.Join(spec.Columns, ", "))
	if len(spec.SortColumns) > 0 {
		fmt.Fprintf(&b, " SORTED BY (%s)", strings.Join(spec.SortColumns, ", "))
	}
	fmt.Fprintf(&b, " INTO %d BUCKETS", spec.NumBuckets)
	return b.String()
}

// sqlString quotes s as a Spark SQL string literal.
func sqlString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// createInsert is the new table's DDL, its columns with the advised types and their
// comments, then an INSERT of the current rows (the table renamed to <table>_old first),
// repartitioned by the bucket columns so that each bucket is one file.
func createInsert(t *plan.Table, spec *plan.BucketSpec, format string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "-- first: ALTER TABLE %s RENAME TO %s_old;\n", t.Name, t.Name)
	fmt.Fprintf(&b, "CREATE TABLE %s (", t.Name)
	commented := false
	for _, c := range t.Columns {
		commented = commented || c.Comment != ""
	}
	for i, c := range t.Columns {
		switch {
		case commented && i == 0:
			b.WriteString("\n  ")
		case commented:
			b.WriteString(",\n  ")
		case i > 0:
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %s", c.Name, strings.ToUpper(c.Type))
		if c.Comment != "" {
			b.WriteString(" COMMENT " + sqlString(c.Comment))
		}
	}
	if commented {
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, ")\n%s;\n", layoutClauses(t, spec, format))
	fmt.Fprintf(&b, "INSERT INTO %s SELECT /*+ REPARTITION(%d, %s) */ * FROM %s_old;\n", t.Name, spec.NumBuckets, strings.Join(spec.Columns, ", "), t.Name)
	return b.String()
}

// createAsSelect is the same rewrite in one statement: CREATE TABLE … AS SELECT, the advised
// types as casts in the select list. A CTAS cannot declare columns, so their comments are set
// after it.
func createAsSelect(t *plan.Table, spec *plan.BucketSpec, format string, casts map[string]string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "-- first: ALTER TABLE %s RENAME TO %s_old;\n", t.Name, t.Name)
	fmt.Fprintf(&b, "CREATE TABLE %s\n%s\nAS SELECT /*+ REPARTITION(%d, %s) */ ", t.Name, layoutClauses(t, spec, format), spec.NumBuckets, strings.Join(spec.Columns, ", "))
	if len(t.Columns) == 0 {
		b.WriteString("*")
	}
	for i, c := range t.Columns {
		if i > 0 {
			b.WriteString(", ")
		}
		if typ, ok := casts[strings.ToLower(c.Name)]; ok {
			fmt.Fprintf(&b, "CAST(%s AS %s) AS %s", c.Name, strings.ToUpper(typ), c.Name)
			continue
		}
		b.WriteString(c.Name)
	}
	fmt.Fprintf(&b, " FROM %s_old;\n", t.Name)
	for _, c := range t.Columns {
		if c.Comment != "" {
			fmt.Fprintf(&b, "ALTER TABLE %s ALTER COLUMN %s COMMENT %s;\n", t.Name, c.Name, sqlString(c.Comment))
		}
	}
	return b.String()
}

func colList(cols []string) string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = fmt.Sprintf("col(%q)", c)
	}
	return strings.Join(out, ", ")
}

package code

import (
	"fmt"
	"strings"
	"testing"
)

// largePython generates a PySpark job of about n bytes: reads, joins, aggregations,
// bucketed writes, SQL strings, comments and unrelated code, repeated with fresh names.
func largePython(n int) []byte {
	var b strings.Builder
	b.WriteString("from pyspark.sql import SparkSession, functions as F\n")
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, `# step %[1]d: df.write.bucketBy(8, "k").save("/p")
orders_%[1]d = spark.table("sales.orders_%[1]d").filter(F.col("amount") > %[1]d)
customers_%[1]d = spark.read.format("parquet").load("/data/customers/%[1]d")
joined_%[1]d = orders_%[1]d.join(customers_%[1]d, orders_%[1]d.customer_id == customers_%[1]d["id"], "left")
agg_%[1]d = joined_%[1]d.groupBy("customer_id", F.col("day")).agg(F.sum("amount").alias("total"))
q_%[1]d = spark.sql(f"""
    SELECT customer_id, count(*) AS n
    FROM sales.orders_%[1]d
    WHERE day = '{day}'
    GROUP BY customer_id
""")
def helper_%[1]d(rows):
    return [r for r in rows if r["x"] > %[1]d and r.get("y", {}) != {"a": [1, 2, 3]}]
(agg_%[1]d.repartition(16, "customer_id")
    .write
    .mode("overwrite")
    .bucketBy(16, "customer_id")
    .sortBy("customer_id")
    .saveAsTable("sales.agg_%[1]d"))
`, i)
	}
	return []byte(b.String())
}

func BenchmarkParsePython(b *testing.B) {
	benchPython(b, 4<<20)
}

func BenchmarkParsePythonSmall(b *testing.B) {
	benchPython(b, 256<<10)
}

func benchPython(b *testing.B, n int) {
	b.Helper()
	src := largePython(n)
	loopCPU(b, fmt.Sprintf("python%d.py", n), src, func() {
		f, errs := Parse("job.py", src)
		if len(errs) > 0 || len(f.Writes) == 0 {
			b.Fatalf("parse: %v, %d writes", errs, len(f.Writes))
		}
	})
}

// BenchmarkLexChain lexes and parses a 15 MB line of "a+a+…" (issue 14): the expression is
// too deep to read, and what it costs is the tokens' memory (B/op).
func BenchmarkLexChain(b *testing.B) {
	src := []byte("x = a" + strings.Repeat("+a", 15<<20/2-4) + "\n")
	loopCPU(b, "chain15.py", src, func() {
		if _, errs := Parse("chain.py", src); len(errs) == 0 {
			b.Fatal("no error for a chain past the height limit")
		}
	})
}

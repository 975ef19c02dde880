package workload_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/workload"
)

// codeOnlyWrites are the tables of a PySpark-only project: written with saveAsTable, no DDL.
const codeOnlyWrites = `orders_in = spark.read.parquet("/in/orders")
orders_in.repartition(16, "customer_id").write.bucketBy(16, "customer_id").saveAsTable("orders")
spark.read.parquet("/in/customers").write.saveAsTable("customers")
`

// TestCodeQueries checks that DataFrame joins and groupBys are the workload's queries, written
// as the SQL that plans the same, with the shuffles of that SQL; that a join or groupBy another
// one reads is part of that one's query; and that what cannot be known is no query.
func TestCodeQueries(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string
		// want are the queries' texts in order; shuffles, when set, each query's Exchange
		// decisions.
		want     []string
		shuffles [][]string
	}{
		{
			name: "join on a name of tables code writes",
			files: map[string]string{"job.py": codeOnlyWrites + `o = spark.table("orders")
c = spark.table("customers")
o.join(c, "customer_id").count()
`},
			want:     []string{"SELECT * FROM orders o JOIN customers c USING (customer_id)"},
			shuffles: [][]string{{"SortMergeJoin right"}},
		},
		{
			name: "condition with frames, left join, then a groupBy of the join on one side's key",
			files: map[string]string{"job.py": codeOnlyWrites + `o = spark.table("orders")
c = spark.table("customers")
joined = o.join(c, o.customer_id == c["customer_id"], how="left")
joined.groupBy(o.customer_id).count().show()
`},
			want: []string{"SELECT o.customer_id FROM orders o LEFT JOIN customers c ON o.customer_id = c.customer_id GROUP BY o.customer_id"},
		},
		{
			name: "inline chain and a path read",
			files: map[string]string{"job.py": codeOnlyWrites + `p = spark.read.parquet("/wh/orders")
spark.table("orders").join(spark.table("customers"), ["customer_id"]).join(p, "customer_id").count()
`},
			want: []string{"SELECT * FROM (SELECT * FROM orders f1 JOIN customers f2 USING (customer_id)) f3 JOIN parquet.`/wh/orders` p USING (customer_id)"},
		},
		{
			name: "unqualified keys are left to name resolution",
			files: map[string]string{
				"ddl.sql": "CREATE TABLE orders (order_id BIGINT, customer_id BIGINT) USING parquet CLUSTERED BY (customer_id) INTO 16 BUCKETS;\n" +
					"CREATE TABLE customers (id BIGINT, name STRING) USING parquet;\n",
				"job.py": `from pyspark.sql.functions import col
o = spark.table("orders")
c = spark.table("customers")
o.join(c, col("id") == col("customer_id")).count()
`,
			},
			want:     []string{"SELECT * FROM orders o JOIN customers c ON id = customer_id"},
			shuffles: [][]string{{"SortMergeJoin right"}},
		},
		{
			name: "unqualified keys of tables whose columns are not known are no query",
			files: map[string]string{"job.py": codeOnlyWrites + `from pyspark.sql.functions import col
o = spark.table("orders")
c = spark.table("customers")
o.join(c, col("customer_id") == col("id")).count()
`},
		},
		{
			name: "Scala Seq, === and $",
			files: map[string]string{"Job.scala": `val o = spark.table("orders")
val c = spark.table("customers")
o.join(c, Seq("customer_id")).count()
o.join(c, o("customer_id") === c("customer_id"), "left_anti").count()
o.groupBy($"customer_id").count()
`},
			want: []string{
				"SELECT * FROM orders o JOIN customers c USING (customer_id)",
				"SELECT * FROM orders o LEFT ANTI JOIN customers c ON o.customer_id = c.customer_id",
				"SELECT o.customer_id FROM orders o GROUP BY o.customer_id",
			},
		},
		{
			name: "dropDuplicates on keys is an aggregation grouped by them",
			files: map[string]string{"job.py": codeOnlyWrites + `spark.table("orders").dropDuplicates(["customer_id"]).count()
`},
			want:     []string{"SELECT f1.customer_id FROM orders f1 GROUP BY f1.customer_id"},
			shuffles: [][]string{nil},
		},
		{
			name: "a frame passed in and a key that is an expression are no query",
			files: map[string]string{"job.py": `def f(df):
    return df.join(spark.table("customers"), "customer_id")
o = spark.table("orders")
o.join(spark.table("customers"), o.customer_id + 1 == col("k")).count()
`},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := build(t, tc.files, workload.Config{})
			var got []string
			for _, q := range w.Queries() {
				got = append(got, q.Query.Text)
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("queries:\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(tc.want, "\n\t"))
			}
			for i, want := range tc.shuffles {
				if s := shuffles(t, w, w.Queries()[i].Query); !slices.Equal(s, want) {
					t.Errorf("query %d shuffles %v, want %v", i+1, s, want)
				}
			}
		})
	}
}

package rules

import (
	"fmt"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

func bl105() *Rule {
	return &Rule{
		ID:    "BL105",
		Name:  "hive-bucketed-table",
		Title: "a Hive-format bucketed table, which Spark never reads as bucketed",
		Doc: "A Hive-serde table (`STORED AS ORC|PARQUET|TEXTFILE`, or `format(\"hive\")`) keeps its bucket\n" +
			"spec in the metastore, but Spark reads it with `HiveTableScanExec` (or converts it to a file\n" +
			"relation) without the spec: joins and aggregations on its bucket columns always shuffle.\n" +
			"Hive buckets rows with `hivehash`, not Spark's Murmur3, so the two layouts are not\n" +
			"interchangeable. Before Spark 3.3 Spark also refuses to insert into such a table (`Output Hive\n" +
			"table … is bucketed but Spark currently does NOT populate bucketed output which is compatible\n" +
			"with Hive`) unless `hive.enforce.bucketing` and `hive.enforce.sorting` are false;\n" +
			"`df.write.format(\"hive\").bucketBy(…)` raises `Creating bucketed Hive serde table is not\n" +
			"supported yet`.\n\n" +
			"Recreate the table as a data-source table (`USING parquet CLUSTERED BY … INTO n BUCKETS`) when\n" +
			"Spark is its main reader." + suppressDoc("BL105"),
		Bad:      "CREATE TABLE sales.orders (id BIGINT, amt DOUBLE) CLUSTERED BY (id) INTO 16 BUCKETS STORED AS ORC;",
		Good:     "CREATE TABLE sales.orders (id BIGINT, amt DOUBLE) USING orc CLUSTERED BY (id) INTO 16 BUCKETS;",
		Spark:    "2.0–4.x",
		Since:    "0.1.0",
		Severity: Warning,
		Default:  true,
		Run:      runBL105,
	}
}

func runBL105(p *Pass) error {
	for _, t := range sortedTables(p.Project.Tables) {
		if !t.Hive || t.Buckets() == nil {
			continue
		}
		msg := fmt.Sprintf("%s is a Hive-serde bucketed table: %s reads it without its bucket spec, so joins and aggregations on (%s) always shuffle, and its buckets use Hive's hash, not Spark's",
			t.Name, p.spark(), strings.Join(t.Buckets().Columns, ", "))
		if !p.Options.Behaviour().HiveBucketedWrite {
			msg += "; before 3.3 Spark also refuses to insert into it"
		}
		p.Report(Diagnostic{
			Span:    tableSpan(t),
			Message: msg,
			Fix: &Fix{Description: fmt.Sprintf("Recreate %s as a data-source table: CREATE TABLE %s (…) USING %s CLUSTERED BY (%s) INTO %d BUCKETS",
				t.Name, t.Name, hiveFormat(t), strings.Join(t.Buckets().Columns, ", "), t.Buckets().NumBuckets)},
		})
	}
	for _, cf := range p.Project.Code {
		for _, w := range cf.Writes {
			if w.Bucket != nil && strings.EqualFold(w.Format, "hive") {
				p.Report(Diagnostic{
					Span:    spanOrPos(w.Bucket.Span, w.Span.Start),
					Message: fmt.Sprintf("bucketBy with format(\"hive\"): %s raises \"Creating bucketed Hive serde table is not supported yet.\"", p.spark()),
					Fix:     &Fix{Description: "Write with a data-source format instead: .format(\"parquet\")"},
				})
			}
		}
	}
	return nil
}

// hiveFormat is the data-source format to recreate Hive table t with: its storage when a
// data source reads it, else Parquet.
func hiveFormat(t *plan.Table) string {
	f := t.HiveStorage()
	if f == "" {
		f = t.Format
	}
	switch f = strings.ToLower(f); f {
	case "orc", "parquet", "avro", "csv", "json", "text":
		return f
	}
	return "parquet"
}

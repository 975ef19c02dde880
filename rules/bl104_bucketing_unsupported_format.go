package rules

import (
	"fmt"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

func bl104() *Rule {
	return &Rule{
		ID:    "BL104",
		Name:  "bucketing-unsupported-format",
		Title: "bucketing on Delta, Iceberg or JDBC, which do not support Spark bucketing",
		Doc: "Spark bucketing is a feature of file-source (DataSource V1) tables: parquet, orc, csv, json,\n" +
			"avro, text. Other formats reject or reinterpret it:\n\n" +
			"- **Delta Lake** rejects it: ``Operation not allowed: `Bucketing` is not supported for Delta\n" +
			"  tables``. Use liquid clustering (`CLUSTER BY (cols)`, Delta 3.1+) or Z-ordering instead.\n" +
			"- **Iceberg** turns `CLUSTERED BY (id) INTO 16 BUCKETS` into its own `bucket(16, id)` partition\n" +
			"  transform, hashed with Iceberg's hash: Spark never plans a bucketed join over it. Write the\n" +
			"  transform explicitly (`PARTITIONED BY (bucket(16, id))`) and use storage-partitioned joins\n" +
			"  (`spark.sql.sources.v2.bucketing.enabled`, Spark 3.3+).\n" +
			"- **JDBC** has no files to bucket: `'jdbc' does not support bucketBy right now`.\n\n" +
			"A bucketed write to a path (`save`, `parquet(path)`…) is BL201." + suppressDoc("BL104"),
		Bad:      "CREATE TABLE sales.orders (id BIGINT, amt DOUBLE) USING delta CLUSTERED BY (id) INTO 16 BUCKETS;",
		Good:     "CREATE TABLE sales.orders (id BIGINT, amt DOUBLE) USING delta CLUSTER BY (id);",
		Spark:    "3.0–4.x",
		Since:    "0.1.0",
		Severity: Error,
		Default:  true,
		Run:      runBL104,
	}
}

func runBL104(p *Pass) error {
	for _, t := range sortedTables(p.Project.Tables) {
		if b := t.DeclaredBuckets(); b != nil && !writtenOnly(p.Project, t) {
			checkBucketFormat(p, t.Name, t.Format, b, tableSpan(t), true)
		}
	}
	for _, cf := range p.Project.Code {
		for _, w := range cf.Writes {
			if w.Bucket != nil && w.Terminal == "saveAsTable" {
				name := w.Table
				if name == "" {
					name = "the written table"
				}
				checkBucketFormat(p, name, w.Format, w.Bucket, spanOrPos(w.Bucket.Span, w.Span.Start), false)
			}
		}
	}
	return nil
}

func checkBucketFormat(p *Pass, table, format string, b *plan.BucketSpec, at plan.Span, ddl bool) {
	var msg, fix string
	switch strings.ToLower(format) {
	case "delta":
		msg = fmt.Sprintf("Delta tables do not support bucketing: %s with Delta raises \"Operation not allowed: `Bucketing` is not supported for Delta tables: %s\"", p.spark(), table)
		fix = fmt.Sprintf("Drop the bucketing and cluster %s with CLUSTER BY (%s) (liquid clustering)", table, strings.Join(b.Columns, ", "))
	case "iceberg":
		msg = fmt.Sprintf("%s is an Iceberg table: the bucket spec becomes Iceberg's bucket(%d, …) partition transform with Iceberg's hash, and %s never plans a bucketed join over it", table, b.NumBuckets, p.spark())
		fix = fmt.Sprintf("Write PARTITIONED BY (bucket(%d, %s)) and use storage-partitioned joins (spark.sql.sources.v2.bucketing.enabled)", b.NumBuckets, strings.Join(b.Columns, ", "))
		if !ddl {
			fix = fmt.Sprintf("Use df.writeTo(%q).partitionedBy(bucket(%d, %s)) and storage-partitioned joins", table, b.NumBuckets, quoted(firstOr(b.Columns)))
		}
	case "jdbc":
		msg = fmt.Sprintf("JDBC tables cannot be bucketed: %s raises \"'jdbc' does not support bucketBy right now.\"", p.spark())
		fix = "Remove the bucketing from the JDBC write"
	default:
		return
	}
	p.Report(Diagnostic{Span: at, Message: msg, Fix: &Fix{Description: fix}})
}

func firstOr(cols []string) string {
	if len(cols) == 0 {
		return ""
	}
	return cols[0]
}

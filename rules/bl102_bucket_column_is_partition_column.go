package rules

import (
	"fmt"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

func bl102() *Rule {
	return &Rule{
		ID:    "BL102",
		Name:  "bucket-column-is-partition-column",
		Title: "a bucket or sort column that is also a partition column",
		Doc: "A partition column is not stored in the data files (its value is the directory name), so it\n" +
			"cannot also decide which bucket file a row goes to, nor the order inside one. Spark rejects\n" +
			"both when the table is created or written: `Bucketing column 'dt' should not be part of\n" +
			"partition columns 'dt'` and `Bucket sorting column 'dt' should not be part of partition\n" +
			"columns 'dt'` (`_LEGACY_ERROR_TEMP_1166`/`1167` in 3.4+, lower case before).\n\n" +
			"Keep the column in one role: partition by a low-cardinality column (a date) and bucket by\n" +
			"the join key." + suppressDoc("BL102"),
		Bad: "CREATE TABLE sales.orders (id BIGINT, dt STRING) USING parquet\n" +
			"PARTITIONED BY (dt) CLUSTERED BY (dt) INTO 16 BUCKETS;",
		Good: "CREATE TABLE sales.orders (id BIGINT, dt STRING) USING parquet\n" +
			"PARTITIONED BY (dt) CLUSTERED BY (id) INTO 16 BUCKETS;",
		Spark:    "2.0–4.x",
		Since:    "0.1.0",
		Severity: Error,
		Default:  true,
		Run:      runBL102,
	}
}

func runBL102(p *Pass) error {
	for _, t := range sortedTables(p.Project.Tables) {
		if t.Buckets() != nil && !writtenOnly(p.Project, t) {
			checkPartitionOverlap(p, t.Name, t.Buckets(), t.PartitionColumns, tableSpan(t))
		}
	}
	for _, cf := range p.Project.Code {
		for _, w := range cf.Writes {
			if w.Bucket != nil {
				name := w.Table
				if name == "" {
					name = "the written table"
				}
				checkPartitionOverlap(p, name, w.Bucket, w.PartitionBy, spanOrPos(w.Bucket.Span, w.Span.Start))
			}
		}
	}
	return nil
}

func checkPartitionOverlap(p *Pass, table string, b *plan.BucketSpec, parts []string, at plan.Span) {
	partList := strings.Join(parts, ", ")
	upper := p.Options.Behaviour().ErrorClasses
	report := func(col, role, spark string) {
		if upper {
			spark = strings.ToUpper(spark[:1]) + spark[1:] + "."
		}
		p.Report(Diagnostic{
			Span:    at,
			Message: fmt.Sprintf("%s column %s of %s is also a partition column: %s raises %q", role, col, table, p.spark(), spark),
			Fix:     &Fix{Description: fmt.Sprintf("Remove %s from the %s columns, or partition %s by another column", col, role, table)},
		})
	}
	for _, c := range b.Columns {
		if contains(parts, c) {
			report(c, "bucket", fmt.Sprintf("bucketing column '%s' should not be part of partition columns '%s'", c, partList))
			return
		}
	}
	for _, c := range b.SortColumns {
		if contains(parts, c) {
			report(c, "sort", fmt.Sprintf("bucket sorting column '%s' should not be part of partition columns '%s'", c, partList))
			return
		}
	}
}

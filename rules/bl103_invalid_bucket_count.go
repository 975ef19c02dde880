package rules

import (
	"fmt"

	"github.com/bucketlint/bucketlint/plan"
)

func bl103() *Rule {
	return &Rule{
		ID:    "BL103",
		Name:  "invalid-bucket-count",
		Title: "a bucket count of zero or less, or above spark.sql.sources.bucketing.maxBuckets",
		Doc: "Spark checks the bucket count when it builds the `BucketSpec`, in DDL (`INTO n BUCKETS`) and in\n" +
			"`bucketBy(n, …)`: it must be greater than 0 and at most `spark.sql.sources.bucketing.maxBuckets`\n" +
			"(default 100000). Otherwise it raises ``Number of buckets should be greater than 0 but less\n" +
			"than or equal to bucketing.maxBuckets (`100000`). Got `0`.`` (`_LEGACY_ERROR_TEMP_1083` in\n" +
			"3.4/3.5).\n\n" +
			"Pick a count from the table's size (see BL106): a few hundred MB per bucket file, and the\n" +
			"same count as the tables it is joined with. Counts that are not constants in code\n" +
			"(`bucketBy(n_buckets, …)` with an unknown `n_buckets`) and DDL templates (`{{ n }}`) are not\n" +
			"checked." + suppressDoc("BL103"),
		Bad:      `df.write.bucketBy(0, "id").saveAsTable("sales.orders")`,
		Good:     `df.write.bucketBy(64, "id").saveAsTable("sales.orders")`,
		Spark:    "2.4–4.x",
		Since:    "0.1.0",
		Severity: Error,
		Default:  true,
		Run:      runBL103,
	}
}

func runBL103(p *Pass) error {
	for _, t := range sortedTables(p.Project.Tables) {
		if t.Buckets() != nil && t.Buckets().NumTemplate == "" && !writtenOnly(p.Project, t) {
			checkBucketCount(p, t.Name, t.Buckets(), tableSpan(t))
		}
	}
	for _, cf := range p.Project.Code {
		for _, w := range cf.Writes {
			if w.Bucket != nil && w.BucketCountExpr == "" && w.Bucket.NumTemplate == "" {
				name := w.Table
				if name == "" {
					name = "the write"
				}
				checkBucketCount(p, name, w.Bucket, spanOrPos(w.Bucket.Span, w.Span.Start))
			}
		}
	}
	return nil
}

func checkBucketCount(p *Pass, table string, b *plan.BucketSpec, at plan.Span) {
	n, maxN := b.NumBuckets, p.maxBuckets(at.Start)
	if n > 0 && n <= maxN {
		return
	}
	if s, ok := p.bucketCountSpan(b); ok {
		at = s
	}
	spark := fmt.Sprintf("Number of buckets should be greater than 0 but less than or equal to bucketing.maxBuckets (`%d`). Got `%d`", maxN, n)
	if p.Options.Behaviour().ErrorClasses {
		spark += "."
	}
	p.Report(Diagnostic{
		Span:    at,
		Message: fmt.Sprintf("invalid bucket count %d for %s: %s raises %q", n, table, p.spark(), spark),
		Fix:     &Fix{Description: fmt.Sprintf("Use a bucket count between 1 and %d, sized to the table (BL106)", maxN)},
	})
}

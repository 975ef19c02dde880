package rules

import (
	"fmt"

	"github.com/bucketlint/bucketlint/simulate"
)

func bl403() *Rule {
	return &Rule{
		ID:    "BL403",
		Name:  "coalesce-opportunity",
		Title: "bucket counts that coalescing could reconcile, with coalescing off or skipped",
		Doc: "`CoalesceBucketsInJoin` (3.1+) reads the side with more buckets coalesced into the other's\n" +
			"count — bucket i of the small side meets buckets i, i+n, i+2n… of the big one — so a join of\n" +
			"16 and 4 buckets needs no shuffle. It applies to sort-merge and shuffled hash joins when the\n" +
			"larger count is a multiple of the smaller and their ratio is at most\n" +
			"`spark.sql.bucketing.coalesceBucketsInJoin.maxBucketRatio` (default 4). It is off by default\n" +
			"(`spark.sql.bucketing.coalesceBucketsInJoin.enabled=false`), and before Spark 3.5 it does not\n" +
			"run at all under adaptive query execution (on by default since 3.2; SPARK-43087).\n\n" +
			"Enable coalescing (with AQE off for the job before 3.5), or rebucket to equal counts (BL301)." + suppressDoc("BL403"),
		Bad: "CREATE TABLE a (k INT) USING parquet CLUSTERED BY (k) INTO 16 BUCKETS;\n" +
			"CREATE TABLE b (k INT) USING parquet CLUSTERED BY (k) INTO 4 BUCKETS;\n" +
			"SELECT * FROM a JOIN b ON a.k = b.k;",
		Good: "SET spark.sql.bucketing.coalesceBucketsInJoin.enabled=true;\n" +
			"SELECT * FROM a JOIN b ON a.k = b.k;",
		Spark:    "3.1–4.x",
		Since:    "0.1.0",
		Severity: Info,
		Default:  true,
		Run:      runBL403,
	}
}

func runBL403(p *Pass) error {
	for _, s := range p.joinSites() {
		if !s.Causes.HasAny(simulate.CauseCoalesceOff, simulate.CauseCoalesceSkipped) {
			continue
		}
		o := s.Options
		skipped := s.Causes.Has(simulate.CauseCoalesceSkipped)
		ln, rn := s.Left.Table.Buckets().NumBuckets, s.Right.Table.Buckets().NumBuckets
		hi, lo := max(ln, rn), min(ln, rn)
		msg := fmt.Sprintf("%s (%d buckets) and %s (%d buckets) differ by a factor of %d, within maxBucketRatio %d: ",
			s.Left.Label, ln, s.Right.Label, rn, hi/lo, o.CoalesceMaxRatio())
		fix := "SET spark.sql.bucketing.coalesceBucketsInJoin.enabled=true"
		if skipped {
			msg += fmt.Sprintf("coalescing is enabled, but %s skips it under adaptive execution (fixed in 3.5, SPARK-43087)", p.spark())
			fix = "Upgrade to Spark 3.5, or SET spark.sql.adaptive.enabled=false for this job"
		} else {
			msg += fmt.Sprintf("with spark.sql.bucketing.coalesceBucketsInJoin.enabled=true %s reads the %d buckets coalesced into %d and the join needs no shuffle", p.spark(), hi, lo)
		}
		p.Report(Diagnostic{
			Span:    s.Span,
			Message: msg,
			Related: append(bucketRelated(s.Left.Table), bucketRelated(s.Right.Table)...),
			Fix:     &Fix{Description: fix},
		})
	}
	return nil
}

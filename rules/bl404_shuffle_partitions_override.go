package rules

import (
	"fmt"

	"github.com/bucketlint/bucketlint/simulate"
	"github.com/bucketlint/bucketlint/workload"
)

func bl404() *Rule {
	return &Rule{
		ID:    "BL404",
		Name:  "shuffle-partitions-override",
		Title: "versions before 3.3 re-shuffling a bucketed side when shuffle.partitions exceeds its bucket count",
		Doc: "Before Spark 3.3, `EnsureRequirements` gives every side of a join that needs a shuffle the same\n" +
			"partition count: the largest count among the sides that are not shuffled, but at least\n" +
			"`spark.sql.shuffle.partitions` (always in 3.0.0–3.0.1, SPARK-32767; in 3.0.2–3.2.x whenever a\n" +
			"side is shuffled). So when the other side must be shuffled (it is not bucketed, or differently)\n" +
			"and the bucket count is below `spark.sql.shuffle.partitions` (default 200), the bucketed side\n" +
			"is shuffled too: its bucketing buys nothing. Spark 3.3's ShuffleSpec model (SPARK-35703)\n" +
			"shuffles only the other side, into the bucket count.\n\n" +
			"Upgrade to 3.3+, or set `spark.sql.shuffle.partitions` to the bucket count for the job, or\n" +
			"bucket both sides alike. A join reports once, naming both sides when both are re-shuffled." + suppressDoc("BL404"),
		Bad: "-- Spark 3.2, spark.sql.shuffle.partitions=200\n" +
			"CREATE TABLE a (k INT) USING parquet CLUSTERED BY (k) INTO 16 BUCKETS;\n" +
			"CREATE TABLE b (k INT) USING parquet;\n" +
			"SELECT * FROM a JOIN b ON a.k = b.k;",
		Good:     "SET spark.sql.shuffle.partitions=16;\nSELECT * FROM a JOIN b ON a.k = b.k;",
		Spark:    "3.0–3.2",
		Since:    "0.1.0",
		Severity: Warning,
		Default:  true,
		Run:      runBL404,
	}
}

func runBL404(p *Pass) error {
	for _, s := range p.joinSites() {
		sp := s.Options.ShufflePartitions()
		// hit are the sides bucketed on the keys into fewer buckets than sp that the join
		// re-shuffles; one finding per join names them all.
		var hit []*workload.Side
		for i, b := range s.Sides() {
			if s.Sides()[i].Causes.Has(simulate.CauseShufflePartitions) {
				hit = append(hit, b)
			}
		}
		switch len(hit) {
		case 0:
			continue
		case 1:
			b := hit[0]
			other := &s.Left
			if b == other {
				other = &s.Right
			}
			n := b.Table.Buckets().NumBuckets
			p.Report(Diagnostic{
				Span: s.Span,
				Message: fmt.Sprintf("%s shuffles %s too: its %d buckets are fewer than spark.sql.shuffle.partitions=%d, and before 3.3 a join that shuffles %s re-shuffles every side into at least %d partitions",
					p.spark(), b.Table.Name, n, sp, other.Label, sp),
				Related: bucketRelated(b.Table),
				Fix:     &Fix{Description: fmt.Sprintf("SET spark.sql.shuffle.partitions=%d for this job, bucket %s like %s, or upgrade to Spark 3.3+", n, other.Label, b.Table.Name)},
			})
		default:
			l, r := s.Left.Table, s.Right.Table
			p.Report(Diagnostic{
				Span: s.Span,
				Message: fmt.Sprintf("%s shuffles both %s and %s into spark.sql.shuffle.partitions=%d partitions: both have fewer buckets (%d and %d), and before 3.3 a join that shuffles a side re-shuffles every side into at least %d partitions",
					p.spark(), s.Left.Label, s.Right.Label, sp, l.Buckets().NumBuckets, r.Buckets().NumBuckets, sp),
				Related: append(bucketRelated(l), bucketRelated(r)...),
				Fix:     &Fix{Description: "Remove the cause of the shuffle (the other BL3xx findings on this join), or upgrade to Spark 3.3+, which shuffles only the side that needs it"},
			})
		}
	}
	return nil
}

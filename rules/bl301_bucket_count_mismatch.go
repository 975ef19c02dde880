package rules

import (
	"fmt"
	"strings"

	"github.com/bucketlint/bucketlint/simulate"
)

func bl301() *Rule {
	return &Rule{
		ID:    "BL301",
		Name:  "bucket-count-mismatch",
		Title: "a join of tables bucketed on the join keys with different bucket counts",
		Doc: "Two tables bucketed on the join keys join without a shuffle only when their bucket counts are\n" +
			"equal: bucket i of one side must meet bucket i of the other. With 200 and 8 buckets Spark\n" +
			"re-shuffles one side (3.3+: the side with fewer buckets, into the other's count; before 3.3\n" +
			"the target also depends on `spark.sql.shuffle.partitions`), and disables the bucketed scan it\n" +
			"no longer needs.\n\n" +
			"Rebucket one table to the other's count. When the larger count is a multiple of the smaller\n" +
			"one within `spark.sql.bucketing.coalesceBucketsInJoin.maxBucketRatio` (default 4), enabling\n" +
			"bucket coalescing also removes the shuffle (BL403); the message says so only when the join,\n" +
			"simulated with coalescing enabled, has no shuffle (not with a key cast, nor before 3.5 under\n" +
			"adaptive execution, which skips coalescing). The rule reads DDL and catalogs for the\n" +
			"specs and SQL queries (simulated), DataFrame joins and explain output for the joins; in\n" +
			"explain output it reports only joins that really shuffle." + suppressDoc("BL301"),
		Bad: "CREATE TABLE a (k INT, v INT) USING parquet CLUSTERED BY (k) INTO 200 BUCKETS;\n" +
			"CREATE TABLE b (k INT, w INT) USING parquet CLUSTERED BY (k) INTO 8 BUCKETS;\n" +
			"SELECT * FROM a JOIN b ON a.k = b.k;",
		Good: "CREATE TABLE a (k INT, v INT) USING parquet CLUSTERED BY (k) INTO 200 BUCKETS;\n" +
			"CREATE TABLE b (k INT, w INT) USING parquet CLUSTERED BY (k) INTO 200 BUCKETS;\n" +
			"SELECT * FROM a JOIN b ON a.k = b.k;",
		Spark:    "3.0–4.x",
		Since:    "0.1.0",
		Severity: Warning,
		Default:  true,
		Run:      runBL301,
	}
}

func runBL301(p *Pass) error {
	for _, s := range p.joinSites() {
		if !s.Causes.Has(simulate.CauseCountMismatch) {
			continue
		}
		ln, rn := s.Left.Table.Buckets().NumBuckets, s.Right.Table.Buckets().NumBuckets
		// small is the side to rebucket: the one Spark shuffles, else the one with fewer buckets.
		small, big := rebucketSides(s)
		sn, bn := small.Table.Buckets().NumBuckets, big.Table.Buckets().NumBuckets
		msg := fmt.Sprintf("join of %s (%d buckets) and %s (%d buckets) on %s %s: the bucket counts differ (%s)",
			s.Left.Label, ln, s.Right.Label, rn, keyColumns(s.Left.Keys), shuffledText(s, small), p.spark())
		if p.Workload.ShuffleFreeWith(s, map[string]string{simulate.ConfCoalesceBuckets: "true"}) {
			msg += "; bucket coalescing could also remove the shuffle (BL403)"
		}
		d := Diagnostic{
			Span:    s.Span,
			Message: msg,
			Related: append(bucketRelated(big.Table), bucketRelated(small.Table)...),
			Fix:     &Fix{Description: fmt.Sprintf("Rebucket %s INTO %d BUCKETS to match %s", small.Table.Name, bn, big.Table.Name)},
		}
		if others := otherCounts(p.rebucketCounts(small.Table.Name), bn); len(others) > 0 {
			// Another join's fix rebuckets the same table to another count: no edit, which
			// would undo the other's, and the fix says so.
			d.Fix.Description += fmt.Sprintf("; another join of %s needs %s BUCKETS: one count cannot match both, so choose the count of its main join", small.Table.Name, strings.Join(others, " or "))
		} else if sn > 0 {
			d.Fix.Edits = p.bucketCountEdits(small.Table, bn)
		}
		p.Report(d)
	}
	return nil
}

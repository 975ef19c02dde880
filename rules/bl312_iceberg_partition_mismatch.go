package rules

import (
	"fmt"
	"maps"

	"github.com/bucketlint/bucketlint/simulate"
)

func bl312() *Rule {
	return &Rule{
		ID:    "BL312",
		Name:  "iceberg-partition-mismatch",
		Title: "a storage-partitioned join of Iceberg tables partitioned by different transforms",
		Doc: "Iceberg tables partitioned by `bucket(n, k)` join on `k` without a shuffle (a\n" +
			"storage-partitioned join, Spark 3.3+) only when both sides are partitioned by the same\n" +
			"transforms: `bucket(8, k)` against `bucket(4, k)` is not the same grouping, so Spark shuffles\n" +
			"both sides, whatever the settings. From Spark 4.0,\n" +
			"`spark.sql.sources.v2.bucketing.allowCompatibleTransforms.enabled=true` with\n" +
			"`spark.sql.sources.v2.bucketing.pushPartValues.enabled=true` (its default from 4.0) reads\n" +
			"both as the greatest common divisor of the counts (recorded with Spark 4.1.4 and Iceberg\n" +
			"1.12.0); the message says so when the join, simulated with it, needs no shuffle.\n\n" +
			"Partition both tables by the same `bucket(n, k)`. A partition spec change (`ALTER TABLE …\n" +
			"REPLACE PARTITION FIELD`) applies only to files written after it, so rewrite the table\n" +
			"(`CREATE TABLE … PARTITIONED BY (bucket(n, k)) AS SELECT …`, or `rewrite_data_files`) before\n" +
			"the join can use it." + suppressDoc("BL312"),
		Bad: "CREATE TABLE a (k INT, v INT) USING iceberg PARTITIONED BY (bucket(8, k));\n" +
			"CREATE TABLE b (k INT, w INT) USING iceberg PARTITIONED BY (bucket(4, k));\n" +
			"SET spark.sql.sources.v2.bucketing.enabled=true;\n" +
			"SET spark.sql.iceberg.planning.preserve-data-grouping=true;\n" +
			"SELECT * FROM a JOIN b ON a.k = b.k;",
		Good: "CREATE TABLE a (k INT, v INT) USING iceberg PARTITIONED BY (bucket(8, k));\n" +
			"CREATE TABLE b (k INT, w INT) USING iceberg PARTITIONED BY (bucket(8, k));\n" +
			"SET spark.sql.sources.v2.bucketing.enabled=true;\n" +
			"SET spark.sql.iceberg.planning.preserve-data-grouping=true;\n" +
			"SELECT * FROM a JOIN b ON a.k = b.k;",
		Spark:    "3.3–4.x",
		Since:    "0.2.0",
		Severity: Warning,
		Default:  true,
		Run:      runBL312,
	}
}

func runBL312(p *Pass) error {
	for _, s := range p.joinSites() {
		if !sideDecided(&s.Left, simulate.CauseTransformMismatch) && !sideDecided(&s.Right, simulate.CauseTransformMismatch) {
			continue
		}
		l, r := s.Left.Table, s.Right.Table
		msg := fmt.Sprintf("storage-partitioned join of %s (%s) and %s (%s) on %s %s: the partition transforms differ (%s)",
			s.Left.Label, partitionText(l), s.Right.Label, partitionText(r), keyColumns(s.Left.Keys), shuffledText(s, nil), p.spark())
		try := map[string]string{simulate.ConfV2CompatibleTransforms: "true", simulate.ConfV2PushPartValues: "true"}
		maps.Copy(try, spjSettings())
		if s.Options.Behaviour().SPJShuffleOneSide && p.Workload.ShuffleFreeWith(s, try) {
			msg += fmt.Sprintf("; with %s=true and %s=true Spark reads both at the common bucket count and the join needs no shuffle", simulate.ConfV2CompatibleTransforms, simulate.ConfV2PushPartValues)
		}
		p.Report(Diagnostic{
			Span:    s.Span,
			Message: msg,
			Related: append(partitionRelated(l), partitionRelated(r)...),
			Fix: &Fix{Description: fmt.Sprintf("Partition %s and %s by the same transforms (rewrite the data: a spec change applies to new files only)",
				l.Name, r.Name)},
		})
	}
	return nil
}

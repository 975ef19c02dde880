package rules

import (
	"fmt"
	"maps"
	"slices"

	"github.com/bucketlint/bucketlint/simulate"
	"github.com/bucketlint/bucketlint/workload"
)

func bl313() *Rule {
	return &Rule{
		ID:    "BL313",
		Name:  "iceberg-join-keys-not-partition-source",
		Title: "an Iceberg table joined on columns other than its partition transforms' sources",
		Doc: "A storage-partitioned join (Spark 3.3+) keeps an Iceberg table's grouping only when the join\n" +
			"keys are the source columns of its partition transforms: a table partitioned by\n" +
			"`bucket(8, k)` and joined on `v` is shuffled. With more join keys than partition fields\n" +
			"(`ON a.k = b.k AND a.v = b.v` for `bucket(8, k)`), Spark shuffles both sides while\n" +
			"`spark.sql.requireAllClusterKeysForCoPartition` is true (the default); with more partition\n" +
			"fields than join keys (`bucket(8, k), v` joined on `k`), it shuffles them unless, from 4.0,\n" +
			"`spark.sql.sources.v2.bucketing.allowJoinKeysSubsetOfPartitionKeys.enabled` is true. Each\n" +
			"case was recorded with Spark 3.5.9 and 4.1.4 and Iceberg 1.12.0; the message names the\n" +
			"setting when the join, simulated with it, needs no shuffle.\n\n" +
			"Partition the table by `bucket(n, …)` of the columns it is joined on, or join on them." + suppressDoc("BL313"),
		Bad: "CREATE TABLE a (k INT, v INT) USING iceberg PARTITIONED BY (bucket(8, k));\n" +
			"CREATE TABLE b (k INT, v INT) USING iceberg PARTITIONED BY (bucket(8, k));\n" +
			"SET spark.sql.sources.v2.bucketing.enabled=true;\n" +
			"SET spark.sql.iceberg.planning.preserve-data-grouping=true;\n" +
			"SELECT * FROM a JOIN b ON a.v = b.v;",
		Good: "CREATE TABLE a (k INT, v INT) USING iceberg PARTITIONED BY (bucket(8, v));\n" +
			"CREATE TABLE b (k INT, v INT) USING iceberg PARTITIONED BY (bucket(8, v));\n" +
			"SET spark.sql.sources.v2.bucketing.enabled=true;\n" +
			"SET spark.sql.iceberg.planning.preserve-data-grouping=true;\n" +
			"SELECT * FROM a JOIN b ON a.v = b.v;",
		Spark:    "3.3–4.x",
		Since:    "0.2.0",
		Severity: Warning,
		Default:  true,
		Run:      runBL313,
	}
}

func runBL313(p *Pass) error {
	keyCauses := []simulate.Cause{simulate.CauseBucketKeysDifferent, simulate.CauseBucketKeysSubset, simulate.CauseBucketKeysSuperset}
	for _, s := range p.joinSites() {
		for _, side := range s.Sides() {
			if !v2Partitioned(side.Table) || !sideDecided(side, keyCauses...) {
				continue
			}
			p.Report(Diagnostic{
				Span:    s.Span,
				Message: bl313Message(p, s, side),
				Related: partitionRelated(side.Table),
				Fix:     &Fix{Description: fmt.Sprintf("Partition %s by bucket(n, …) of the join keys %s, or join on %s's partition source columns", side.Table.Name, keyColumns(side.Keys), side.Table.Name)},
			})
		}
	}
	return nil
}

func bl313Message(p *Pass, s *workload.Site, side *workload.Side) string {
	msg := fmt.Sprintf("%s is partitioned by (%s) but joined on %s, so the storage-partitioned join does not apply and the join %s (%s)",
		side.Label, partitionText(side.Table), keyColumns(side.Keys), shuffledText(s, nil), p.spark())
	for _, try := range []map[string]string{
		{simulate.ConfRequireAllCoPartition: "false"},
		{simulate.ConfRequireAllCoPartition: "false", simulate.ConfV2AllowJoinKeysSubset: "true", simulate.ConfV2PushPartValues: "true"},
	} {
		with := maps.Clone(try)
		maps.Copy(with, spjSettings())
		if side.Decision != simulate.CauseBucketKeysDifferent && p.Workload.ShuffleFreeWith(s, with) {
			return msg + "; the join needs no shuffle with " + settingsText(try)
		}
	}
	return msg
}

// settingsText lists settings as "a=true and b=false", in key order.
func settingsText(set map[string]string) string {
	out := ""
	for i, k := range slices.Sorted(maps.Keys(set)) {
		if i > 0 {
			out += " and "
		}
		out += k + "=" + set[k]
	}
	return out
}

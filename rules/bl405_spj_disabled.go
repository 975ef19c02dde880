package rules

import (
	"fmt"
	"strings"

	"github.com/bucketlint/bucketlint/simulate"
)

func bl405() *Rule {
	return &Rule{
		ID:    "BL405",
		Name:  "spj-disabled",
		Title: "Iceberg tables partitioned alike, joined with storage-partitioned joins off",
		Doc: "Two Iceberg tables partitioned by the same `bucket(n, k)` join on `k` without a shuffle only\n" +
			"when both `spark.sql.sources.v2.bucketing.enabled` (Spark's; default false before 4.1, true\n" +
			"from 4.1) and `spark.sql.iceberg.planning.preserve-data-grouping` (Iceberg's; default false)\n" +
			"are true: without the first Spark ignores the partitioning a scan reports, without the second\n" +
			"Iceberg's scan reports none. Recorded with Spark 3.5.9 and 4.1.4 and Iceberg 1.12.0: at the\n" +
			"defaults both sides are shuffled, on both versions. The rule reports a join that the\n" +
			"simulator, with both settings on, plans without any shuffle.\n\n" +
			"Set both for the job (Spark 3.3+)." + suppressDoc("BL405"),
		Bad: "CREATE TABLE a (k INT, v INT) USING iceberg PARTITIONED BY (bucket(8, k));\n" +
			"CREATE TABLE b (k INT, w INT) USING iceberg PARTITIONED BY (bucket(8, k));\n" +
			"SELECT * FROM a JOIN b ON a.k = b.k;",
		Good: "SET spark.sql.sources.v2.bucketing.enabled=true;\n" +
			"SET spark.sql.iceberg.planning.preserve-data-grouping=true;\n" +
			"SELECT * FROM a JOIN b ON a.k = b.k;",
		Spark:    "3.3–4.x",
		Since:    "0.2.0",
		Severity: Warning,
		Default:  true,
		Run:      runBL405,
	}
}

func runBL405(p *Pass) error {
	for _, s := range p.joinSites() {
		if !sideDecided(&s.Left, simulate.CauseSPJOff) && !sideDecided(&s.Right, simulate.CauseSPJOff) {
			continue
		}
		if !p.Workload.ShuffleFreeWith(s, spjSettings()) {
			continue
		}
		o := s.Options
		var off, offText []string
		if !o.V2Bucketing() {
			off = append(off, simulate.ConfV2Bucketing)
		}
		if !o.IcebergPreserveDataGrouping() {
			off = append(off, simulate.ConfIcebergPreserveGrouping)
		}
		for _, k := range off {
			offText = append(offText, k+"=false")
		}
		if len(off) == 0 {
			continue
		}
		sets := make([]string, len(off))
		for i, k := range off {
			sets[i] = "SET " + k + "=true"
		}
		p.Report(Diagnostic{
			Span: s.Span,
			Message: fmt.Sprintf("%s and %s are both partitioned by (%s), but the storage-partitioned join is off (%s), so the join %s (%s); with it on the join needs no shuffle",
				s.Left.Label, s.Right.Label, partitionText(s.Left.Table), strings.Join(offText, ", "), shuffledText(s, nil), p.spark()),
			Related: append(partitionRelated(s.Left.Table), partitionRelated(s.Right.Table)...),
			Fix:     &Fix{Description: strings.Join(sets, "; ")},
		})
	}
	return nil
}

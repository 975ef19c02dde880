package rules

import (
	"fmt"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
)

func bl402() *Rule {
	return &Rule{
		ID:    "BL402",
		Name:  "v2-bucketing-flag-confusion",
		Title: "the DataSource V2 bucketing flag set for file-source bucketing",
		Doc: "`spark.sql.sources.v2.bucketing.enabled` (3.3+) and its `spark.sql.sources.v2.bucketing.*`\n" +
			"siblings turn on storage-partitioned joins for DataSource V2 tables that report their\n" +
			"partitioning — Iceberg tables partitioned by `bucket(n, col)` and the like. They do nothing\n" +
			"for the file-source tables that `CLUSTERED BY … INTO n BUCKETS` or `bucketBy` create, which\n" +
			"`spark.sql.sources.bucketing.enabled` (default true) governs. Setting the v2 flag for those is\n" +
			"a no-op; setting it to false does not disable their bucketing either.\n\n" +
			"Remove the setting when the project has no V2 tables. The rule is silent when a table is\n" +
			"declared with an Iceberg format or v2 partition transforms." + suppressDoc("BL402"),
		Bad:      "CREATE TABLE a (k INT) USING parquet CLUSTERED BY (k) INTO 16 BUCKETS;\nSET spark.sql.sources.v2.bucketing.enabled=true;",
		Good:     "CREATE TABLE a (k INT) USING parquet CLUSTERED BY (k) INTO 16 BUCKETS;",
		Spark:    "3.3–4.x",
		Since:    "0.1.0",
		Severity: Warning,
		Default:  true,
		Run:      runBL402,
	}
}

func runBL402(p *Pass) error {
	tables := p.tables()
	v1 := 0
	for _, t := range tables {
		if v2Table(t) {
			return nil
		}
		if isBucketed(t) {
			v1++
		}
	}
	for _, c := range p.Workload.Settings() {
		if !strings.HasPrefix(c.Key, "spark.sql.sources.v2.bucketing.") {
			continue
		}
		msg := fmt.Sprintf("%s affects DataSource V2 tables only (storage-partitioned joins); file-source bucketing is governed by %s", c.Key, simulate.ConfBucketingEnabled)
		if v1 > 0 {
			msg += fmt.Sprintf(", which governs this project's %s", plural(v1, "bucketed table"))
		}
		p.Report(Diagnostic{
			Span:    p.settingSpan(c),
			Message: msg + " (" + p.spark() + ")",
			Fix:     &Fix{Description: "Remove this setting; it has no effect on file-source bucketed tables"},
		})
	}
	return nil
}

// v2Table reports a table Spark reads through DataSource V2 with a reported partitioning.
func v2Table(t *plan.Table) bool {
	return plan.V2CatalogFormat(t.Format) || len(t.PartitionTransforms()) > 0
}

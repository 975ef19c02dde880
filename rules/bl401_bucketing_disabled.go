package rules

import (
	"fmt"
	"strings"

	"github.com/bucketlint/bucketlint/simulate"
)

func bl401() *Rule {
	return &Rule{
		ID:    "BL401",
		Name:  "bucketing-disabled",
		Title: "spark.sql.sources.bucketing.enabled=false",
		Doc: "With `spark.sql.sources.bucketing.enabled=false` Spark reads every bucketed table as plain\n" +
			"files (`Bucketed: false (disabled by configuration)` in 3.3+ explain output): every join and\n" +
			"aggregation on bucket keys shuffles, and the cost of writing bucketed tables buys nothing.\n" +
			"Writes still bucket. The setting is sometimes left over from debugging, or copied from a\n" +
			"workaround for an old bug.\n\n" +
			"Remove it (the default is true). The rule reads `SET` statements, `spark-defaults.conf`,\n" +
			"`--conf` lines and `.config(k, v)` / `spark.conf.set(k, v)` in code. A setting made for one\n" +
			"block only (Scala's `withSQLConf(k -> v) { … }`, PySpark's `with self.sql_conf({k: v}):` of\n" +
			"`pyspark.testing.sqlutils`, each restoring the value after the block) is\n" +
			"deliberate, not left over: the rule is silent on it, and the block's queries are simulated\n" +
			"without bucketing." + suppressDoc("BL401"),
		Bad:      "SET spark.sql.sources.bucketing.enabled=false;",
		Good:     "-- (no setting: bucketing is on by default)",
		Spark:    "2.0–4.x",
		Since:    "0.1.0",
		Severity: Warning,
		Default:  true,
		Run:      runBL401,
	}
}

func runBL401(p *Pass) error {
	bucketed := 0
	for _, t := range p.tables() {
		if isBucketed(t) {
			bucketed++
		}
	}
	for _, c := range p.Workload.Settings() {
		if c.Key != simulate.ConfBucketingEnabled || strings.ToLower(strings.TrimSpace(c.Value)) != "false" {
			continue
		}
		if c.Until.IsValid() {
			continue // set for one block (withSQLConf): the block is meant to run without bucketing
		}
		msg := fmt.Sprintf("%s=false: %s reads bucketed tables as plain files, so joins and aggregations on bucket keys shuffle", c.Key, p.spark())
		if bucketed > 0 {
			msg += fmt.Sprintf(" (%s in this project)", plural(bucketed, "bucketed table"))
		}
		p.Report(Diagnostic{
			Span:    p.settingSpan(c),
			Message: msg,
			Fix:     &Fix{Description: "Remove this setting; bucketing is on by default"},
		})
	}
	return nil
}

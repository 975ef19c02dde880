//go:build engine

package verify

import (
	"slices"
	"testing"
)

// TestPlannerConfs: only Spark SQL planner settings reach a Spark that verify starts; the
// repository's settings that load code or point Spark elsewhere are dropped and named.
func TestPlannerConfs(t *testing.T) {
	in := map[string]string{
		"spark.sql.shuffle.partitions":                      "64",
		"spark.sql.autoBroadcastJoinThreshold":              "-1",
		"spark.sql.adaptive.enabled":                        "false",
		"spark.sql.adaptive.skewJoin.enabled":               "true",
		"spark.sql.bucketing.coalesceBucketsInJoin.enabled": "true",
		"spark.sql.sources.bucketing.enabled":               "true",
		"spark.sql.join.preferSortMergeJoin":                "true",
		"spark.sql.requireAllClusterKeysForCoPartition":     "false",
		"spark.jars":                                           "/tmp/evil.jar",
		"spark.jars.packages":                                  "evil:evil:1",
		"spark.driver.extraJavaOptions":                        "-javaagent:/tmp/evil.jar",
		"spark.driver.extraClassPath":                          "/tmp",
		"spark.executor.extraJavaOptions":                      "-Dx",
		"spark.sql.extensions":                                 "evil.Extensions",
		"spark.sql.queryExecutionListeners":                    "evil.Listener",
		"spark.sql.adaptive.customCostEvaluatorClass":          "evil.Cost",
		"spark.sql.catalog.evil":                               "evil.Catalog",
		"spark.sql.warehouse.dir":                              "/etc",
		"spark.sql.sources.default":                            "evil",
		"spark.plugins":                                        "evil.Plugin",
		"spark.master":                                         "yarn",
		"spark.sql.hive.metastore.jars":                        "path",
		"spark.sql.streaming.streamingQueryListeners":          "evil.L",
		"spark.sql.bucketing.coalesceBucketsInJoin.jarPath":    "x",
		"spark.sql.sources.bucketing.autoBucketedScan.enabled": "false",
	}
	kept, dropped := PlannerConfs(in)
	wantKept := []string{
		"spark.sql.adaptive.enabled", "spark.sql.adaptive.skewJoin.enabled", "spark.sql.autoBroadcastJoinThreshold",
		"spark.sql.bucketing.coalesceBucketsInJoin.enabled", "spark.sql.join.preferSortMergeJoin",
		"spark.sql.requireAllClusterKeysForCoPartition", "spark.sql.shuffle.partitions",
		"spark.sql.sources.bucketing.autoBucketedScan.enabled", "spark.sql.sources.bucketing.enabled",
	}
	var got []string
	for k := range kept {
		got = append(got, k)
		if kept[k] != in[k] {
			t.Errorf("%s=%s, want %s", k, kept[k], in[k])
		}
	}
	slices.Sort(got)
	if !slices.Equal(got, wantKept) {
		t.Errorf("kept %v\nwant %v", got, wantKept)
	}
	if len(dropped)+len(kept) != len(in) || !slices.IsSorted(dropped) {
		t.Errorf("dropped %v", dropped)
	}
	for _, k := range []string{"spark.jars", "spark.driver.extraJavaOptions", "spark.driver.extraClassPath", "spark.sql.extensions"} {
		if !slices.Contains(dropped, k) {
			t.Errorf("%s not dropped", k)
		}
	}
}

//go:build engine

package verify

import (
	"maps"
	"slices"
	"strings"

	"github.com/bucketlint/bucketlint/simulate"
)

// PlannerConfs splits Spark settings into those verify passes on to a Spark it starts or
// connects to and those it drops, sorted. Only Spark SQL planner settings pass: the ones
// simulate models, and those of adaptive execution, bucketing, joins and cost-based
// optimisation. The settings come from the repository being checked (SET statements,
// spark-defaults.conf), so anything else is dropped: settings that load code (spark.jars,
// spark.sql.extensions, spark.driver.extraJavaOptions, spark.driver.extraClassPath, any
// …class, …listeners or …plugins), point Spark at other files or services
// (spark.sql.warehouse.dir, spark.sql.catalog.*) or change what it is (spark.master).
func PlannerConfs(confs map[string]string) (kept map[string]string, dropped []string) {
	kept = make(map[string]string, len(confs))
	for _, k := range slices.Sorted(maps.Keys(confs)) {
		if plannerConf(k) {
			kept[k] = confs[k]
		} else {
			dropped = append(dropped, k)
		}
	}
	return kept, dropped
}

// sessionConfs is PlannerConfs for the session verify runs the query in, with notes for
// what is not passed on: the dropped settings, and a broadcast threshold other than -1.
// Broadcast joins stay off (the caller sets the threshold to -1), whatever the workload
// sets: the sample's tables are far smaller than production's, so a size threshold would
// broadcast joins that the prediction, made for the real sizes, shuffles or not by layout
// alone.
func sessionConfs(confs map[string]string) (kept map[string]string, notes []string) {
	kept, dropped := PlannerConfs(confs)
	for _, k := range dropped {
		notes = append(notes, k+" is not passed on to Spark: only Spark SQL planner settings are")
	}
	if v, ok := kept[simulate.ConfBroadcastThreshold]; ok {
		if v != "-1" {
			notes = append(notes, simulate.ConfBroadcastThreshold+"="+v+" is not passed on to Spark: broadcast joins are off, so that the sample's small tables shuffle by layout as the real ones do")
		}
		delete(kept, simulate.ConfBroadcastThreshold)
	}
	return kept, notes
}

// plannerConf reports whether key is a Spark SQL planner setting verify may pass on.
func plannerConf(key string) bool {
	switch key {
	case simulate.ConfShufflePartitions, simulate.ConfBroadcastThreshold, simulate.ConfRequireAllCoPartition,
		simulate.ConfRequireAllDistribution, simulate.ConfShuffledHashJoinFactor, simulate.ConfLegacyOutputOrdering,
		simulate.ConfV2Bucketing, simulate.ConfMaxSinglePartitionBytes, simulate.ConfUnionOutputPartitioning,
		simulate.ConfANSI, simulate.ConfBHJExpandLimit, "spark.sql.files.maxPartitionBytes", "spark.sql.crossJoin.enabled":
		return true
	}
	lower := strings.ToLower(key)
	for _, code := range []string{"class", "jar", "extension", "listener", "plugin", "path", "dir", "file"} {
		if strings.Contains(lower, code) {
			return false
		}
	}
	for _, prefix := range []string{"spark.sql.adaptive.", "spark.sql.bucketing.", "spark.sql.sources.bucketing.", "spark.sql.join.", "spark.sql.cbo."} {
		if strings.HasPrefix(key, prefix) {
			return true
		}
	}
	return false
}

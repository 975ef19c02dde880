package code

import "strings"

// sqlConfKeys returns the keys of the SQLConf (and HiveUtils) entries whose settings bucketlint
// models, by the name of the entry Spark's own Scala code and tests use for them:
// SQLConf.BUCKETING_MAX_BUCKETS.key is "spark.sql.sources.bucketing.maxBuckets". Each was
// read from Spark 4.1.4's SQLConf through py4j (SQLConf.NAME().key()).
func sqlConfKeys() map[string]string {
	return map[string]string{
		"SQLConf.SHUFFLE_PARTITIONS":                                    "spark.sql.shuffle.partitions",
		"SQLConf.AUTO_BROADCASTJOIN_THRESHOLD":                          "spark.sql.autoBroadcastJoinThreshold",
		"SQLConf.BUCKETING_ENABLED":                                     "spark.sql.sources.bucketing.enabled",
		"SQLConf.BUCKETING_MAX_BUCKETS":                                 "spark.sql.sources.bucketing.maxBuckets",
		"SQLConf.AUTO_BUCKETED_SCAN_ENABLED":                            "spark.sql.sources.bucketing.autoBucketedScan.enabled",
		"SQLConf.COALESCE_BUCKETS_IN_JOIN_ENABLED":                      "spark.sql.bucketing.coalesceBucketsInJoin.enabled",
		"SQLConf.COALESCE_BUCKETS_IN_JOIN_MAX_BUCKET_RATIO":             "spark.sql.bucketing.coalesceBucketsInJoin.maxBucketRatio",
		"SQLConf.REQUIRE_ALL_CLUSTER_KEYS_FOR_CO_PARTITION":             "spark.sql.requireAllClusterKeysForCoPartition",
		"SQLConf.REQUIRE_ALL_CLUSTER_KEYS_FOR_DISTRIBUTION":             "spark.sql.requireAllClusterKeysForDistribution",
		"SQLConf.ADAPTIVE_EXECUTION_ENABLED":                            "spark.sql.adaptive.enabled",
		"SQLConf.COALESCE_PARTITIONS_ENABLED":                           "spark.sql.adaptive.coalescePartitions.enabled",
		"SQLConf.COALESCE_PARTITIONS_INITIAL_PARTITION_NUM":             "spark.sql.adaptive.coalescePartitions.initialPartitionNum",
		"SQLConf.PREFER_SORTMERGEJOIN":                                  "spark.sql.join.preferSortMergeJoin",
		"SQLConf.SHUFFLE_HASH_JOIN_FACTOR":                              "spark.sql.shuffledHashJoinFactor",
		"SQLConf.LEGACY_BUCKETED_TABLE_SCAN_OUTPUT_ORDERING":            "spark.sql.legacy.bucketedTableScan.outputOrdering",
		"SQLConf.V2_BUCKETING_ENABLED":                                  "spark.sql.sources.v2.bucketing.enabled",
		"SQLConf.V2_BUCKETING_PUSH_PART_VALUES_ENABLED":                 "spark.sql.sources.v2.bucketing.pushPartValues.enabled",
		"SQLConf.V2_BUCKETING_PARTIALLY_CLUSTERED_DISTRIBUTION_ENABLED": "spark.sql.sources.v2.bucketing.partiallyClusteredDistribution.enabled",
		"SQLConf.MAX_SINGLE_PARTITION_BYTES":                            "spark.sql.maxSinglePartitionBytes",
		"SQLConf.UNION_OUTPUT_PARTITIONING":                             "spark.sql.unionOutputPartitioning",
		"SQLConf.ANSI_ENABLED":                                          "spark.sql.ansi.enabled",
		"SQLConf.BROADCAST_HASH_JOIN_OUTPUT_PARTITIONING_EXPAND_LIMIT":  "spark.sql.execution.broadcastHashJoin.outputPartitioningExpandLimit",
		"SQLConf.LEGACY_CREATE_HIVE_TABLE_BY_DEFAULT":                   "spark.sql.legacy.createHiveTableByDefault",
		"SQLConf.DEFAULT_DATA_SOURCE_NAME":                              "spark.sql.sources.default",
		"HiveUtils.CONVERT_METASTORE_PARQUET":                           "spark.sql.hive.convertMetastoreParquet",
		"HiveUtils.CONVERT_METASTORE_ORC":                               "spark.sql.hive.convertMetastoreOrc",
	}
}

// confKey returns the key of a Scala reference to a configuration entry's key, written
// SQLConf.NAME.key (also with its package, org.apache.spark.sql.internal.SQLConf.NAME.key,
// or HiveUtils.NAME.key); ok is false for any other name.
func confKey(dotted string) (string, bool) {
	entry, ok := strings.CutSuffix(dotted, ".key")
	if !ok {
		return "", false
	}
	for _, pkg := range []string{"org.apache.spark.sql.internal.", "org.apache.spark.sql.hive."} {
		entry = strings.TrimPrefix(entry, pkg)
	}
	k, ok := sqlConfKeys()[entry]
	return k, ok
}

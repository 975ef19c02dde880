package simulate

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// Options are the Spark version and configuration a simulation runs under. Nothing is read
// from the environment.
type Options struct {
	// SparkVersion is the Spark release modelled; the zero value means 3.5.
	SparkVersion Version
	// Confs are Spark SQL configuration settings ("spark.sql.shuffle.partitions" → "200");
	// unset keys take the version's default.
	Confs map[string]string
	// SingleFileBuckets names tables whose buckets each hold at most one file (written after
	// repartition by the bucket columns into the bucket count). Only they can report a sort
	// order under spark.sql.legacy.bucketedTableScan.outputOrdering.
	SingleFileBuckets map[string]bool
	// CachedTables names tables cached with CACHE TABLE: their scans read the cached plan,
	// built with its bucketed scan kept (CacheManager), and report its partitioning.
	CachedTables map[string]bool
	// BucketOf returns the bucket, among n, of a row whose single bucket column of Spark SQL
	// type typ equals the literal lit (its tree: 42, 'abc', DATE '2024-01-31', NULL), and false when
	// it cannot tell. It is Spark's Murmur3 and pmod, supplied by the caller (engine/hash's
	// BucketOfLiteral) so that this package keeps to the plan model; nil leaves bucket pruning
	// unmodelled and every bucket selected.
	BucketOf func(typ string, lit *plan.X, n int) (int, bool)
}

// Configuration keys the model reads.
const (
	ConfShufflePartitions      = "spark.sql.shuffle.partitions"
	ConfBroadcastThreshold     = "spark.sql.autoBroadcastJoinThreshold"
	ConfBucketingEnabled       = "spark.sql.sources.bucketing.enabled"
	ConfAutoBucketedScan       = "spark.sql.sources.bucketing.autoBucketedScan.enabled"
	ConfCoalesceBuckets        = "spark.sql.bucketing.coalesceBucketsInJoin.enabled"
	ConfCoalesceMaxRatio       = "spark.sql.bucketing.coalesceBucketsInJoin.maxBucketRatio"
	ConfRequireAllCoPartition  = "spark.sql.requireAllClusterKeysForCoPartition"
	ConfRequireAllDistribution = "spark.sql.requireAllClusterKeysForDistribution"
	ConfAdaptive               = "spark.sql.adaptive.enabled"
	ConfAdaptiveCoalesce       = "spark.sql.adaptive.coalescePartitions.enabled"
	ConfInitialPartitionNum    = "spark.sql.adaptive.coalescePartitions.initialPartitionNum"
	ConfPreferSortMergeJoin    = "spark.sql.join.preferSortMergeJoin"
	ConfShuffledHashJoinFactor = "spark.sql.shuffledHashJoinFactor"
	ConfLegacyOutputOrdering   = "spark.sql.legacy.bucketedTableScan.outputOrdering"
	ConfV2Bucketing            = "spark.sql.sources.v2.bucketing.enabled"
	ConfV2PushPartValues       = "spark.sql.sources.v2.bucketing.pushPartValues.enabled"
	ConfV2PartiallyClustered   = "spark.sql.sources.v2.bucketing.partiallyClusteredDistribution.enabled"
	ConfV2BucketingShuffle     = "spark.sql.sources.v2.bucketing.shuffle.enabled"
	ConfV2AllowJoinKeysSubset  = "spark.sql.sources.v2.bucketing.allowJoinKeysSubsetOfPartitionKeys.enabled"
	ConfV2CompatibleTransforms = "spark.sql.sources.v2.bucketing.allowCompatibleTransforms.enabled"
	// ConfIcebergPreserveGrouping is Iceberg's session setting (SparkSQLProperties, Iceberg
	// 1.2+; default false) that makes its scans report their partitioning to Spark.
	ConfIcebergPreserveGrouping = "spark.sql.iceberg.planning.preserve-data-grouping"
	ConfMaxSinglePartitionBytes = "spark.sql.maxSinglePartitionBytes"
	ConfUnionOutputPartitioning = "spark.sql.unionOutputPartitioning"
	ConfANSI                    = "spark.sql.ansi.enabled"
	ConfBHJExpandLimit          = "spark.sql.execution.broadcastHashJoin.outputPartitioningExpandLimit"
	ConfConvertMetastoreParquet = "spark.sql.hive.convertMetastoreParquet"
	ConfConvertMetastoreOrc     = "spark.sql.hive.convertMetastoreOrc"
	ConfMaxBuckets              = "spark.sql.sources.bucketing.maxBuckets"

	ConfCreateHiveTableByDefault = "spark.sql.legacy.createHiveTableByDefault"
	ConfSourcesDefault           = "spark.sql.sources.default"
)

// Version returns the modelled version, DefaultVersion (3.5) when unset.
func (o Options) Version() Version {
	if o.SparkVersion.Major == 0 {
		return DefaultVersion()
	}
	return o.SparkVersion
}

// Behaviour returns the behaviour of the modelled version, BehaviourOf(o.Version()).
func (o Options) Behaviour() Behaviour { return BehaviourOf(o.Version()) }

func (o Options) raw(key string) (string, bool) {
	v, ok := o.Confs[key]
	return strings.TrimSpace(v), ok
}

func (o Options) boolConf(key string, def bool) bool {
	v, ok := o.raw(key)
	if !ok {
		return def
	}
	b, err := strconv.ParseBool(strings.ToLower(v))
	if err != nil {
		return def
	}
	return b
}

func (o Options) bytesConf(key string, def int64) int64 {
	v, ok := o.raw(key)
	if !ok {
		return def
	}
	n, err := ParseBytes(v)
	if err != nil {
		return def
	}
	return n
}

func (o Options) intConf(key string, def int) int {
	v, ok := o.raw(key)
	if !ok {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return def
	}
	return n
}

// ShufflePartitions is spark.sql.shuffle.partitions (default 200).
func (o Options) ShufflePartitions() int {
	return o.intConf(ConfShufflePartitions, o.Behaviour().Defaults.ShufflePartitions)
}

// BroadcastThreshold is spark.sql.autoBroadcastJoinThreshold in bytes (default 10MB); -1
// disables size-based broadcast.
func (o Options) BroadcastThreshold() int64 {
	return o.bytesConf(ConfBroadcastThreshold, o.Behaviour().Defaults.AutoBroadcastJoinThreshold)
}

// BucketingEnabled is spark.sql.sources.bucketing.enabled (default true).
func (o Options) BucketingEnabled() bool {
	return o.boolConf(ConfBucketingEnabled, o.Behaviour().Defaults.BucketingEnabled)
}

// MaxBuckets is spark.sql.sources.bucketing.maxBuckets (default 100000).
func (o Options) MaxBuckets() int {
	return o.intConf(ConfMaxBuckets, o.Behaviour().Defaults.MaxBuckets)
}

// AutoBucketedScan is spark.sql.sources.bucketing.autoBucketedScan.enabled (3.1+, default
// true); always false before 3.1, where DisableUnnecessaryBucketedScan does not exist.
func (o Options) AutoBucketedScan() bool {
	b := o.Behaviour()
	return b.DisableUnnecessaryBucketedScan && o.boolConf(ConfAutoBucketedScan, b.Defaults.AutoBucketedScan)
}

// CoalesceBuckets is spark.sql.bucketing.coalesceBucketsInJoin.enabled (3.1+, default false).
func (o Options) CoalesceBuckets() bool {
	b := o.Behaviour()
	return b.CoalesceBucketsInJoin && o.boolConf(ConfCoalesceBuckets, b.Defaults.CoalesceBucketsInJoin)
}

// CoalesceMaxRatio is spark.sql.bucketing.coalesceBucketsInJoin.maxBucketRatio (default 4).
func (o Options) CoalesceMaxRatio() int {
	return o.intConf(ConfCoalesceMaxRatio, o.Behaviour().Defaults.CoalesceMaxBucketRatio)
}

// RequireAllClusterKeysForCoPartition is the 3.3+ internal conf (default true).
func (o Options) RequireAllClusterKeysForCoPartition() bool {
	return o.boolConf(ConfRequireAllCoPartition, o.Behaviour().Defaults.RequireAllClusterKeysForCoPartition)
}

// RequireAllClusterKeysForDistribution is the 3.3+ internal conf (default false).
func (o Options) RequireAllClusterKeysForDistribution() bool {
	b := o.Behaviour()
	return b.RequireAllClusterKeysConfs && o.boolConf(ConfRequireAllDistribution, b.Defaults.RequireAllClusterKeysForDistribution)
}

// Adaptive is spark.sql.adaptive.enabled: default false in 3.0 and 3.1, true from 3.2.0.
func (o Options) Adaptive() bool {
	return o.boolConf(ConfAdaptive, o.Behaviour().Defaults.Adaptive)
}

// NewShufflePartitions is the width of a new shuffle (SQLConf.numShufflePartitions):
// spark.sql.adaptive.coalescePartitions.initialPartitionNum when AQE and partition coalescing
// are on and it is set, else spark.sql.shuffle.partitions.
func (o Options) NewShufflePartitions() int {
	if o.Adaptive() && o.boolConf(ConfAdaptiveCoalesce, o.Behaviour().Defaults.AdaptiveCoalescePartitions) {
		if n := o.intConf(ConfInitialPartitionNum, 0); n > 0 {
			return n
		}
	}
	return o.ShufflePartitions()
}

// PreferSortMergeJoin is spark.sql.join.preferSortMergeJoin (default true).
func (o Options) PreferSortMergeJoin() bool {
	return o.boolConf(ConfPreferSortMergeJoin, o.Behaviour().Defaults.PreferSortMergeJoin)
}

// ShuffledHashJoinFactor is how much smaller a shuffled hash join's build side must be:
// spark.sql.shuffledHashJoinFactor from 3.3 (default 3), a fixed 3 before.
func (o Options) ShuffledHashJoinFactor() int {
	b := o.Behaviour()
	if !b.ShuffledHashJoinFactorConf {
		return b.Defaults.ShuffledHashJoinFactor
	}
	return o.intConf(ConfShuffledHashJoinFactor, b.Defaults.ShuffledHashJoinFactor)
}

// LegacyOutputOrdering is spark.sql.legacy.bucketedTableScan.outputOrdering (default false).
func (o Options) LegacyOutputOrdering() bool {
	return o.boolConf(ConfLegacyOutputOrdering, o.Behaviour().Defaults.LegacyBucketedOutputOrdering)
}

// V2Bucketing is spark.sql.sources.v2.bucketing.enabled (storage-partitioned join): default
// false, true from 4.1.
func (o Options) V2Bucketing() bool {
	return o.boolConf(ConfV2Bucketing, o.Behaviour().Defaults.V2Bucketing)
}

// V2PushPartValues is spark.sql.sources.v2.bucketing.pushPartValues.enabled (3.4+): false,
// true from 4.0; always false in 3.3, which has no such setting.
func (o Options) V2PushPartValues() bool {
	return o.Behaviour().SPJPushPartValues && o.boolConf(ConfV2PushPartValues, o.Behaviour().Defaults.V2BucketingPushPartValues)
}

// V2PartiallyClustered is spark.sql.sources.v2.bucketing.partiallyClusteredDistribution.enabled
// (3.4+, default false).
func (o Options) V2PartiallyClustered() bool {
	return o.Behaviour().SPJPushPartValues && o.boolConf(ConfV2PartiallyClustered, false)
}

// V2BucketingShuffle is spark.sql.sources.v2.bucketing.shuffle.enabled (4.0+, default false).
func (o Options) V2BucketingShuffle() bool {
	return o.Behaviour().SPJShuffleOneSide && o.boolConf(ConfV2BucketingShuffle, false)
}

// AllowJoinKeysSubsetOfPartitionKeys is
// spark.sql.sources.v2.bucketing.allowJoinKeysSubsetOfPartitionKeys.enabled (4.0+, default
// false).
func (o Options) AllowJoinKeysSubsetOfPartitionKeys() bool {
	return o.Behaviour().SPJShuffleOneSide && o.boolConf(ConfV2AllowJoinKeysSubset, false)
}

// AllowCompatibleTransforms is spark.sql.sources.v2.bucketing.allowCompatibleTransforms.enabled
// (4.0+, default false).
func (o Options) AllowCompatibleTransforms() bool {
	return o.Behaviour().SPJShuffleOneSide && o.boolConf(ConfV2CompatibleTransforms, false)
}

// IcebergPreserveDataGrouping is spark.sql.iceberg.planning.preserve-data-grouping (Iceberg,
// default false): whether an Iceberg scan reports its partitioning.
func (o Options) IcebergPreserveDataGrouping() bool {
	return o.boolConf(ConfIcebergPreserveGrouping, false)
}

// V2BucketingSet reports whether spark.sql.sources.v2.bucketing.enabled is set to true in
// Confs, as opposed to true by default.
func (o Options) V2BucketingSet() bool {
	_, ok := o.raw(ConfV2Bucketing)
	return ok && o.V2Bucketing()
}

// BHJExpandLimit is spark.sql.execution.broadcastHashJoin.outputPartitioningExpandLimit (3.1+,
// default 8; 0 before 3.1, where BroadcastHashJoinExec does not expand its partitioning).
func (o Options) BHJExpandLimit() int {
	b := o.Behaviour()
	if !b.BroadcastJoinExpandsPartitioning {
		return 0
	}
	return o.intConf(ConfBHJExpandLimit, b.Defaults.BroadcastHashJoinExpandLimit)
}

// MaxSinglePartitionBytes is spark.sql.maxSinglePartitionBytes (3.4+): unlimited (-1 here,
// Long.MaxValue in Spark) in 3.4 and 3.5, 128m from 4.0.
func (o Options) MaxSinglePartitionBytes() int64 {
	return o.bytesConf(ConfMaxSinglePartitionBytes, o.Behaviour().Defaults.MaxSinglePartitionBytes)
}

// UnionOutputPartitioning reports whether UnionExec reports its children's common
// partitioning: 4.1+ under spark.sql.unionOutputPartitioning (default true).
func (o Options) UnionOutputPartitioning() bool {
	b := o.Behaviour()
	return b.UnionOutputPartitioning && o.boolConf(ConfUnionOutputPartitioning, b.Defaults.UnionOutputPartitioning)
}

// ConvertMetastoreParquet is spark.sql.hive.convertMetastoreParquet (default true): Hive
// tables with a Parquet serde are read by Spark's Parquet source, a FileScan.
func (o Options) ConvertMetastoreParquet() bool {
	return o.boolConf(ConfConvertMetastoreParquet, o.Behaviour().Defaults.ConvertMetastoreParquet)
}

// ConvertMetastoreOrc is spark.sql.hive.convertMetastoreOrc (default true since 2.4): Hive
// tables with an ORC serde are read by Spark's ORC source, a FileScan.
func (o Options) ConvertMetastoreOrc() bool {
	return o.boolConf(ConfConvertMetastoreOrc, o.Behaviour().Defaults.ConvertMetastoreOrc)
}

// ANSI is spark.sql.ansi.enabled: default false in 3.x, true from 4.0.
func (o Options) ANSI() bool {
	return o.boolConf(ConfANSI, o.Behaviour().Defaults.ANSI)
}

// CreateHiveTableByDefault reports whether CREATE TABLE without USING or STORED AS creates a
// Hive table: spark.sql.legacy.createHiveTableByDefault from 3.1 (default true, false from
// 4.0); always in 3.0, which has no such key.
func (o Options) CreateHiveTableByDefault() bool {
	b := o.Behaviour()
	if !b.CreateHiveTableConf {
		return b.Defaults.CreateHiveTableByDefault
	}
	return o.boolConf(ConfCreateHiveTableByDefault, b.Defaults.CreateHiveTableByDefault)
}

// SourcesDefault is spark.sql.sources.default (default "parquet"), lower case: the format of
// a table written or created without one.
func (o Options) SourcesDefault() string {
	if v, ok := o.raw(ConfSourcesDefault); ok && v != "" {
		return strings.ToLower(v)
	}
	return o.Behaviour().Defaults.SourcesDefault
}

// ParseBytes reads a Spark byte size: "10485760", "10MB", "10m", "1g", "-1".
func ParseBytes(s string) (int64, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		m      int64
	}{
		{"pib", 1 << 50},
		{"tib", 1 << 40},
		{"gib", 1 << 30},
		{"mib", 1 << 20},
		{"kib", 1 << 10},
		{"pb", 1 << 50},
		{"tb", 1 << 40},
		{"gb", 1 << 30},
		{"mb", 1 << 20},
		{"kb", 1 << 10},
		{"p", 1 << 50},
		{"t", 1 << 40},
		{"g", 1 << 30},
		{"m", 1 << 20},
		{"k", 1 << 10},
		{"b", 1},
	} {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.m
			break
		}
	}
	if n, err := strconv.ParseInt(t, 10, 64); err == nil {
		if mult > 1 && (n > math.MaxInt64/mult || n < math.MinInt64/mult) {
			return 0, fmt.Errorf("byte size %q: out of range", s)
		}
		return n * mult, nil
	}
	// Sizes such as 1.8TB or 4.7 GiB (as Spark prints statistics).
	f, err := strconv.ParseFloat(t, 64)
	if err != nil || f < 0 || math.IsInf(f, 0) || math.IsNaN(f) || f*float64(mult) >= math.MaxInt64 {
		return 0, fmt.Errorf("byte size %q: want a number of bytes with an optional unit (B, KB, MB, GB, TB, PB; KiB… alike)", s)
	}
	return int64(f * float64(mult)), nil
}

package simulate

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// An Era is one version range of Spark's co-partitioning algorithm in EnsureRequirements
// (reference/spark-planner.md §1.6).
type Era int

// The eras.
const (
	// EraA is Spark 3.0.0–3.0.1: the target partition count is floored at
	// spark.sql.shuffle.partitions whenever any child is not a shuffle (SPARK-32767).
	EraA Era = iota + 1
	// EraB is Spark 3.0.2–3.2.x: no floor when every child is un-shuffled.
	EraB
	// EraC is Spark 3.3.0 and later: ShuffleSpec compatibility (SPARK-35703).
	EraC
)

// String names the era and its versions.
func (e Era) String() string {
	switch e {
	case EraA:
		return "A (3.0.0-3.0.1)"
	case EraB:
		return "B (3.0.2-3.2.x)"
	case EraC:
		return "C (3.3+)"
	}
	return "unknown"
}

// A Version is a Spark release number; Patch is -1 when only major.minor was given.
type Version struct {
	Major, Minor, Patch int
}

// ParseVersion reads "3.5", "3.0.1" or "4.0.0-preview1" (suffixes after the patch are ignored).
func ParseVersion(s string) (Version, error) {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, "-+ "); i >= 0 {
		s = s[:i]
	}
	parts := strings.Split(s, ".")
	if len(parts) < 2 || len(parts) > 3 {
		return Version{}, fmt.Errorf("spark version %q: want MAJOR.MINOR[.PATCH]", s)
	}
	v := Version{Patch: -1}
	nums := []*int{&v.Major, &v.Minor, &v.Patch}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return Version{}, fmt.Errorf("spark version %q: %q is not a number", s, p)
		}
		*nums[i] = n
	}
	if v.Major < 3 || v.Major > 4 {
		return Version{}, fmt.Errorf("spark version %q: only Spark 3.x and 4.x are modelled", s)
	}
	return v, nil
}

// String prints the version as given.
func (v Version) String() string {
	if v.Patch < 0 {
		return fmt.Sprintf("%d.%d", v.Major, v.Minor)
	}
	return fmt.Sprintf("%d.%d.%d", v.Major, v.Minor, v.Patch)
}

// AtLeast reports whether v is major.minor.patch or later; a version given without a patch
// counts as the latest patch of its minor release.
func (v Version) AtLeast(major, minor, patch int) bool {
	if v.Major != major {
		return v.Major > major
	}
	if v.Minor != minor {
		return v.Minor > minor
	}
	return v.Patch < 0 || v.Patch >= patch
}

// Era returns the co-partitioning era of the version.
func (v Version) Era() Era {
	switch {
	case v.AtLeast(3, 3, 0):
		return EraC
	case v.AtLeast(3, 0, 2):
		return EraB
	}
	return EraA
}

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
	// type typ equals the SQL literal lit (42, 'abc', DATE '2024-01-31', NULL), and false when
	// it cannot tell. It is Spark's Murmur3 and pmod, supplied by the caller (engine/hash's
	// BucketOfLiteral) so that this package keeps to the plan model; nil leaves bucket pruning
	// unmodelled and every bucket selected.
	BucketOf func(typ, lit string, n int) (int, bool)
}

// Configuration keys the model reads.
const (
	ConfShufflePartitions       = "spark.sql.shuffle.partitions"
	ConfBroadcastThreshold      = "spark.sql.autoBroadcastJoinThreshold"
	ConfBucketingEnabled        = "spark.sql.sources.bucketing.enabled"
	ConfAutoBucketedScan        = "spark.sql.sources.bucketing.autoBucketedScan.enabled"
	ConfCoalesceBuckets         = "spark.sql.bucketing.coalesceBucketsInJoin.enabled"
	ConfCoalesceMaxRatio        = "spark.sql.bucketing.coalesceBucketsInJoin.maxBucketRatio"
	ConfRequireAllCoPartition   = "spark.sql.requireAllClusterKeysForCoPartition"
	ConfRequireAllDistribution  = "spark.sql.requireAllClusterKeysForDistribution"
	ConfAdaptive                = "spark.sql.adaptive.enabled"
	ConfAdaptiveCoalesce        = "spark.sql.adaptive.coalescePartitions.enabled"
	ConfInitialPartitionNum     = "spark.sql.adaptive.coalescePartitions.initialPartitionNum"
	ConfPreferSortMergeJoin     = "spark.sql.join.preferSortMergeJoin"
	ConfShuffledHashJoinFactor  = "spark.sql.shuffledHashJoinFactor"
	ConfLegacyOutputOrdering    = "spark.sql.legacy.bucketedTableScan.outputOrdering"
	ConfV2Bucketing             = "spark.sql.sources.v2.bucketing.enabled"
	ConfMaxSinglePartitionBytes = "spark.sql.maxSinglePartitionBytes"
	ConfUnionOutputPartitioning = "spark.sql.unionOutputPartitioning"
	ConfANSI                    = "spark.sql.ansi.enabled"
	ConfBHJExpandLimit          = "spark.sql.execution.broadcastHashJoin.outputPartitioningExpandLimit"
	ConfConvertMetastoreParquet = "spark.sql.hive.convertMetastoreParquet"
	ConfConvertMetastoreOrc     = "spark.sql.hive.convertMetastoreOrc"
)

// Version returns the modelled version, 3.5 when unset.
func (o Options) Version() Version {
	if o.SparkVersion.Major == 0 {
		return Version{Major: 3, Minor: 5, Patch: -1}
	}
	return o.SparkVersion
}

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
func (o Options) ShufflePartitions() int { return o.intConf(ConfShufflePartitions, 200) }

// BroadcastThreshold is spark.sql.autoBroadcastJoinThreshold in bytes (default 10MB); -1
// disables size-based broadcast.
func (o Options) BroadcastThreshold() int64 {
	v, ok := o.raw(ConfBroadcastThreshold)
	if !ok {
		return 10 << 20
	}
	n, err := ParseBytes(v)
	if err != nil {
		return 10 << 20
	}
	return n
}

// BucketingEnabled is spark.sql.sources.bucketing.enabled (default true).
func (o Options) BucketingEnabled() bool { return o.boolConf(ConfBucketingEnabled, true) }

// AutoBucketedScan is spark.sql.sources.bucketing.autoBucketedScan.enabled (3.1+, default
// true); always false before 3.1, where DisableUnnecessaryBucketedScan does not exist.
func (o Options) AutoBucketedScan() bool {
	return o.Version().AtLeast(3, 1, 0) && o.boolConf(ConfAutoBucketedScan, true)
}

// CoalesceBuckets is spark.sql.bucketing.coalesceBucketsInJoin.enabled (3.1+, default false).
func (o Options) CoalesceBuckets() bool {
	return o.Version().AtLeast(3, 1, 0) && o.boolConf(ConfCoalesceBuckets, false)
}

// CoalesceMaxRatio is spark.sql.bucketing.coalesceBucketsInJoin.maxBucketRatio (default 4).
func (o Options) CoalesceMaxRatio() int { return o.intConf(ConfCoalesceMaxRatio, 4) }

// RequireAllClusterKeysForCoPartition is the 3.3+ internal conf (default true).
func (o Options) RequireAllClusterKeysForCoPartition() bool {
	return o.boolConf(ConfRequireAllCoPartition, true)
}

// RequireAllClusterKeysForDistribution is the 3.3+ internal conf (default false).
func (o Options) RequireAllClusterKeysForDistribution() bool {
	return o.Version().AtLeast(3, 3, 0) && o.boolConf(ConfRequireAllDistribution, false)
}

// Adaptive is spark.sql.adaptive.enabled: default false in 3.0 and 3.1, true from 3.2.0.
func (o Options) Adaptive() bool {
	return o.boolConf(ConfAdaptive, o.Version().AtLeast(3, 2, 0))
}

// NewShufflePartitions is the width of a new shuffle (SQLConf.numShufflePartitions):
// spark.sql.adaptive.coalescePartitions.initialPartitionNum when AQE and partition coalescing
// are on and it is set, else spark.sql.shuffle.partitions.
func (o Options) NewShufflePartitions() int {
	if o.Adaptive() && o.boolConf(ConfAdaptiveCoalesce, true) {
		if n := o.intConf(ConfInitialPartitionNum, 0); n > 0 {
			return n
		}
	}
	return o.ShufflePartitions()
}

// PreferSortMergeJoin is spark.sql.join.preferSortMergeJoin (default true).
func (o Options) PreferSortMergeJoin() bool { return o.boolConf(ConfPreferSortMergeJoin, true) }

// ShuffledHashJoinFactor is spark.sql.shuffledHashJoinFactor (3.3+, default 3).
func (o Options) ShuffledHashJoinFactor() int { return o.intConf(ConfShuffledHashJoinFactor, 3) }

// LegacyOutputOrdering is spark.sql.legacy.bucketedTableScan.outputOrdering (default false).
func (o Options) LegacyOutputOrdering() bool { return o.boolConf(ConfLegacyOutputOrdering, false) }

// V2Bucketing is spark.sql.sources.v2.bucketing.enabled (storage-partitioned join; not
// modelled beyond being reported).
func (o Options) V2Bucketing() bool { return o.boolConf(ConfV2Bucketing, false) }

// BHJExpandLimit is spark.sql.execution.broadcastHashJoin.outputPartitioningExpandLimit (3.1+,
// default 8; 0 before 3.1, where BroadcastHashJoinExec does not expand its partitioning).
func (o Options) BHJExpandLimit() int {
	if !o.Version().AtLeast(3, 1, 0) {
		return 0
	}
	return o.intConf(ConfBHJExpandLimit, 8)
}

// MaxSinglePartitionBytes is spark.sql.maxSinglePartitionBytes (3.4+): unlimited (-1 here,
// Long.MaxValue in Spark) in 3.4 and 3.5, 128m from 4.0.
func (o Options) MaxSinglePartitionBytes() int64 {
	def := int64(-1)
	if o.Version().AtLeast(4, 0, 0) {
		def = 128 << 20
	}
	v, ok := o.raw(ConfMaxSinglePartitionBytes)
	if !ok {
		return def
	}
	n, err := ParseBytes(v)
	if err != nil {
		return def
	}
	return n
}

// ConvertMetastoreParquet is spark.sql.hive.convertMetastoreParquet (default true): Hive
// tables with a Parquet serde are read by Spark's Parquet source, a FileScan.
func (o Options) ConvertMetastoreParquet() bool { return o.boolConf(ConfConvertMetastoreParquet, true) }

// ConvertMetastoreOrc is spark.sql.hive.convertMetastoreOrc (default true since 2.4): Hive
// tables with an ORC serde are read by Spark's ORC source, a FileScan.
func (o Options) ConvertMetastoreOrc() bool { return o.boolConf(ConfConvertMetastoreOrc, true) }

// ANSI is spark.sql.ansi.enabled: default false in 3.x, true from 4.0.
func (o Options) ANSI() bool {
	return o.boolConf(ConfANSI, o.Version().AtLeast(4, 0, 0))
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

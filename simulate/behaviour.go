package simulate

import "sync"

// This file is Spark's version behaviour in one table: the releases bucketlint models, what
// each one changed, and the configuration defaults the simulator and the rules read. Nothing
// else in the module compares Spark versions; code reads a named field of Behaviour.
//
// Sources, so that each boundary can be re-checked: Spark's SQLConf.scala (`.version(...)` and
// `createWithDefault`), `SET -v` on pyspark 3.5.9 and 4.3.0 (the "since" column and the value of
// every key named here), docs/sql-migration-guide.md, the apache/spark pull requests named by
// their SPARK- number (merge dates against the branch cuts), and reference/spark-planner.md,
// which records the release tags read for each planner rule.

// An Era is one version range of Spark's co-partitioning algorithm in EnsureRequirements
// (reference/spark-planner.md §1.6). Code asks an Era what it does (ShuffleSpecs,
// FloorsUnshuffled); it never compares eras.
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

// ShuffleSpecs reports whether EnsureRequirements co-partitions a multi-child operator by
// ShuffleSpec compatibility (era C, SPARK-35703), where sort-merge and shuffled hash joins
// require a ClusteredDistribution of each side's keys, so that a side hash-partitioned on a
// subset of its join keys can satisfy it. Before, joins require HashClusteredDistribution
// (exactly the keys, in order) and the children are co-partitioned by partition count.
func (e Era) ShuffleSpecs() bool { return e == EraC }

// FloorsUnshuffled reports whether the co-partitioning target count is floored at
// spark.sql.shuffle.partitions even when no child is a shuffle (era A; SPARK-32767 fixed it in
// 3.0.2). Only meaningful when ShuffleSpecs is false.
func (e Era) FloorsUnshuffled() bool { return e == EraA }

// Behaviour is how one Spark version plans (and rejects) what bucketlint models: one named
// field per difference between versions, chosen once from the version by BehaviourOf. Each
// field's comment gives the release that introduced it and its source.
type Behaviour struct {
	// Version is the version the behaviour was chosen for.
	Version Version
	// CoPartition is the co-partitioning era of EnsureRequirements.
	CoPartition Era
	// Defaults are the version's configuration defaults.
	Defaults ConfDefaults

	// ShuffleOrigin: a ShuffleExchangeExec records and prints its ShuffleOrigin
	// (ENSURE_REQUIREMENTS, …) from 3.1.0; 3.0 prints noUserSpecifiedNumPartition instead
	// (reference/spark-planner.md §1, read from the v3.0.x and v3.1.1 tags).
	ShuffleOrigin bool
	// RepartitionOrigins: user repartitions are REPARTITION_BY_COL / REPARTITION_BY_NUM from
	// 3.2.0 (ShuffleExchangeExec.scala; reference/spark-planner.md §1 reads REPARTITION in 3.1).
	RepartitionOrigins bool
	// RemoveRedundantRepartition: EnsureRequirements drops a user repartition whose child is
	// already hash-partitioned the same way, PartitioningCollection members included (3.2.0,
	// SPARK-35675; EnsureRequirementsSuite).
	RemoveRedundantRepartition bool
	// RebalanceHint: the REBALANCE hint plans a RebalancePartitions shuffle under adaptive
	// execution (3.2.0, SPARK-35786, with the REBALANCE_PARTITIONS_BY_* origins).
	RebalanceHint bool
	// ReorderJoinKeysFallback: EnsureRequirements.reorderJoinPredicates tries the members of a
	// PartitioningCollection and falls back from one side to the other (3.1.0, SPARK-32282).
	ReorderJoinKeysFallback bool
	// BroadcastJoinExpandsPartitioning: BroadcastHashJoinExec expands its streamed side's
	// partitioning to the build keys, up to
	// spark.sql.execution.broadcastHashJoin.outputPartitioningExpandLimit (3.1.0, internal conf
	// `.version("3.1.0")`).
	BroadcastJoinExpandsPartitioning bool
	// DisableUnnecessaryBucketedScan: the physical rule that reads a bucketed table unbucketed
	// when nothing above needs its partitioning exists, under
	// spark.sql.sources.bucketing.autoBucketedScan.enabled (3.1.0, SPARK-32859; `SET -v` since
	// 3.1.0). It also makes FileSourceScanExec print SelectedBucketsCount only for a scan read
	// as bucketed; 3.0 prints it for every scan of a bucketed table.
	DisableUnnecessaryBucketedScan bool
	// DisablePrunedBucketedScan: DisableUnnecessaryBucketedScan also disables scans with a
	// bucket filter (3.2.0, SPARK-32985 decoupled bucket pruning from the bucketed scan; 3.1
	// keeps every scan with a bucket filter bucketed).
	DisablePrunedBucketedScan bool
	// CoalesceBucketsInJoin: the rule reading the larger side of a join of tables bucketed
	// into counts that divide each other as the smaller count exists, under
	// spark.sql.bucketing.coalesceBucketsInJoin.enabled (3.1.0, SPARK-31350 and SPARK-32286;
	// `SET -v` since 3.1.0).
	CoalesceBucketsInJoin bool
	// CoalesceBucketsUnderAQE: CoalesceBucketsInJoin also runs as a query-stage preparation
	// rule, so it works under adaptive execution (3.5.0, SPARK-43087); before, adaptive
	// execution skips it.
	CoalesceBucketsUnderAQE bool
	// CoalesceThroughBroadcastJoin: CoalesceBucketsInJoin finds the bucketed scan through the
	// streamed side of a broadcast hash or nested-loop join (3.5.0, SPARK-43107).
	CoalesceThroughBroadcastJoin bool
	// ShuffledHashJoinFullOuter: a shuffled hash join can plan a full outer join (3.1.0,
	// SPARK-32399).
	ShuffledHashJoinFullOuter bool
	// ShuffledHashJoinBuildsOuterSide: a shuffled hash join can build the preserved side of a
	// left or right outer join (3.5.0, SPARK-36612).
	ShuffledHashJoinBuildsOuterSide bool
	// ShuffledHashJoinFactorConf: spark.sql.shuffledHashJoinFactor sets how much smaller a
	// build side must be (3.3.0, `SET -v` since 3.3.0); before, the factor is fixed at 3.
	ShuffledHashJoinFactorConf bool
	// RequireAllClusterKeysConfs: spark.sql.requireAllClusterKeysForDistribution and
	// …ForCoPartition exist (3.3.0, SPARK-38237 and the ShuffleSpec work; internal confs).
	RequireAllClusterKeysConfs bool
	// SinglePartitionCreatesPartitioning: SinglePartitionShuffleSpec.canCreatePartitioning is
	// true, so a SinglePartition child can impose one partition on the other side: 3.3.0 only
	// (SPARK-40703, released in 3.3.1 and 3.4.0, made it false).
	SinglePartitionCreatesPartitioning bool
	// SinglePartitionShortcut: children that are all SinglePartition and no larger than
	// spark.sql.maxSinglePartitionBytes need no co-partitioning (3.4.0, SPARK-41986; `SET -v`
	// since 3.4.0).
	SinglePartitionShortcut bool
	// UnionOutputPartitioning: UnionExec reports its children's common partitioning under
	// spark.sql.unionOutputPartitioning (4.1.0, SPARK-52921); before, UnknownPartitioning.
	UnionOutputPartitioning bool
	// ExplainBucketedField: a FileSourceScanExec of a bucketed table prints "Bucketed: true" or
	// "Bucketed: false (reason)" (3.3.0, SPARK-32986).
	ExplainBucketedField bool
	// HiveBucketedWrite: Spark writes Hive-compatible buckets into a Hive-serde bucketed table;
	// before, inserting into one fails unless hive.enforce.bucketing and hive.enforce.sorting
	// are false (3.3.0, SPARK-32709 and SPARK-32712).
	HiveBucketedWrite bool
	// ErrorClasses: DataFrameWriter and BucketSpec errors come from error classes:
	// "[SORT_BY_WITHOUT_BUCKETING] …", legacy messages capitalised and ending with a period
	// (3.4.0; reference/spark-planner.md §3).
	ErrorClasses bool
	// CreateHiveTableConf: spark.sql.legacy.createHiveTableByDefault exists (3.1.0,
	// SPARK-30098); in 3.0 a CREATE TABLE without USING or STORED AS is always a Hive table.
	CreateHiveTableConf bool
	// StoragePartitionedJoin: a DataSource V2 scan's reported partitioning is a
	// KeyGroupedPartitioning that EnsureRequirements uses to join without a shuffle, under
	// spark.sql.sources.v2.bucketing.enabled (3.3.0: the setting is in 3.3.4's SQLConf).
	StoragePartitionedJoin bool
	// SPJPushPartValues: spark.sql.sources.v2.bucketing.pushPartValues.enabled and
	// …partiallyClusteredDistribution.enabled exist (3.4.0: in 3.4.4's SQLConf, not in 3.3.4's).
	SPJPushPartValues bool
	// SPJShuffleOneSide: spark.sql.sources.v2.bucketing.shuffle.enabled,
	// …allowJoinKeysSubsetOfPartitionKeys.enabled and …allowCompatibleTransforms.enabled exist
	// (4.0.0: in 4.0.5's SQLConf, not in 3.5.9's).
	SPJShuffleOneSide bool
	// HashNegativeZeroAsZero: Murmur3Hash and HiveHash hash float and double -0.0 as 0.0 (3.2.0,
	// SPARK-35207); engine/hash.OptionsFor models the same boundary for bucket ids.
	HashNegativeZeroAsZero bool
}

// ConfDefaults are the defaults of the Spark configuration keys the simulator and the rules
// read, in one version. The comment of each gives the key, the release it appeared in (`SET -v`
// "since", or the SQLConf `.version(...)` of an internal key) and when its default changed.
type ConfDefaults struct {
	// ShufflePartitions is spark.sql.shuffle.partitions: 200 (1.1.0).
	ShufflePartitions int
	// AutoBroadcastJoinThreshold is spark.sql.autoBroadcastJoinThreshold in bytes: 10MB (1.1.0).
	AutoBroadcastJoinThreshold int64
	// BucketingEnabled is spark.sql.sources.bucketing.enabled: true (2.0.0).
	BucketingEnabled bool
	// MaxBuckets is spark.sql.sources.bucketing.maxBuckets: 100000 (2.4.0).
	MaxBuckets int
	// AutoBucketedScan is spark.sql.sources.bucketing.autoBucketedScan.enabled: true (3.1.0).
	AutoBucketedScan bool
	// CoalesceBucketsInJoin is spark.sql.bucketing.coalesceBucketsInJoin.enabled: false (3.1.0).
	CoalesceBucketsInJoin bool
	// CoalesceMaxBucketRatio is spark.sql.bucketing.coalesceBucketsInJoin.maxBucketRatio: 4
	// (3.1.0).
	CoalesceMaxBucketRatio int
	// Adaptive is spark.sql.adaptive.enabled: false, true from 3.2.0 (SPARK-33679; migration
	// guide "In Spark 3.2, spark.sql.adaptive.enabled is enabled by default").
	Adaptive bool
	// AdaptiveCoalescePartitions is spark.sql.adaptive.coalescePartitions.enabled: true (3.0.0).
	AdaptiveCoalescePartitions bool
	// PreferSortMergeJoin is spark.sql.join.preferSortMergeJoin (internal): true (2.0.0).
	PreferSortMergeJoin bool
	// ShuffledHashJoinFactor is spark.sql.shuffledHashJoinFactor: 3 (3.3.0).
	ShuffledHashJoinFactor int
	// LegacyBucketedOutputOrdering is spark.sql.legacy.bucketedTableScan.outputOrdering
	// (internal): false (3.0.0, SPARK-28595).
	LegacyBucketedOutputOrdering bool
	// RequireAllClusterKeysForCoPartition is spark.sql.requireAllClusterKeysForCoPartition
	// (internal): true (3.3.0).
	RequireAllClusterKeysForCoPartition bool
	// RequireAllClusterKeysForDistribution is spark.sql.requireAllClusterKeysForDistribution
	// (internal): false (3.3.0, SPARK-38237).
	RequireAllClusterKeysForDistribution bool
	// V2Bucketing is spark.sql.sources.v2.bucketing.enabled: false (3.3.0), true from 4.1.0
	// (SPARK-51064; 3.5.9 reports false, 4.3.0 true).
	V2Bucketing bool
	// V2BucketingPushPartValues is spark.sql.sources.v2.bucketing.pushPartValues.enabled: false
	// (3.4.0), true from 4.0.0 (SPARK-48329).
	V2BucketingPushPartValues bool
	// MaxSinglePartitionBytes is spark.sql.maxSinglePartitionBytes (3.4.0): unlimited (-1 here,
	// Long.MaxValue in Spark), 128m from 4.0.0 (SPARK-44938).
	MaxSinglePartitionBytes int64
	// UnionOutputPartitioning is spark.sql.unionOutputPartitioning (internal): true (4.1.0,
	// SPARK-52921).
	UnionOutputPartitioning bool
	// ANSI is spark.sql.ansi.enabled: false (3.0.0), true from 4.0.0 (SPARK-44444).
	ANSI bool
	// BroadcastHashJoinExpandLimit is
	// spark.sql.execution.broadcastHashJoin.outputPartitioningExpandLimit (internal): 8 (3.1.0).
	BroadcastHashJoinExpandLimit int
	// ConvertMetastoreParquet is spark.sql.hive.convertMetastoreParquet: true (1.1.1).
	ConvertMetastoreParquet bool
	// ConvertMetastoreOrc is spark.sql.hive.convertMetastoreOrc: true (2.0.0; default true
	// since 2.4).
	ConvertMetastoreOrc bool
	// CreateHiveTableByDefault is spark.sql.legacy.createHiveTableByDefault: true (3.1.0; 3.0
	// has no key and always creates Hive tables), false from 4.0.0 (SPARK-46122).
	CreateHiveTableByDefault bool
	// SourcesDefault is spark.sql.sources.default, the format of a table written or created
	// without one: "parquet" (1.3.0).
	SourcesDefault string
}

// A release is one row of the behaviour table: a Spark release and what it changed relative
// to the row before.
type release struct {
	v      Version
	change func(b *Behaviour)
}

// releases is the behaviour table, oldest first. The first row sets every field; each later
// row changes only what that release changed. A release that changed nothing bucketlint models
// still has a row, because the rows are also the supported versions.
//
// Adding a Spark version touches: one row here (with what it changed, if anything, each change
// with its source), a boundary case in behaviour_test.go for each changed field, and recordings
// of the release under oracle/ (fixtures and corpus) for the agreement tests. Catalogue cases
// that state ranges (`3.3+`) run on it without edits; a case whose plan the release changes
// gets a new line for it.
func releases() []release {
	return []release{
		{Version{3, 0, 0}, func(b *Behaviour) {
			b.CoPartition = EraA
			b.Defaults = ConfDefaults{
				ShufflePartitions:                   200,
				AutoBroadcastJoinThreshold:          10 << 20,
				BucketingEnabled:                    true,
				MaxBuckets:                          100000,
				AutoBucketedScan:                    true,
				CoalesceMaxBucketRatio:              4,
				AdaptiveCoalescePartitions:          true,
				PreferSortMergeJoin:                 true,
				ShuffledHashJoinFactor:              3,
				RequireAllClusterKeysForCoPartition: true,
				MaxSinglePartitionBytes:             -1,
				UnionOutputPartitioning:             true,
				BroadcastHashJoinExpandLimit:        8,
				ConvertMetastoreParquet:             true,
				ConvertMetastoreOrc:                 true,
				CreateHiveTableByDefault:            true,
				SourcesDefault:                      "parquet",
			}
		}},
		// SPARK-32767: no floor at spark.sql.shuffle.partitions when no child is a shuffle.
		{Version{3, 0, 2}, func(b *Behaviour) { b.CoPartition = EraB }},
		{Version{3, 1, 0}, func(b *Behaviour) {
			b.ShuffleOrigin = true
			b.ReorderJoinKeysFallback = true
			b.BroadcastJoinExpandsPartitioning = true
			b.DisableUnnecessaryBucketedScan = true
			b.CoalesceBucketsInJoin = true
			b.ShuffledHashJoinFullOuter = true
			b.CreateHiveTableConf = true
		}},
		{Version{3, 2, 0}, func(b *Behaviour) {
			b.Defaults.Adaptive = true
			b.RepartitionOrigins = true
			b.RemoveRedundantRepartition = true
			b.RebalanceHint = true
			b.DisablePrunedBucketedScan = true
			b.HashNegativeZeroAsZero = true
		}},
		{Version{3, 3, 0}, func(b *Behaviour) {
			b.CoPartition = EraC
			b.ShuffledHashJoinFactorConf = true
			b.RequireAllClusterKeysConfs = true
			b.SinglePartitionCreatesPartitioning = true
			b.ExplainBucketedField = true
			b.HiveBucketedWrite = true
			b.StoragePartitionedJoin = true
		}},
		// SPARK-40703: a SinglePartition child no longer imposes one partition on the others.
		{Version{3, 3, 1}, func(b *Behaviour) { b.SinglePartitionCreatesPartitioning = false }},
		{Version{3, 4, 0}, func(b *Behaviour) {
			b.SinglePartitionShortcut = true
			b.ErrorClasses = true
			b.SPJPushPartValues = true
		}},
		{Version{3, 5, 0}, func(b *Behaviour) {
			b.CoalesceBucketsUnderAQE = true
			b.CoalesceThroughBroadcastJoin = true
			b.ShuffledHashJoinBuildsOuterSide = true
		}},
		{Version{4, 0, 0}, func(b *Behaviour) {
			b.Defaults.ANSI = true
			b.Defaults.MaxSinglePartitionBytes = 128 << 20
			b.Defaults.V2BucketingPushPartValues = true
			b.Defaults.CreateHiveTableByDefault = false
			b.SPJShuffleOneSide = true
		}},
		{Version{4, 1, 0}, func(b *Behaviour) {
			b.UnionOutputPartitioning = true
			b.Defaults.V2Bucketing = true
		}},
		{Version{4, 2, 0}, nil},
		{Version{4, 3, 0}, nil},
	}
}

// BehaviourOf returns the behaviour of Spark version v: every row of the table up to v
// applied in order. A version older than the table's first row behaves as the first row (and
// ParseVersion refuses it); one newer than the last behaves as the last.
func BehaviourOf(v Version) Behaviour {
	if b, ok := behaviours.Load(v); ok {
		return b.(Behaviour) //nolint:forcetypeassert // only Behaviours are stored
	}
	b := behaviourOf(v)
	behaviours.Store(v, b)
	return b
}

// behaviours keeps BehaviourOf's results by version (a Behaviour holds values only, so a copy
// is the caller's own): every simulation asks for one, and building it anew allocated about
// 20 KB a query, a third of what `check` allocated on a file of many join queries (issue 14).
var behaviours sync.Map //nolint:gochecknoglobals // a cache of a pure function of the version

func behaviourOf(v Version) Behaviour {
	b := Behaviour{Version: v}
	for i, r := range releases() {
		if i > 0 && !v.AtLeast(r.v.Major, r.v.Minor, r.v.Patch) {
			break
		}
		if r.change != nil {
			r.change(&b)
		}
	}
	return b
}

// DefaultVersion is the Spark version modelled when none is given: 3.5.
func DefaultVersion() Version { return Version{Major: 3, Minor: 5, Patch: -1} }

// SupportedVersions are the Spark minor series the behaviour table covers, oldest first, each
// without a patch (the latest patch release of the series): 3.0 … 4.3.
func SupportedVersions() []Version {
	var out []Version
	for _, r := range releases() {
		if s := r.v.series(); len(out) == 0 || out[len(out)-1] != s {
			out = append(out, s)
		}
	}
	return out
}

// DistinctVersions are the versions that together show every behaviour of the table, oldest
// first: each supported series, preceded by the earliest release of the series when that
// behaves otherwise (3.0.0, era A, before 3.0; 3.3.0 before 3.3). Version ranges in tests
// expand over these.
func DistinctVersions() []Version {
	var out []Version
	for _, s := range SupportedVersions() {
		first := Version{Major: s.Major, Minor: s.Minor, Patch: 0}
		if !sameBehaviour(BehaviourOf(first), BehaviourOf(s)) {
			out = append(out, first)
		}
		out = append(out, s)
	}
	return out
}

// sameBehaviour reports whether two versions behave alike in every field but Version.
func sameBehaviour(a, b Behaviour) bool {
	a.Version, b.Version = Version{}, Version{}
	return a == b
}

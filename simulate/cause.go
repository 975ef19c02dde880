package simulate

// A Cause is the typed reason of one Decision: for an inserted Exchange, why the side is
// shuffled; for a Sort, that an ordering is required; for a side left as it is, why it needs
// nothing. It is set where the simulator decides, next to the prose of Decision.Reason, so
// that no caller reads the prose to tell causes apart. The zero value is CauseUnknown.
type Cause uint8

// The causes. New values are added at the end; the names (String) are stable, as
// `simulate --format json` prints them.
const (
	// CauseUnknown is a decision the simulator does not classify (or does not model).
	CauseUnknown Cause = iota

	// CauseUnbucketed: the side reads a table without a bucket spec.
	CauseUnbucketed
	// CauseUnknownTable: the side reads a table with no DDL or catalog entry, whose layout is
	// unknown (it is planned as unbucketed).
	CauseUnknownTable
	// CauseBucketKeysSubset: the side is bucketed (hash-partitioned) on only some of the keys.
	CauseBucketKeysSubset
	// CauseBucketKeysSuperset: the side is bucketed on the keys and on columns that are not keys.
	CauseBucketKeysSuperset
	// CauseBucketKeysDifferent: the side is bucketed on columns that are not the keys.
	CauseBucketKeysDifferent
	// CauseKeyOrder: both sides are bucketed on the keys, but the columns pair up in a
	// different order.
	CauseKeyOrder
	// CauseKeyCast: a key is a cast of the bucket column (a type mismatch), which never
	// matches the bucket column.
	CauseKeyCast
	// CauseCountMismatch: the sides' bucket (partition) counts differ.
	CauseCountMismatch
	// CauseShufflePartitions: before 3.3, spark.sql.shuffle.partitions above the bucket count
	// re-shuffles a side that was bucketed on the keys.
	CauseShufflePartitions
	// CauseCoalesceOff: the counts differ and bucket coalescing would reconcile them, but
	// spark.sql.bucketing.coalesceBucketsInJoin.enabled is false.
	CauseCoalesceOff
	// CauseCoalesceSkipped: as CauseCoalesceOff, but coalescing is on and adaptive execution
	// skips it (before 3.5).
	CauseCoalesceSkipped
	// CauseJoinStrategy: the join strategy keeps the layout from being used: a shuffled hash
	// join whose build side is the one bucket coalescing would read coalesced.
	CauseJoinStrategy
	// CauseBucketingDisabled: spark.sql.sources.bucketing.enabled=false.
	CauseBucketingDisabled
	// CauseBucketColumnNotRead: the query does not read every bucket column, so the scan is
	// not bucketed.
	CauseBucketColumnNotRead
	// CauseScanDisabled: the bucketed scan was disabled by the query planner
	// (DisableUnnecessaryBucketedScan); known from printed plans only.
	CauseScanDisabled
	// CauseHiveTable: a Hive-format table, which Spark never reads as bucketed.
	CauseHiveTable
	// CauseUnsupportedFormat: a format that cannot be bucketed (Delta).
	CauseUnsupportedFormat
	// CauseDataSourceV2: a DataSource V2 table; storage-partitioned joins are not modelled.
	CauseDataSourceV2
	// CauseCached: the table is read from the cache.
	CauseCached
	// CauseReadByPath: the table's files are read by path, without the bucket spec.
	CauseReadByPath
	// CauseDerivedChild: the side is not a bucketed scan but the output of a subquery, an
	// aggregate, a union or a join, partitioned otherwise than the keys need.
	CauseDerivedChild
	// CauseSinglePartition: the operator needs every row in one partition (no grouping keys).
	CauseSinglePartition
	// CauseRangePartitioning: ORDER BY needs a range partitioning.
	CauseRangePartitioning
	// CauseOrdering: the operator requires an ordering its child does not have (a Sort).
	CauseOrdering

	// CauseSatisfied: the side's partitioning already satisfies the requirement.
	CauseSatisfied
	// CauseCoalesced: bucket coalescing reads the side coalesced, avoiding a shuffle.
	CauseCoalesced
	// CauseSorted: the side is already sorted as required.
	CauseSorted
	// CauseRepartitionRemoved: a user repartition the input already provides is dropped.
	CauseRepartitionRemoved
	// CauseBroadcast: the side is broadcast (a hint or its size), so the join needs no shuffle.
	CauseBroadcast

	// CauseRequested: the query asked for the shuffle (repartition, DISTRIBUTE BY,
	// rebalance); known from printed plans.
	CauseRequested

	// CauseSPJOff: the side reads a table partitioned by v2 transforms (Iceberg's bucket(n, c)),
	// but a storage-partitioned join is off: spark.sql.sources.v2.bucketing.enabled or Iceberg's
	// spark.sql.iceberg.planning.preserve-data-grouping is false.
	CauseSPJOff
	// CauseTransformMismatch: both sides are key-grouped (storage-partitioned) on the keys, but
	// by different transforms (bucket(8, k) and bucket(4, k)) or partitions.
	CauseTransformMismatch
	// CauseKeyGroupedOneSide: the side is key-grouped on the keys, but the other side is not,
	// and a key-grouped layout cannot be imposed on it (before 4.0, or without
	// spark.sql.sources.v2.bucketing.shuffle.enabled), so both are shuffled.
	CauseKeyGroupedOneSide

	numCauses
)

// String is the cause's stable name: "count-mismatch", "key-cast", …; "unknown" for
// CauseUnknown and any value out of range.
func (c Cause) String() string {
	switch c {
	case CauseUnbucketed:
		return "unbucketed"
	case CauseUnknownTable:
		return "unknown-table"
	case CauseBucketKeysSubset:
		return "bucket-keys-subset"
	case CauseBucketKeysSuperset:
		return "bucket-keys-superset"
	case CauseBucketKeysDifferent:
		return "bucket-keys-different"
	case CauseKeyOrder:
		return "key-order"
	case CauseKeyCast:
		return "key-cast"
	case CauseCountMismatch:
		return "count-mismatch"
	case CauseShufflePartitions:
		return "shuffle-partitions"
	case CauseCoalesceOff:
		return "coalesce-off"
	case CauseCoalesceSkipped:
		return "coalesce-skipped"
	case CauseJoinStrategy:
		return "join-strategy"
	case CauseBucketingDisabled:
		return "bucketing-disabled"
	case CauseBucketColumnNotRead:
		return "bucket-column-not-read"
	case CauseScanDisabled:
		return "scan-disabled"
	case CauseHiveTable:
		return "hive-table"
	case CauseUnsupportedFormat:
		return "unsupported-format"
	case CauseDataSourceV2:
		return "datasource-v2"
	case CauseCached:
		return "cached"
	case CauseReadByPath:
		return "read-by-path"
	case CauseDerivedChild:
		return "derived-child"
	case CauseSinglePartition:
		return "single-partition"
	case CauseRangePartitioning:
		return "range-partitioning"
	case CauseOrdering:
		return "ordering"
	case CauseSatisfied:
		return "satisfied"
	case CauseCoalesced:
		return "coalesced"
	case CauseSorted:
		return "sorted"
	case CauseRepartitionRemoved:
		return "repartition-removed"
	case CauseBroadcast:
		return "broadcast"
	case CauseRequested:
		return "requested"
	case CauseSPJOff:
		return "spj-off"
	case CauseTransformMismatch:
		return "transform-mismatch"
	case CauseKeyGroupedOneSide:
		return "key-grouped-one-side"
	}
	return "unknown"
}

// Causes lists every cause, CauseUnknown first.
func Causes() []Cause {
	out := make([]Cause, numCauses)
	for i := range out {
		out[i] = Cause(i)
	}
	return out
}

// Shuffles reports whether the cause is one of a shuffle (an inserted Exchange): neither a
// Sort's nor a side that needs nothing.
func (c Cause) Shuffles() bool {
	return (c > CauseUnknown && c < CauseOrdering) || c == CauseRequested || c >= CauseSPJOff && c < numCauses
}

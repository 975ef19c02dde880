package plan

// A PartitioningKind names one of Spark's physical partitionings
// (org.apache.spark.sql.catalyst.plans.physical.Partitioning subclasses), as printed in an
// Exchange's arguments.
type PartitioningKind string

// The partitionings Spark prints. Unrecognised text keeps its printed name as the kind.
const (
	HashPartitioning       PartitioningKind = "hashpartitioning"
	RangePartitioning      PartitioningKind = "rangepartitioning"
	SinglePartition        PartitioningKind = "SinglePartition"
	RoundRobinPartitioning PartitioningKind = "RoundRobinPartitioning"
	UnknownPartitioning    PartitioningKind = "UnknownPartitioning"
	KeyGroupedPartitioning PartitioningKind = "KeyGroupedPartitioning"
	// BroadcastPartitioning is what a BroadcastExchange provides; it is never printed as an
	// Exchange argument but the simulator needs it.
	BroadcastPartitioning PartitioningKind = "BroadcastPartitioning"
)

// A Partitioning is how an operator's output rows are spread over partitions.
type Partitioning struct {
	Kind PartitioningKind
	// Keys are the hash keys of hashpartitioning (and the expressions of other keyed kinds).
	Keys []Expr
	// Orders are the keys of rangepartitioning.
	Orders []SortOrder
	// NumPartitions is the partition count; 0 when Spark did not print one, except for
	// SinglePartition, whose count is always 1 (Spark's SinglePartition.numPartitions).
	NumPartitions int
	// Raw is the partitioning text as printed, for kinds not modelled in detail.
	Raw string
}

// A DistributionKind names a required child distribution
// (org.apache.spark.sql.catalyst.plans.physical.Distribution subclasses).
type DistributionKind string

// The distributions an operator can require of a child.
const (
	UnspecifiedDistribution   DistributionKind = "UnspecifiedDistribution"
	AllTuples                 DistributionKind = "AllTuples"
	ClusteredDistribution     DistributionKind = "ClusteredDistribution"
	HashClusteredDistribution DistributionKind = "HashClusteredDistribution" // Spark 3.0–3.2
	StatefulOpClustered       DistributionKind = "StatefulOpClusteredDistribution"
	OrderedDistribution       DistributionKind = "OrderedDistribution"
	BroadcastDistribution     DistributionKind = "BroadcastDistribution"
)

// A Distribution is what an operator requires of one child's partitioning.
type Distribution struct {
	Kind DistributionKind
	// Keys are the clustering keys of clustered distributions.
	Keys []Expr
	// Orders are the keys of OrderedDistribution.
	Orders []SortOrder
	// RequiredNumPartitions is the partition count the distribution demands, 0 when any will do.
	RequiredNumPartitions int
}

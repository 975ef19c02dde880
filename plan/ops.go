package plan

// Exchange is ShuffleExchangeExec: a shuffle that repartitions its child.
type Exchange struct {
	OpInfo
	Partitioning Partitioning
	// Origin is the shuffle origin printed since Spark 3.1: "ENSURE_REQUIREMENTS" for a
	// shuffle the planner inserted, "REPARTITION_BY_COL", "REPARTITION_BY_NUM", … for one the
	// user asked for. Empty when not printed (2.4, 3.0).
	Origin string
	// NoUserSpecifiedNumPartition is Spark 3.0's boolean in place of the origin ("true" for
	// planner shuffles and repartition(col), "false" for repartition(n, …)); nil when absent.
	NoUserSpecifiedNumPartition *bool
	// AdvisorySize is the advisory partition size argument (3.5+), empty when absent.
	AdvisorySize string
	// PlanID is the "[plan_id=N]" (3.4+) or "[id=#N]" (3.0–3.3) number, empty when absent.
	PlanID string
}

// BroadcastExchange is BroadcastExchangeExec: the build side of a broadcast join is collected
// and sent to every executor. It is not a shuffle.
type BroadcastExchange struct {
	OpInfo
	// Mode is the broadcast mode as printed: "HashedRelationBroadcastMode(List(…),false)" or
	// "IdentityBroadcastMode".
	Mode string
	// Keys are the hashed-relation keys, when the mode has them.
	Keys   []Expr
	PlanID string
}

// ReusedExchange is ReusedExchangeExec: an exchange computed once and read again.
type ReusedExchange struct {
	OpInfo
	Output []Expr
	// ReusesID is formatted mode's "[Reuses operator id: N]", 0 when not printed.
	ReusesID int
	// Reused is the reused exchange as printed after the output in simple mode, nil in
	// formatted mode (where ReusesID names it instead).
	Reused Node
}

// Sort is SortExec.
type Sort struct {
	OpInfo
	Orders []SortOrder
	// Global is true for a total order (ORDER BY), false for a per-partition sort such as the
	// one a SortMergeJoin requires.
	Global bool
}

// A JoinStrategy names a physical join operator.
type JoinStrategy string

// The physical join operators.
const (
	SortMergeJoinStrategy           JoinStrategy = "SortMergeJoin"
	ShuffledHashJoinStrategy        JoinStrategy = "ShuffledHashJoin"
	BroadcastHashJoinStrategy       JoinStrategy = "BroadcastHashJoin"
	BroadcastNestedLoopJoinStrategy JoinStrategy = "BroadcastNestedLoopJoin"
	CartesianProductStrategy        JoinStrategy = "CartesianProduct"
)

// Join is what every physical join operator shares.
type Join struct {
	Strategy JoinStrategy
	// Type is the join type as printed: "Inner", "LeftOuter", "RightOuter", "FullOuter",
	// "LeftSemi", "LeftAnti", "Cross", "ExistenceJoin(exists#1)".
	Type      string
	LeftKeys  []Expr
	RightKeys []Expr
	// BuildSide is "BuildLeft" or "BuildRight" for hash and nested-loop joins, empty otherwise.
	BuildSide string
	// Condition is the non-equi join condition, nil when none.
	Condition *Expr
	// Skew is set for "SortMergeJoin(skew=true)" and "ShuffledHashJoin(skew=true)".
	Skew bool
	// NullAware is BroadcastHashJoin's trailing null-aware anti join flag (3.1+).
	NullAware bool
}

// SortMergeJoin is SortMergeJoinExec.
type SortMergeJoin struct {
	OpInfo
	Join
}

// ShuffledHashJoin is ShuffledHashJoinExec.
type ShuffledHashJoin struct {
	OpInfo
	Join
}

// BroadcastHashJoin is BroadcastHashJoinExec.
type BroadcastHashJoin struct {
	OpInfo
	Join
}

// BroadcastNestedLoopJoin is BroadcastNestedLoopJoinExec.
type BroadcastNestedLoopJoin struct {
	OpInfo
	Join
}

// CartesianProduct is CartesianProductExec.
type CartesianProduct struct {
	OpInfo
	Join
}

// JoinOf returns the join fields of a join operator, and false for any other node.
func JoinOf(n Node) (*Join, bool) {
	switch j := n.(type) {
	case *SortMergeJoin:
		return &j.Join, true
	case *ShuffledHashJoin:
		return &j.Join, true
	case *BroadcastHashJoin:
		return &j.Join, true
	case *BroadcastNestedLoopJoin:
		return &j.Join, true
	case *CartesianProduct:
		return &j.Join, true
	}
	return nil, false
}

// An AggregateMode says which half of a two-phase aggregation an operator is.
type AggregateMode string

// Aggregate modes, derived from the function names: Spark prints partial_sum(…) in the
// map-side half and merge_sum(…) when merging partial results.
const (
	PartialAggregate  AggregateMode = "Partial"
	PartialMerge      AggregateMode = "PartialMerge"
	FinalAggregate    AggregateMode = "Final"
	CompleteAggregate AggregateMode = "Complete"
)

// Aggregate is what the aggregate operators share.
type Aggregate struct {
	Keys      []Expr
	Functions []Expr
	// Output is the verbose "output=[…]" list (extended and cost modes), nil otherwise.
	Output []Expr
	Mode   AggregateMode
}

// HashAggregate is HashAggregateExec.
type HashAggregate struct {
	OpInfo
	Aggregate
}

// ObjectHashAggregate is ObjectHashAggregateExec.
type ObjectHashAggregate struct {
	OpInfo
	Aggregate
}

// SortAggregate is SortAggregateExec.
type SortAggregate struct {
	OpInfo
	Aggregate
}

// AggregateOf returns the aggregate fields of an aggregate operator, and false otherwise.
func AggregateOf(n Node) (*Aggregate, bool) {
	switch a := n.(type) {
	case *HashAggregate:
		return &a.Aggregate, true
	case *ObjectHashAggregate:
		return &a.Aggregate, true
	case *SortAggregate:
		return &a.Aggregate, true
	}
	return nil, false
}

// Window is WindowExec: window functions over partitions of its child.
type Window struct {
	OpInfo
	Exprs         []Expr
	PartitionKeys []Expr
	Orders        []SortOrder
}

// Filter is FilterExec.
type Filter struct {
	OpInfo
	Condition Expr
}

// ProjectExec is Spark's ProjectExec. (The name Project is the loaded project's.)
type ProjectExec struct {
	OpInfo
	Exprs []Expr
}

// Union is UnionExec.
type Union struct {
	OpInfo
}

// FileScan is FileSourceScanExec, a scan of a file-based (DataSource V1) table or path:
// "FileScan parquet db.t[…] Batched: true, Bucketed: true, …" in simple mode, "Scan parquet
// db.t" with detail fields in formatted mode. Bucketing is visible here only.
type FileScan struct {
	OpInfo
	// Format is "parquet", "orc", "csv", "json", "text", "avro", ….
	Format string
	// Table is the table identifier as printed ("spark_catalog.default.t", "default.t"); empty
	// for a read by path.
	Table string
	// Output are the columns read.
	Output []Expr
	// Bucketed is the "Bucketed:" field (3.3+): nil when not printed.
	Bucketed *bool
	// BucketedReason is the reason printed after "Bucketed: false": "disabled by
	// configuration", "disabled by query planner", "bucket column(s) not read".
	BucketedReason string
	// BucketedCause is BucketedReason as a value, for callers that tell reasons apart.
	BucketedCause BucketedCause
	// SelectedBuckets and TotalBuckets are "SelectedBucketsCount: k out of n"; 0 when absent.
	SelectedBuckets int
	TotalBuckets    int
	// CoalescedTo is the "(Coalesced to m)" suffix, 0 when absent.
	CoalescedTo int
	// Location is the file index as printed ("InMemoryFileIndex(2 paths)[file:/a, file:/b]");
	// LocationPaths are the paths it lists, in order (none when the index prints none).
	Location      string
	LocationPaths []string
	// PartitionFilters, PushedFilters and DataFilters are the scan's filters; pushed filters
	// are the data source's Filter values as printed ("IsNotNull(k)", "EqualTo(k,5)").
	PartitionFilters []Expr
	PushedFilters    []Expr
	DataFilters      []Expr
	ReadSchema       string
	// Metadata holds every "Key: value" field as printed, including the ones above.
	Metadata map[string]string
}

// BatchScan is BatchScanExec, a DataSource V2 scan (Iceberg, Delta v2, file sources v2).
type BatchScan struct {
	OpInfo
	Table  string
	Output []Expr
	// Description is the scan's own description text.
	Description string
}

// HiveTableScan is HiveTableScanExec ("Scan hive db.t"): a Hive-serde table read without its
// bucket spec.
type HiveTableScan struct {
	OpInfo
	Table  string
	Output []Expr
}

// InMemoryTableScan is InMemoryTableScanExec, a scan of cached data. The cached plan is in
// OpInfo.Inner.
type InMemoryTableScan struct {
	OpInfo
	Output []Expr
	// Predicates are the pushed predicates, when printed.
	Predicates []Expr
}

// LocalTableScan is LocalTableScanExec (rows held in the driver).
type LocalTableScan struct {
	OpInfo
	Output []Expr
	Empty  bool
}

// AdaptiveSparkPlan is AdaptiveSparkPlanExec, the root of a plan under adaptive query
// execution. Before execution its only child is the initial plan; after, Spark prints the
// final (or, while running, current) plan and the initial plan as separate sub-plans.
type AdaptiveSparkPlan struct {
	OpInfo
	IsFinalPlan bool
	// Plans are the sub-plans Spark printed under "+- == Final Plan ==" and the like, in
	// printed order. Empty when the plan was printed with a single child (OpInfo.Kids).
	Plans []AdaptivePlan
}

// An AdaptivePlan is one sub-plan of an AdaptiveSparkPlan.
type AdaptivePlan struct {
	// Role is the sub-header's title: "Final Plan", "Current Plan" or "Initial Plan".
	Role string
	Root Node
	Pos  Pos
}

// Children returns the plan whose rows the adaptive plan produces: the final plan when
// printed, else the current plan, else the only child.
func (a *AdaptiveSparkPlan) Children() []Node {
	if n := a.Effective(); n != nil {
		return []Node{n}
	}
	return nil
}

// Effective returns the final plan when printed, else the current plan, else the single
// child, else the initial plan; nil when there is none.
func (a *AdaptiveSparkPlan) Effective() Node {
	for _, role := range []string{"Final Plan", "Current Plan"} {
		if n := a.Sub(role); n != nil {
			return n
		}
	}
	if len(a.Kids) > 0 {
		return a.Kids[0]
	}
	return a.Sub("Initial Plan")
}

// Sub returns the sub-plan printed under the role's header, nil when absent.
func (a *AdaptiveSparkPlan) Sub(role string) Node {
	for _, p := range a.Plans {
		if p.Role == role {
			return p.Root
		}
	}
	return nil
}

// QueryStage is an adaptive query stage: ShuffleQueryStageExec, BroadcastQueryStageExec,
// TableCacheQueryStageExec or ResultQueryStageExec (OpInfo.Name says which).
type QueryStage struct {
	OpInfo
	StageID int
}

// ShuffleRead is AQEShuffleReadExec (3.2+), printed "CustomShuffleReader" in 3.0–3.1:
// the adaptive reader of a shuffle's output.
type ShuffleRead struct {
	OpInfo
	// Props is what the read did: "coalesced", "skewed", "coalesced and skewed", "local".
	Props string
}

// Subquery is a subquery plan hanging off an expression: SubqueryExec, SubqueryBroadcastExec
// or ReusedSubqueryExec (OpInfo.Name says which). It appears among OpInfo.Inner of its host.
type Subquery struct {
	OpInfo
	// Ref is the expression name and id the host refers to it by: "scalar-subquery#5",
	// "dynamicpruning#7".
	Ref    string
	PlanID string
}

// Generic is every operator bucketlint does not model in detail. Its name and argument text
// are kept as printed, never dropped.
type Generic struct {
	OpInfo
}

// PlannerInserted reports whether Spark's planner inserted the shuffle rather than the user
// (repartition, DISTRIBUTE BY): origin ENSURE_REQUIREMENTS since 3.1; in 3.0 the boolean
// noUserSpecifiedNumPartition is true for planner shuffles (and for repartition(col), which the
// plan cannot tell apart); 2.4 prints nothing, and a hash or range shuffle there is taken as the
// planner's.
func (x *Exchange) PlannerInserted() bool {
	switch {
	case x.Origin != "":
		return x.Origin == "ENSURE_REQUIREMENTS"
	case x.NoUserSpecifiedNumPartition != nil:
		return *x.NoUserSpecifiedNumPartition && x.Partitioning.Kind != RoundRobinPartitioning
	}
	return x.Partitioning.Kind != RoundRobinPartitioning
}

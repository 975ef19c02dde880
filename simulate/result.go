package simulate

import "github.com/bucketlint/bucketlint/plan"

// A Result is one simulated query: the physical plan Spark is predicted to run and why each
// Exchange and Sort is there.
type Result struct {
	// Plan is the predicted physical plan, built from the same operator types the explain
	// parser produces. Under adaptive execution its root is an AdaptiveSparkPlan whose only
	// child is the initial plan.
	Plan plan.Node
	// Exchanges counts shuffle Exchange nodes (any partitioning, not BroadcastExchange);
	// Sorts counts Sort nodes.
	Exchanges, Sorts int
	// BucketedScans are the file scans read by bucket (FileSourceScanExec.bucketedScan), in
	// the order they were described. In 3.0 every scan of a bucketed table that reads all
	// its bucket columns is one, while SelectedBucketsCount is printed for any scan of a
	// bucketed table, so the printed fields alone do not tell.
	BucketedScans []*plan.FileScan
	// Decisions are the planner's choices per join or aggregate side, in plan order.
	Decisions []Decision
	// Unmodelled lists what the simulation could not model; the plan is then a best effort.
	Unmodelled []string
	// Version and Era are the Spark version modelled and its co-partitioning era.
	Version Version
	Era     Era
	// Adaptive reports whether the plan runs under adaptive query execution.
	Adaptive bool
}

// A Decision is one choice of EnsureRequirements (or of the join strategy) for one child of
// an operator.
type Decision struct {
	// Node is the operator whose requirement was checked (a join, an aggregate, a window).
	Node plan.Node
	// Side is "left" or "right" for a join child, "child" for a single-child operator.
	Side string
	// Inserted is "Exchange", "Sort", "BroadcastExchange" or "none".
	Inserted string
	// Reason says why, in words a user reads.
	Reason string
	// Cause is the reason as a value: callers tell causes apart by it, never by Reason.
	Cause Cause
}

// Decision kinds for Decision.Inserted.
const (
	InsertedExchange  = "Exchange"
	InsertedSort      = "Sort"
	InsertedBroadcast = "BroadcastExchange"
	InsertedNone      = "none"
)

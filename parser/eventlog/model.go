package eventlog

// App is what a log says of its application, with the figures of every stage when asked.
type App struct {
	// SparkVersion is the version SparkListenerLogStart names.
	SparkVersion string
	// ID and Name are the application's id and name (SparkListenerApplicationStart).
	ID, Name string
	// Stages are the stage attempts that ran, by stage and attempt, when Options.Stages is set.
	Stages map[StageKey]*Stage
	// Executions is how many SQL executions the log holds.
	Executions int
	// Lines is how many lines were read.
	Lines int
	// Incomplete is set when the log ends inside an application (an in-progress log).
	Incomplete bool
}

// StageKey names one stage attempt.
type StageKey struct{ Stage, Attempt int }

// Stage holds the task metrics of one stage attempt summed over its tasks, as the History
// Server's /stages endpoint reports them.
type Stage struct {
	// Execution is the SQL execution whose job ran the stage, -1 when none.
	Execution int64
	// Tasks is how many tasks ended; Failed how many of them did not succeed.
	Tasks, Failed int
	// The sums of the task metrics.
	ExecutorRunTime, InputBytes, InputRecords, OutputBytes, OutputRecords        int64
	ShuffleReadBytes, ShuffleReadRecords, ShuffleWriteBytes, ShuffleWriteRecords int64
	ShuffleWriteTime, MemoryBytesSpilled, DiskBytesSpilled                       int64
}

// Execution is one SQL execution as the log recorded it.
type Execution struct {
	// ID and RootID are the execution's id and its root execution's id (same when none).
	ID, RootID int64
	// Description is the execution's description (the call site or the job description).
	Description string
	// Start and End are milliseconds since the epoch; End is 0 when the log has no end.
	Start, End int64
	// Error is the error message the execution ended with, "" on success.
	Error string
	// PlanDescription is the physical plan as Spark described it last (formatted explain
	// mode; the final adaptive plan when AQE re-planned).
	PlanDescription string
	// Plan is the plan tree as Spark recorded it last (the final adaptive plan when AQE
	// re-planned), with metric totals.
	Plan *Node
	// Updates is how many adaptive plan updates the execution had.
	Updates int
	// Stages are the stages the execution's jobs ran, in job order.
	Stages []int
	// Pos is where the execution started.
	Pos Pos
	// Ended reports whether the log recorded the execution's end.
	Ended bool
}

// Node is one operator of an executed plan (Spark's SparkPlanInfo).
type Node struct {
	// Name is the operator's node name ("Exchange", "Scan parquet db.t", "WholeStageCodegen (1)").
	Name string
	// Simple is the operator's simpleString, as Spark printed it.
	Simple string
	// Metadata holds a scan's fields (Location, ReadSchema, PushedFilters, …).
	Metadata map[string]string
	// Metrics are the operator's SQL metrics, with their totals.
	Metrics []Metric
	// Children are the operator's children.
	Children []*Node
}

// Metric is one SQL metric of an operator with its total over the execution.
type Metric struct {
	// Name is the metric's name ("shuffle bytes written", "number of output rows", …).
	Name string
	// Accumulator is the metric's accumulator id, unique within the application.
	Accumulator int64
	// Type is Spark's metric type: "sum", "size", "timing", "nsTiming", "average".
	Type string
	// Value is the total: for "nsTiming" nanoseconds, for "timing" milliseconds, for "size"
	// bytes; for "average", the sum of the task values (Spark shows their minimum, median
	// and maximum, no total). It is meaningful only when Set.
	Value int64
	// Set reports whether any task or the driver updated the metric.
	Set bool
}

// Pos is a position in a log: the file (an events_N_* file of a rolled log) and the line.
type Pos struct {
	File string
	Line int
}

// Metric returns the operator's metric of that name, and whether it has one that was set.
func (n *Node) Metric(name string) (Metric, bool) {
	for _, m := range n.Metrics {
		if m.Name == name {
			return m, m.Set
		}
	}
	return Metric{}, false
}

// Walk calls fn on n and every operator under it, parents first.
func (n *Node) Walk(fn func(*Node)) {
	if n == nil {
		return
	}
	fn(n)
	for _, c := range n.Children {
		c.Walk(fn)
	}
}

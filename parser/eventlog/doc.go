// Package eventlog reads Spark event logs as Spark writes them (spark.eventLog.enabled): one
// JSON event per line, in a single file or rolled into an eventlog_v2_* directory of
// events_N_* files, plain or compressed with Spark's lz4 (lz4-java block stream), snappy
// (snappy-java stream) or zstd codec, Spark 3.0 to 4.x.
//
// It streams: lines are read one at a time (each at most Limits.MaxLine bytes) and only the
// events that carry SQL figures are decoded — the SQL execution start with its physical plan
// description and plan tree (sparkPlanInfo), adaptive (AQE) plan updates and their added
// metrics, driver accumulator updates, job starts (which stage ran for which execution) and
// task ends (the SQL metric updates and the task metrics). Each SQL execution is handed to the
// caller when it ends, with every operator's metric totals, and then forgotten, so memory is
// bounded by the executions running at once, not by the size of the log.
//
// A figure is what Spark's own SQL tab shows: the sum of the task updates (of successful tasks,
// and of failed ones for metrics that count failed values) and the driver's last update of
// each accumulator. The package reads no plan text: the physical plan description and each
// operator's simpleString are handed on as Spark printed them, for parser/explain.
package eventlog

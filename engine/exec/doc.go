//go:build engine

// Package exec runs physical plans (plan.Node trees, as simulate predicts them and
// parser/explain reads them from Spark) on tables written by engine/store, so that a layout
// recommendation is proved by running the query before and after.
//
// Execution is columnar: operators pass [store.Batch]es of typed vectors through the
// [Operator] interface (one interface call per batch, never per row). A plan is compiled into
// stages of P partitions, as Spark runs it: a bucketed FileScan has one partition per bucket,
// an Exchange repartitions its child with Spark's own Murmur3 partitioning (so partition i of
// a shuffle holds exactly the rows of bucket i of a table bucketed the same way) and counts
// the rows and bytes it moves, and joins and aggregations run partition by partition, in
// parallel on all cores. A shuffle-free join therefore joins bucket i of one side only with
// bucket i of the other: a wrong layout gives wrong results, which is the point.
//
// Joins and aggregations use open-addressing hash tables over parallel arrays (power-of-two
// capacity, load at most 0.5, multiplicative hashing independent of Spark's hash), reused
// partition after partition. Materialised data (shuffle buffers, hash tables, sort buffers,
// results) is charged to a memory budget; exceeding it fails the query with ErrMemoryBudget.
//
// Supported: FileScan (bucketed, coalesced, with bucket pruning from equality/IN data
// filters and partition pruning; a partition or data filter the engine cannot parse fails
// the query, naming it, rather than being skipped), Filter (AND, OR, NOT, comparisons of a
// column with a literal — a number, a quoted string, DATE '…' or TIMESTAMP '…' — or another
// column, <=>, isnull, isnotnull, IS [NOT] NULL, [NOT] IN lists, [NOT] BETWEEN literals),
// ProjectExec (column selection and renaming), Exchange (hashpartitioning with Spark's
// Murmur3, SinglePartition, RoundRobinPartitioning; rangepartitioning gathers into one
// partition),
// BroadcastExchange, ReusedExchange when its exchange is printed, Sort, SortMergeJoin,
// ShuffledHashJoin and BroadcastHashJoin (Inner, LeftOuter, RightOuter, FullOuter,
// LeftSemi, LeftAnti on equi-keys; a sort-merge join merges both sides in key order, the
// hash joins build a table on their build side), HashAggregate, SortAggregate and ObjectHashAggregate in
// Partial, PartialMerge, Final and Complete modes (count, sum, min, max, avg; sum and avg of
// decimal(p,s) return decimal(min(38,p+10),s) and decimal(p+4,s+4) as in Spark, NULL on
// overflow as with spark.sql.ansi.enabled=false; avg of other types returns a double),
// Window (row_number, rank, dense_rank,
// and count, sum, min, max, avg over the whole window partition or running with RANGE
// BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW, peers sharing the value; with
// windowspecdefinition, as Spark prints them and simulate predicts them), Union, and
// the adaptive wrappers
// (AdaptiveSparkPlan, query stages, shuffle reads) and codegen adapters as pass-throughs.
// Keys of exchanges, joins and sorts may be widening integer casts (cast(k as bigint), which
// Spark inserts when join key types differ) or widening casts of integers and decimals to
// decimals (cast(k as decimal(20,2))); the cast key hashes as its new type, as in Spark. Column references may carry a table qualifier as a query writes them (a.status,
// sum(t.amount)): they resolve as the unqualified name when exactly one input column has
// it, and are an error when several have. Anything else — computed expressions, other
// casts, non-equi join conditions, other window functions and frames — is an error that names the operator
// and the text it could not evaluate.
//
// Results compare as multisets: [Result.Checksum] is order-independent and [EqualRows]
// compares exactly.
//
// Every file of engine/store, engine/exec and engine/verify is built only with -tags engine
// (issue 15): the linter's default build leaves the engine and parquet-go out. A new file here
// needs the constraint too; internal/enginetest runs the tests from a build without the tag.
//
// Dependency order: engine/hash ← engine/store ← engine/exec ← engine/verify.
package exec

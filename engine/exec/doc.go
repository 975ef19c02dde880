// Package exec runs physical plans (plan.Node trees, as engine/simulate predicts them and
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
// Results compare as multisets: [Result.Checksum] is order-independent and [EqualRows]
// compares exactly.
//
// Dependency order: engine/hash ← engine/store ← engine/exec ← engine/verify.
package exec

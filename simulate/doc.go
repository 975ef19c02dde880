// Package simulate models Apache Spark's physical planner for joins and aggregations over
// bucketed and unbucketed tables: it predicts where Spark inserts an Exchange (shuffle) or a
// Sort, says why in words a user reads, and recommends table layouts that remove them.
//
// It sits above plan and below rules, report and engine: it imports only the standard library
// and plan. The files follow the provide / require / satisfy / ensure split of
// reference/spark-planner.md §1:
//
//   - build.go, joinselect.go, scan.go: the logical query (plan.Query) planned into physical
//     operators as Spark's SparkStrategies (JoinSelection, Aggregation, FileSourceStrategy) do;
//   - provide.go: what each operator's output partitioning and ordering are;
//   - require.go: what each operator requires of its children;
//   - satisfy.go: Partitioning.satisfies, ShuffleSpec compatibility (Spark 3.3+);
//   - ensure.go: EnsureRequirements, era by era, recording a Decision per inserted operator;
//   - coalesce.go, disable.go: CoalesceBucketsInJoin and DisableUnnecessaryBucketedScan;
//   - advise.go: layouts that remove the shuffles of a workload.
//
// The version eras of the co-partitioning algorithm are explicit values (EraA, EraB, EraC);
// configuration reaches the model only through Options.
package simulate

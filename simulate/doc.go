// Package simulate models Apache Spark's physical planner for joins and aggregations over
// bucketed and unbucketed tables: it predicts where Spark inserts an Exchange (shuffle) or a
// Sort and says why in words a user reads. Package advise searches for the table layouts that
// remove them, simulating each candidate here.
//
// It sits above plan and below advise, rules, report and engine: it imports only the standard library
// and plan. Simulate(tables, query, Options) plans a plan.Query as Spark 3.0–4.x would and
// returns the predicted physical plan (the operator types the explain parser produces), the
// Exchange and Sort counts, a Decision per join or aggregate side, and what it could not
// model.
//
// The files follow the provide / require / satisfy / ensure split of
// reference/spark-planner.md §1:
//
//   - build.go, select.go, aggregate.go, setop.go, joinselect.go, strategy.go, scan.go,
//     hints.go, pushdown.go, where.go, outerjoin.go: the logical query planned into physical operators
//     as Spark's optimizer and SparkStrategies do (predicate pushdown into join trees,
//     EliminateOuterJoin, JoinSelection, Aggregation, FileSourceStrategy with bucket pruning);
//   - provide.go: each operator's output partitioning and ordering;
//   - require.go: what each operator requires of its children;
//   - satisfy.go: Partitioning.satisfies and the ShuffleSpec compatibility of Spark 3.3+;
//   - ensure.go, copartition.go, ordering.go: EnsureRequirements, era by era, recording a
//     Decision per inserted operator (reasons.go words them);
//   - coalesce.go, disable.go, reuse.go: CoalesceBucketsInJoin, DisableUnnecessaryBucketedScan,
//     ReuseExchangeAndSubquery;
//   - describe.go: operators printed as Spark's simple explain mode prints them.
//
// Spark's version behaviour is one table (behaviour.go): BehaviourOf(version) returns a
// Behaviour of named fields (the co-partitioning Era, each planner rule's presence, the
// configuration defaults), chosen once per simulation; no other code compares versions.
// Configuration reaches the model only through Options. FINDINGS.md lists where real Spark
// contradicted the reference and what the model leaves out.
package simulate

// Package workload is the resolved workload every command shares: what the parsed inputs
// mean once Spark's sessions and catalogue are applied to them.
//
// It sits between the parser and the simulator: it imports only plan and simulate. New takes
// the plan.Project the parser loaded and a Config (the Spark version and the settings of
// .bucketlint.yaml and the command line) and gives:
//
//   - sessions: each script (a SQL file, a Python or Scala program, a notebook) is one Spark
//     session whose SET, spark.conf.set and .config(…) settings, CREATE, DROP and RENAME
//     statements, saveAsTable writes, CACHE TABLE and temporary views apply in order within
//     it; spark-defaults.conf and spark-submit --conf apply to every session, and the
//     configured settings win over every file (session.go, options.go);
//   - the catalogue: tables and views shared between scripts (DDL, catalog YAML, DESCRIBE and
//     SHOW CREATE TABLE output, saveAsTable writes, CREATE VIEW), with Spark's per-version
//     defaults applied (defaults.go) and conflicting definitions reported; and the catalogue
//     as one session sees it at one position (catalogue.go, scope.go);
//   - the queries, each with its session, resolved once (Resolved) and simulated once as
//     resolved (Simulate): the one reading of a query every command and rule shares;
//   - name resolution (Resolve, resolve*.go): every column reference of a query names the
//     relation it belongs to, as Spark's analyzer resolves it — qualified and unqualified
//     names, aliases, CTEs, subqueries, views (replaced by their queries), USING and NATURAL
//     joins, case-insensitively; join keys come out oriented to their sides whatever order
//     the ON clause wrote them in; a name that does not resolve is an Unresolved value with
//     its reason (unknown column, ambiguous between relations, columns not known), never
//     attributed by its position;
//   - the join sites (Sites, sites*.go): every equi-join of the queries (simulated in their
//     sessions after name resolution), of DataFrame code (simulated as the equivalent SQL
//     join) and of explain outputs (as printed), each side with the table whose layout it
//     reads or keeps, whether it is shuffled, and the causes of its shuffles as values
//     (Site.Classify: count mismatch, key order, key cast, a side unbucketed, bucket keys
//     not the join keys, coalescing off or skipped, the shuffle.partitions floor, a side
//     small enough to broadcast), decided once so that each rule selects the sites of its
//     cause; the primary cause and its sentence are the simulator's explainer's
//     (simulate.Join.Explain);
//   - the one default of the advisor's inputs (Advice).
//
// Every command (check, simulate, advise, verify, tables) builds its workload here from the
// same configuration, so that no two commands can disagree about a query.
package workload

//go:build engine

// Package verify proves layout advice on data. For each scenario — a query, the tables as
// they are and as the advice would have them — it writes the same rows in both layouts into
// a fresh temporary warehouse (engine/store), simulates the query over each catalogue
// (simulate.Simulate), runs both predicted plans (engine/exec) and compares the results as
// multisets. The shuffle-free plan joins bucket i of one side with bucket i of the other
// only, so identical results prove the co-location; a layout that is not what its spec
// claims gives different rows.
//
// Rows come from fixture files (CSV, JSON lines, Parquet) or from engine/store's seeded
// generator (row count, key cardinality, Zipf skew, NULL fraction per column), with the
// schema of the table's DDL. Everything is written below one os.MkdirTemp directory that is
// removed before Run returns; user data is only ever read.
//
// [FromAdvice] turns advise.Advise recommendations into scenarios; [ReadScenario] reads a
// *.verify.yaml scenario file (SQL files, data per table, an explicit layout), whose errors
// are positioned at file:line:col, and [ScenarioFile.Scenarios] turns it into scenarios; it
// is the one engine package that reads YAML. [ValidateLayout]
// checks a table directory written by someone else's job, read-only; [SparkCheck] runs the
// same comparison on a real Spark (verify_spark.py, built into the binary, under a pyspark
// venv; only Spark SQL planner settings are passed on, [PlannerConfs]); [RunConnect]
// verifies on the tables of a Spark Connect server, through scratch copies made with SQL.
//
// Every file of engine/store, engine/exec and engine/verify is built only with -tags engine
// (issue 15): the linter's default build leaves the engine and parquet-go out. A new file here
// needs the constraint too; internal/enginetest runs the tests from a build without the tag.
//
// Dependency order: engine/hash ← engine/store ← engine/exec ← engine/verify.
package verify

// Package code finds the Spark facts bucketlint reasons about in PySpark and Scala code,
// Jupyter (.ipynb) and Databricks notebooks, spark-submit shell scripts and
// spark-defaults.conf: DataFrame writer chains (bucketBy, partitionBy, the terminal call),
// reads, joins, aggregations, SQL strings handed to spark.sql and configuration settings,
// each with its position in the user's file (for notebooks, in the .ipynb JSON).
//
// It sits above plan in the dependency order and imports nothing else of bucketlint but
// parser/perr. It is a tolerant reader, not a compiler: a hand-written tokenizer for Python
// and Scala (strings of every quoting, f- and s-interpolation, comments, brackets and line
// continuations) feeds a small expression parser, and an evaluator follows simple data flow
// within a file (variables bound to reads, frames derived from them, temporary views, values
// returned by Python functions). Whatever it does not understand it skips; it never fails a
// file because of unrelated syntax and never panics. SQL text is stored with its position,
// not parsed: the loader hands each plan.SQLString to parser/sql.
//
// What it does not follow: values across files, function parameters (a frame passed in is
// unresolved but named), methods of classes, tuple assignments, branches (the last binding
// wins), string constants built by calls other than str.format, stripMargin and strip, and
// DataFrame expressions hidden inside lambdas. A join on a value that is not known to be a
// DataFrame is recorded with unresolved sides; str.join and os.path.join are not joins.
package code

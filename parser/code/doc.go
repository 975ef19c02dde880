// Package code finds the Spark facts bucketlint reasons about in PySpark and Scala code,
// Jupyter (.ipynb) and Databricks notebooks, spark-submit shell scripts and
// spark-defaults.conf: DataFrame writer chains (bucketBy, partitionBy, the terminal call),
// reads, joins, aggregations, SQL strings handed to spark.sql and configuration settings,
// each with its position in the user's file (for notebooks, in the .ipynb JSON).
//
// It sits above plan in the dependency order and imports nothing else of bucketlint. It is a
// tolerant reader, not a compiler: a hand-written tokenizer for Python and Scala (strings,
// f-/s-interpolation, comments, brackets and line continuations) feeds a small expression
// parser, and an evaluator follows simple data flow within a file (variables bound to reads
// and frames derived from them). Whatever it does not understand it skips; it never fails a
// file because of unrelated syntax and never panics. SQL text is stored with its position,
// not parsed: the loader hands it to parser/sql.
package code

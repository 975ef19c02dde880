// Package sql reads SQL text into bucketlint's model: table DDL (CREATE TABLE in its
// data-source, Hive, Delta and Iceberg forms, ALTER, DROP, ANALYZE, CACHE), SET and USE, and
// queries (SELECT with joins, grouping, windows, hints, DISTRIBUTE/CLUSTER/SORT BY, INSERT …
// SELECT) as plan.Query values; and the text Spark prints back about a table, the output of
// SHOW CREATE TABLE and of DESCRIBE [EXTENDED|FORMATTED] (CLI tab layout, show() box layout and
// 4.x AS JSON), as plan.Table values.
//
// It sits above plan and parser/perr in the dependency order. The grammar is unexported
// structs (grammar_*.go). Queries and expressions are read into them by a hand-written
// recursive-descent parser over its own tokenizer (scan.go, rd*.go: one file per area of
// Spark's SqlBaseParser.g4, linear in the statement's length, with Spark's parse-time checks
// of literals and types), and so are CREATE VIEW (rd_view.go) and CREATE TABLE's column list
// (rd_columns.go); the rest of DDL is read by participle (github.com/alecthomas/participle/v2),
// compiled once in New, which hands queries, expressions, names, types and column lists to
// the hand-written parser. participle's types never leave the package. The parser's most
// frequent nodes come from slabs that the statements of a file reuse (slab.go). A file is split into statements at top-level
// semicolons before parsing, so one bad statement costs that statement only: its error is
// recorded with file:line:col and parsing resumes at the next statement. Statements the package
// does not model (views, functions, SHOW, …) are kept as text and never fail a file.
// Parser.WithOptions sets the Spark version whose syntax counts (version.go): a construct that
// release does not accept is an error at its position, named with the release that brought
// it (docs/sql-versions.md).
package sql

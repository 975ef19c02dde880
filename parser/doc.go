// Package parser turns the text users have (Spark explain output, table DDL, SQL, code,
// catalogs) into bucketlint's plan model. The sub-packages each read one kind of input:
// parser/explain reads every explain mode of Spark 2.4 through 4.x, parser/sql reads SQL
// (DDL, queries, SET) and the DESCRIBE and SHOW CREATE TABLE output Spark prints, parser/code
// reads PySpark, Scala, notebooks, spark-submit scripts and spark-defaults.conf, and
// parser/catalog reads catalog YAML. Errors from every sub-parser are positioned Errors.
//
// Load sits on top: it walks a repository and merges everything into one plan.Project. It
// picks the reader for each file by name, then by content:
//
//   - .sql, .hql, .ddl: parser/sql (a Databricks SQL notebook source goes to parser/code);
//     in a dbt project (a directory with dbt_project.yml), a model under its model paths is
//     read by parser/dbt as the statement dbt sends for it, with the configs of
//     dbt_project.yml and its property files, and then by parser/sql; macros, tests,
//     snapshots and analyses, and any .sql file defining Jinja macros, are skipped with a
//     plan.Note;
//   - .py, .scala, .sc, .ipynb, .sh, .bash, spark-defaults.conf and *spark*.conf, and files
//     with a python or shell shebang: parser/code, whose spark.sql strings are then parsed
//     by parser/sql with positions mapped back into the code file;
//   - .yaml, .yml with a top-level bucketlint key: parser/catalog; other YAML is skipped;
//   - .txt, .log, .out, .explain, .plan, .describe, .desc, .text and files without an
//     extension: explain output when parser/explain finds a plan in it, else SHOW CREATE
//     TABLE output (a lone CREATE TABLE), else DESCRIBE output (a "# Detailed Table
//     Information" or "# Partition Information" section, a col_name/data_type header, pyspark
//     Row reprs, or a file named *describe*); a text file holding none of these is skipped
//     without an error;
//   - .json: DESCRIBE … AS JSON output only.
//
// Tables are merged by name (an unqualified name joins the one qualified name ending in it).
// Facts come ranked: catalog YAML, DESCRIBE, SHOW CREATE TABLE, DDL (CREATE TABLE, CTAS,
// with the file's own ALTERs applied), then saveAsTable writes in code, which state only what
// they set. Identical facts merge and keep every source; a bucket spec, format, schema or
// partitioning stated differently is a plan.Conflict naming both places, and the table
// keeps the higher-ranked value. A Hive-serde table that DESCRIBE calls "hive" and SHOW
// CREATE TABLE prints as USING orc is one fact, not a conflict.
//
// It sits above plan and the sub-parsers in the dependency order.
package parser

import "github.com/bucketlint/bucketlint/parser/perr"

// Error is a problem found in a user's input, with its file:line:column.
type Error = perr.Error

// Package dbt reads dbt projects built with dbt-spark or dbt-databricks: dbt_project.yml
// (model paths, macro paths and the configs set per folder), property files (schema.yml:
// model configs and sources) and models, whose {{ config(…) }} gives the layout of the table
// the model builds (materialized, file_format, partition_by, clustered_by, buckets).
//
// A model becomes the statement dbt-spark sends for it: CREATE TABLE name USING format
// PARTITIONED BY (…) CLUSTERED BY (…) INTO n BUCKETS AS body for a table or an incremental
// model, CREATE OR REPLACE VIEW name AS body for a view or an ephemeral model. In the body,
// {{ ref('m') }} becomes m, {{ source('s', 't') }} the source's schema.identifier and
// {{ this }} the model itself, each padded with blanks to the width of the Jinja it replaces,
// so that every position in the body is the model file's own. The statement is a
// plan.SQLString whose lines map to the model file: the configured values to where they are
// written (the config call, schema.yml or dbt_project.yml), the body line for line. Jinja
// that is not understood ({{ var(…) }}, macros, {% if %} blocks) is left for parser/sql,
// which reads {{ … }} as an opaque name or value and skips {% … %}; a model that then does
// not parse is skipped with a note, not an error.
//
// Macros, tests, snapshots and analyses are not statements Spark runs as written: they are
// skipped with a note. The package reads text only; parser.Load parses the statements.
package dbt

// Package plan is bucketlint's model: plain data describing what Spark planned (physical
// operator trees read from explain output) and what a project declares (tables, bucket specs).
//
// It sits at the bottom of the dependency order and imports the standard library only. Every
// other package reads and builds these values; nothing here parses text or talks to Spark.
// Values are treated as immutable once a parser has built them. Every node carries the span of
// the text it came from, so positions survive from the parser to the report.
package plan

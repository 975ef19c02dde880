// Package explain reads Spark's explain output: the text of df.explain(…), EXPLAIN, the SQL
// UI and event logs, from Spark 2.4 to 4.x, in every mode (simple, extended, formatted, cost,
// codegen). It builds plan.Explain values for the rules and reports positioned perr errors.
//
// It sits just above plan in the dependency order and imports nothing else of bucketlint but
// parser/perr. The reader is line based (reference/formats.md §3, §13): a line's depth comes
// from the column of its "+- " or ":- " marker, its parent is the nearest shallower line, and
// lines two levels deeper than their parent are inner plans (subqueries, cached plans). Each
// operator line is then split into name and arguments by hand-written scanning, bracket-,
// parenthesis- and quote-aware, tolerant of Spark's truncation ("...", "... N more fields").
// Formatted mode's detail blocks are joined to the outline by operator id and preferred,
// being untruncated.
package explain

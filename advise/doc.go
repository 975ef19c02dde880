// Package advise recommends table layouts that remove the shuffles of a workload: bucket
// columns, counts, sort columns and key types per table, or a broadcast or a setting instead
// when that is the smaller change. Every candidate is simulated with package simulate, and a
// recommendation carries the plans before and after, the reason in words a user reads, and
// the rewrite as code (PySpark, Scala, SQL).
//
// Advise(tables, workload, Options) is the entry point; LayoutCode writes one table's rewrite,
// which the rules' fixes print too, so that a fix and `bucketlint advise` say the same thing.
package advise

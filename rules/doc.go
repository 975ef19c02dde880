// Package rules holds bucketlint's rule catalogue: one documented Rule value per check, each
// with its doc page as data (why it matters in Spark, a bad and a good example, the Spark
// versions it applies to). Rules read a loaded plan.Project and report Diagnostics through the
// Pass they are given; the driver in cmd/bucketlint filters, sorts and formats them.
//
// It imports plan and simulate only.
package rules

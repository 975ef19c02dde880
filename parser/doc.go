// Package parser turns the text users have (Spark explain output, table DDL, SQL, code,
// catalogs) into bucketlint's plan model. The sub-packages each read one kind of input:
// parser/explain reads every explain mode of Spark 2.4 through 4.x. Errors from every
// sub-parser are positioned Errors.
package parser

import "github.com/bucketlint/bucketlint/parser/perr"

// Error is a problem found in a user's input, with its file:line:column.
type Error = perr.Error

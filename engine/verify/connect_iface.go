//go:build engine

package verify

import "context"

// sqlSession is all the Connect check needs of a Spark session. The one implementation over
// spark-connect-go is in connect_session.go, built with the sparkconnect tag only.
type sqlSession interface {
	// SQL runs a statement (DDL takes effect at once) and returns its rows.
	SQL(ctx context.Context, q string) ([][]any, error)
	// Explain returns the physical plan of a query as EXPLAIN prints it, without running it.
	Explain(ctx context.Context, q string) (string, error)
	Close() error
}

package verify

import (
	"context"
	"fmt"

	"github.com/apache/spark-connect-go/spark/sql"
	"github.com/apache/spark-connect-go/spark/sql/utils"
)

// sqlSession is all the Connect check needs of a Spark session; it keeps spark-connect-go
// (pinned to a pseudo-version: the project has no usable tag) in this one file.
type sqlSession interface {
	// SQL runs a statement (DDL takes effect at once) and returns its rows.
	SQL(ctx context.Context, q string) ([][]any, error)
	// Explain returns the physical plan of a query as EXPLAIN prints it, without running it.
	Explain(ctx context.Context, q string) (string, error)
	Close() error
}

// connectSession is a sqlSession over github.com/apache/spark-connect-go.
type connectSession struct{ s sql.SparkSession }

// dialConnect opens a Spark Connect session on remote ("sc://host:port"). Building does not
// dial: an absent server shows up as an Unavailable error on the first statement.
func dialConnect(ctx context.Context, remote string) (sqlSession, error) {
	s, err := sql.NewSessionBuilder().Remote(remote).Build(ctx)
	if err != nil {
		return nil, redactErr(fmt.Errorf("spark connect %s: %w", RedactRemote(remote), err), remote)
	}
	return &connectSession{s: s}, nil
}

func (c *connectSession) SQL(ctx context.Context, q string) ([][]any, error) {
	df, err := c.s.Sql(ctx, q)
	if err != nil {
		return nil, err
	}
	rows, err := df.Collect(ctx)
	if err != nil {
		return nil, err
	}
	out := make([][]any, len(rows))
	for i, r := range rows {
		out[i] = r.Values()
	}
	return out, nil
}

func (c *connectSession) Explain(ctx context.Context, q string) (string, error) {
	df, err := c.s.Sql(ctx, q)
	if err != nil {
		return "", err
	}
	return df.Explain(ctx, utils.ExplainModeSimple)
}

func (c *connectSession) Close() error { return c.s.Stop() }

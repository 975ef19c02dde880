//go:build engine && sparkconnect

package verify

import (
	"context"
	"fmt"

	"github.com/apache/spark-connect-go/spark/sql"
	"github.com/apache/spark-connect-go/spark/sql/utils"
)

// ConnectBuilt is true: this build has the Spark Connect client (the sparkconnect tag).
const ConnectBuilt = true

// connectSession is a sqlSession over github.com/apache/spark-connect-go (pinned to a
// pseudo-version: the project has no usable tag). It is built only with the sparkconnect tag,
// so that the default build, the linter, downloads and compiles no gRPC or Arrow.
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

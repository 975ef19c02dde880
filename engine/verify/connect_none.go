//go:build engine && !sparkconnect

package verify

import (
	"context"
	"fmt"
)

// ConnectBuilt is false: this build has no Spark Connect client. The linter's default build
// leaves out spark-connect-go and with it gRPC and Arrow (issue 15); build with
// `-tags sparkconnect` for `verify --spark sc://…`.
const ConnectBuilt = false

// dialConnect refuses: the client is not in this build.
func dialConnect(_ context.Context, remote string) (sqlSession, error) {
	return nil, fmt.Errorf("spark connect %s: this bucketlint was built without the Spark Connect client; "+
		"install it with `go install -tags sparkconnect github.com/bucketlint/bucketlint/cmd/bucketlint@VERSION`, or verify with --spark local",
		RedactRemote(remote))
}

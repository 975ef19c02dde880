package simulate

import "github.com/bucketlint/bucketlint/plan"

// ResolveForTest resolves a query's names against tables and views as every command does
// before it simulates a query (workload.Resolve): the tests that simulate recorded queries
// simulate them resolved. Package workload imports simulate, so a test of package simulate
// cannot import it; the external test package's TestMain (main_test.go) sets this.
var ResolveForTest func(tables map[string]*plan.Table, views map[string]*plan.Query, q *plan.Query) *plan.Query

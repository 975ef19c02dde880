package simulate_test

import (
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
	"github.com/bucketlint/bucketlint/workload"
)

// TestMain gives the package's tests name resolution (simulate.ResolveForTest), which they
// cannot import.
func TestMain(m *testing.M) {
	simulate.ResolveForTest = func(tables map[string]*plan.Table, views map[string]*plan.Query, q *plan.Query) *plan.Query {
		return workload.Resolve(testCatalog{tables, views}, q).Query
	}
	m.Run()
}

// testCatalog is a catalogue of a test's tables and views, by lower-case name; a name
// qualified by a database matches a table named without one.
type testCatalog struct {
	tables map[string]*plan.Table
	views  map[string]*plan.Query
}

func (c testCatalog) Table(name string) *plan.Table {
	name = strings.ToLower(name)
	if t, ok := c.tables[name]; ok {
		return t
	}
	return c.tables[name[strings.LastIndexByte(name, '.')+1:]]
}

func (c testCatalog) View(name string) *plan.Query {
	name = strings.ToLower(name)
	if v, ok := c.views[name]; ok {
		return v
	}
	return c.views[name[strings.LastIndexByte(name, '.')+1:]]
}

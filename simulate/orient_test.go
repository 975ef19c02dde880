package simulate

import (
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/parser/sql"
	"github.com/bucketlint/bucketlint/plan"
)

// TestKeysAreNotTurnedRound: the simulator takes a join's key pairs oriented to their sides,
// as name resolution gives them (workload.Resolve); it does not turn a pair round because its
// columns fit the other way. Unqualified keys written "right = left" are joined on once the
// query is resolved, and left out with a note when it is not; a pair of a name both sides
// have, which resolution leaves unplaced, is left out rather than read by its position.
func TestKeysAreNotTurnedRound(t *testing.T) {
	t.Parallel()
	const src = `CREATE TABLE ss (s_item INT, s_store INT, x INT) USING parquet CLUSTERED BY (s_item) INTO 8 BUCKETS;
CREATE TABLE item (i_item INT, i_store INT, x INT) USING parquet CLUSTERED BY (i_item) INTO 8 BUCKETS;
SELECT * FROM ss JOIN item ON i_item = s_item AND i_store = s_store;
SELECT * FROM ss JOIN item ON ss.s_item + 1 = item.i_item + 1 AND ss.s_store = ss.s_item;
SELECT * FROM ss JOIN item ON s_item = i_item AND x = x;
`
	p, err := sql.New()
	if err != nil {
		t.Fatal(err)
	}
	pf, errs := p.ParseFile("q.sql", []byte(src))
	if len(errs) > 0 || len(pf.Queries) != 3 {
		t.Fatalf("parse: %v, %d queries", errs, len(pf.Queries))
	}
	tables := map[string]*plan.Table{}
	for _, tb := range pf.Tables {
		tables[tb.Name] = tb
	}
	opt := Options{SparkVersion: Version{3, 5, -1}}
	join := func(r *Result) string {
		var out []string
		plan.Walk(r.Plan, func(n plan.Node) bool {
			if j, ok := plan.JoinOf(n); ok {
				out = append(out, string(j.Strategy)+" "+strings.Join(plan.Texts(j.LeftKeys), ",")+" = "+strings.Join(plan.Texts(j.RightKeys), ","))
			}
			return true
		})
		return strings.Join(out, "; ")
	}
	for _, tc := range []struct {
		name     string
		query    int
		resolved bool
		want     string
		note     string
	}{
		{"resolved", 0, true, "SortMergeJoin s_item,s_store = i_item,i_store", ""},
		{"unresolved", 0, false, "CartesianProduct  = ", "could not be resolved to columns of each side"},
		{"expression keys", 1, false, "SortMergeJoin ss.s_item + 1 = item.i_item + 1", ""},
		{"ambiguous", 2, true, "SortMergeJoin s_item = i_item", "x = x names a column both sides have"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			q := pf.Queries[tc.query]
			if tc.resolved {
				q = ResolveForTest(tables, nil, q)
			}
			r, err := Simulate(tables, q, opt)
			if err != nil {
				t.Fatal(err)
			}
			if got := join(r); got != tc.want {
				t.Errorf("join = %q, want %q", got, tc.want)
			}
			if notes := strings.Join(r.Unmodelled, "\n"); tc.note != "" && !strings.Contains(notes, tc.note) {
				t.Errorf("notes %q lack %q", notes, tc.note)
			}
		})
	}
}

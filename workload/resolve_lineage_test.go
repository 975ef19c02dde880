package workload

import "testing"

// The workload's catalogue is what name resolution reads.
var _ Catalog = (*Catalogue)(nil)

// TestThrough checks which FROM column a SELECT block's output name passes through.
func TestThrough(t *testing.T) {
	ddl := "CREATE TABLE t (a INT, b INT) USING parquet;"
	for _, tc := range []struct {
		query string
		name  string
		want  string
		ok    bool
	}{
		{"SELECT * FROM t", "a", "a", true},
		{"SELECT a AS acct, b FROM t", "acct", "a", true},
		{"SELECT a AS acct, b FROM t", "b", "b", true},
		{"SELECT a AS acct, b FROM t", "a", "", false},
		{"SELECT t.a x FROM t", "x", "a", true},
		{"SELECT CAST(a AS bigint) AS a FROM t", "a", "", false},
		{"SELECT a + 1 AS a, * FROM t", "a", "", false},
		{"SELECT t.*, b AS c FROM t", "c", "b", true},
		{"SELECT t.*, b AS c FROM t", "a", "a", true},
		{"SELECT `A` FROM t", "a", "a", true},
	} {
		_, q := parse(t, ddl, tc.query)
		got, ok := Through(q.Root.Select, tc.name)
		if got != tc.want || ok != tc.ok {
			t.Errorf("%s: %s passes through %q, %v; want %q, %v", tc.query, tc.name, got, ok, tc.want, tc.ok)
		}
	}
}

package sql

import (
	"fmt"
	"strings"
	"testing"
)

// TestColumnLists checks the column lists of CTEs and of aliased relations, which rename the
// columns name resolution sees.
func TestColumnLists(t *testing.T) {
	p, err := New()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		sql  string
		want string
	}{
		{"WITH c (x, `Y`) AS (SELECT i, j FROM t) SELECT * FROM c", "cte c(x, y); from c()"},
		{"WITH c AS (SELECT i FROM t) SELECT * FROM c", "cte c(); from c()"},
		{"SELECT * FROM (SELECT i, j FROM t) AS s (a, B)", "from s(a, b)"},
		{"SELECT * FROM t x", "from x()"},
	} {
		f, errs := p.ParseFile("q.sql", []byte(tc.sql))
		if len(errs) > 0 || len(f.Queries) != 1 {
			t.Errorf("%s: %v", tc.sql, errs.Err())
			continue
		}
		q := f.Queries[0]
		var parts []string
		for _, c := range q.CTEs {
			parts = append(parts, fmt.Sprintf("cte %s(%s)", c.Name, strings.Join(c.Columns, ", ")))
		}
		from := q.Root.Select.From
		parts = append(parts, fmt.Sprintf("from %s(%s)", from.Name(), strings.Join(from.ColumnAliases, ", ")))
		if got := strings.Join(parts, "; "); got != tc.want {
			t.Errorf("%s\n got: %s\nwant: %s", tc.sql, got, tc.want)
		}
	}
}

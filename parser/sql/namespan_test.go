package sql

import (
	"testing"

	"github.com/bucketlint/bucketlint/plan"
)

// TestRelationNameSpan: a table scan records where its name is written, without its alias,
// on any line of the statement.
func TestRelationNameSpan(t *testing.T) {
	t.Parallel()
	p, err := New()
	if err != nil {
		t.Fatal(err)
	}
	src := "SELECT *\nFROM spark_catalog.db.orders AS o\n  JOIN `db`.`c` c ON o.k = c.k, t3"
	f, errs := p.ParseFile("q.sql", []byte(src))
	if len(errs) > 0 || len(f.Queries) != 1 {
		t.Fatalf("%v, %d queries", errs, len(f.Queries))
	}
	want := map[string]plan.Span{
		"db.orders": {Start: plan.Pos{File: "q.sql", Line: 2, Col: 6}, End: plan.Pos{File: "q.sql", Line: 2, Col: 29}},
		"db.c":      {Start: plan.Pos{File: "q.sql", Line: 3, Col: 8}, End: plan.Pos{File: "q.sql", Line: 3, Col: 16}},
		"t3":        {Start: plan.Pos{File: "q.sql", Line: 3, Col: 33}, End: plan.Pos{File: "q.sql", Line: 3, Col: 35}},
	}
	var walk func(r *plan.Relation)
	walk = func(r *plan.Relation) {
		switch r.Kind {
		case plan.TableRel:
			if got, ok := want[r.Table]; !ok || got != r.NameSpan {
				t.Errorf("%s: NameSpan %#v, want %#v", r.Table, r.NameSpan, got)
			}
			delete(want, r.Table)
		case plan.JoinRel:
			walk(r.Join.Left)
			walk(r.Join.Right)
		case plan.SelectRel:
			walk(r.Select.From)
		}
	}
	walk(f.Queries[0].Root)
	for name := range want {
		t.Errorf("no scan of %s", name)
	}
}

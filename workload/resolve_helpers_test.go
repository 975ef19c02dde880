package workload

import (
	"fmt"
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/parser/sql"
	"github.com/bucketlint/bucketlint/plan"
)

// testCatalog is a catalogue of the tables and views of some SQL text.
type testCatalog struct {
	tables map[string]*plan.Table
	views  map[string]*plan.Query
}

func (c *testCatalog) Table(name string) *plan.Table { return c.tables[name] }
func (c *testCatalog) View(name string) *plan.Query  { return c.views[name] }

// parse parses ddl (tables and views) and one query.
func parse(t *testing.T, ddl, query string) (*testCatalog, *plan.Query) {
	t.Helper()
	p, err := sql.New()
	if err != nil {
		t.Fatal(err)
	}
	cat := &testCatalog{tables: map[string]*plan.Table{}, views: map[string]*plan.Query{}}
	f, errs := p.ParseFile("ddl.sql", []byte(ddl))
	if len(errs) > 0 {
		t.Fatalf("ddl: %v", errs.Err())
	}
	for _, tb := range f.Tables {
		cat.tables[tb.Name] = tb
	}
	for _, q := range f.Queries {
		if q.View {
			cat.views[q.Target] = q
		}
	}
	qf, errs := p.ParseFile("q.sql", []byte(query))
	if len(errs) > 0 || len(qf.Queries) != 1 {
		t.Fatalf("query: %v", errs.Err())
	}
	return cat, qf.Queries[0]
}

// describe lists a resolved query's joins (type, keys as relation.column, the table of each
// key when a table scan), views read and unresolved names, one per line.
func describe(res *Resolved) string {
	var lines []string
	key := func(k plan.ColumnRef) string {
		s := k.Relation + "." + k.Column
		if k.Relation == "" {
			s = "?" + k.Text
		}
		if k.Table != "" && k.Table != k.Relation {
			s += "(" + k.Table + ")"
		}
		return s
	}
	var walk func(r *plan.Relation)
	walk = func(r *plan.Relation) {
		if r == nil {
			return
		}
		if r.View != "" {
			lines = append(lines, fmt.Sprintf("view %s as %s", r.View, r.Alias))
		}
		if j := r.Join; j != nil {
			walk(j.Left)
			walk(j.Right)
			var pairs []string
			for i := range j.LeftKeys {
				pairs = append(pairs, key(j.LeftKeys[i])+" = "+key(j.RightKeys[i]))
			}
			l := "join " + strings.Join(pairs, ", ")
			if len(j.Residual) > 0 {
				l += " residual " + strings.Join(j.Residual, " AND ")
			}
			lines = append(lines, l)
		}
		if s := r.Select; s != nil {
			walk(s.From)
			for _, k := range s.GroupBy {
				lines = append(lines, "group "+key(k))
			}
			for _, k := range s.OrderBy {
				lines = append(lines, "order "+key(k))
			}
		}
		for _, in := range r.Inputs {
			walk(in)
		}
	}
	for _, c := range res.Query.CTEs {
		lines = append(lines, "cte "+c.Name)
		walk(c.Root)
	}
	walk(res.Query.Root)
	for _, u := range res.Unresolved {
		lines = append(lines, fmt.Sprintf("unresolved %s at %d:%d: %s", u.Name, u.Span.Start.Line, u.Span.Start.Col, u))
	}
	return strings.Join(lines, "\n")
}

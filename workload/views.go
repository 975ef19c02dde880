package workload

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// withViews returns q with every view it reads, directly or through other views, added as a
// common table expression under the name the query reads it by: Spark expands a view into
// its body when it analyses the query, so the body's filters and projections and the layout
// of the tables it reads are what the planner sees. The query's own CTEs keep their names; q
// itself is not changed.
func withViews(q *plan.Query, cat *Catalogue) *plan.Query {
	own := map[string]bool{}
	for _, c := range q.CTEs {
		own[strings.ToLower(c.Name)] = true
	}
	var ctes []*plan.CTE
	var texts []string
	seen := map[string]bool{}
	var visit func(r *plan.Relation)
	visit = func(r *plan.Relation) {
		eachTable(r, func(name string) {
			n := strings.ToLower(name)
			if own[n] || seen[n] {
				return
			}
			body := cat.View(n)
			if body == nil || body.Root == nil {
				return
			}
			seen[n] = true
			for _, c := range body.CTEs {
				visit(c.Root)
			}
			visit(body.Root)
			for _, c := range body.CTEs {
				if cn := strings.ToLower(c.Name); !own[cn] && !seen[cn] {
					seen[cn] = true
					ctes = append(ctes, c)
				}
			}
			ctes = append(ctes, &plan.CTE{Name: n, Root: body.Root, Span: body.Span})
			texts = append(texts, body.Text)
		})
	}
	for _, c := range q.CTEs {
		visit(c.Root)
	}
	visit(q.Root)
	if len(ctes) == 0 {
		return q
	}
	c := *q
	ctes = append(ctes, q.CTEs...)
	c.CTEs = ctes
	// The simulator prunes a scan's columns to the names the query's text mentions: the
	// bodies' names are the query's too.
	c.Text = strings.Join(append([]string{q.Text}, texts...), ";\n")
	return &c
}

// eachTable calls f with the name of every table scan in a relation tree that is not a
// reference to a CTE.
func eachTable(r *plan.Relation, f func(string)) {
	if r == nil {
		return
	}
	switch r.Kind {
	case plan.TableRel:
		if !r.CTE {
			f(r.Table)
		}
	case plan.JoinRel:
		if r.Join != nil {
			eachTable(r.Join.Left, f)
			eachTable(r.Join.Right, f)
		}
	case plan.SelectRel:
		if r.Select != nil {
			eachTable(r.Select.From, f)
		}
	case plan.SetRel:
		for _, in := range r.Inputs {
			eachTable(in, f)
		}
	}
}

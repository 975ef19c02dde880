package main

import (
	"fmt"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/rules"
	"github.com/bucketlint/bucketlint/simulate"
)

// predictedPlans returns, for each SQL query holding a join or aggregation finding (BL3xx),
// its predicted physical plan as an explain output anchored at the query, so that the
// markdown report can draw it next to the finding as it draws real explain output.
func predictedPlans(p *plan.Project, ds []rules.Diagnostic, opts simulate.Options) []*plan.Explain {
	var out []*plan.Explain
	done := map[*plan.Query]bool{}
	for i := range ds {
		if !strings.HasPrefix(ds[i].Rule, "BL3") {
			continue
		}
		q := queryAt(p.Queries, ds[i].Span.Start)
		if q == nil || done[q] {
			continue
		}
		done[q] = true
		res, err := simulate.Simulate(p.Tables, q, opts)
		if err != nil || res == nil || res.Plan == nil {
			continue
		}
		name := fmt.Sprintf("Predicted plan (Spark %s, simulated)", res.Version)
		out = append(out, &plan.Explain{
			File: q.Span.Start.File, Pos: q.Span.Start,
			Plans: []plan.Section{{Name: name, Root: res.Plan, Pos: q.Span.Start}},
		})
	}
	return out
}

// queryAt returns the query whose span holds pos, nil when none does.
func queryAt(qs []*plan.Query, pos plan.Pos) *plan.Query {
	for _, q := range qs {
		s, e := q.Span.Start, q.Span.End
		if s.File != pos.File || pos.Line < s.Line || (pos.Line == s.Line && pos.Col < s.Col) {
			continue
		}
		if e.IsValid() && (pos.Line > e.Line || (pos.Line == e.Line && pos.Col > e.Col)) {
			continue
		}
		return q
	}
	return nil
}

package report

import (
	"fmt"
	"strings"

	"github.com/bucketlint/bucketlint/advise"
	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/rules"
	"github.com/bucketlint/bucketlint/workload"
)

// PredictedPlans returns, for each SQL query holding a join or aggregation finding (BL3xx),
// its predicted physical plan as an explain output anchored at the query, so that the
// markdown report draws it next to the finding as it draws real explain output. When the
// layout advised for the query alone removes shuffles, the plan after it follows the plan
// before.
func PredictedPlans(w *workload.Workload, ds []rules.Diagnostic) []*plan.Explain {
	var out []*plan.Explain
	done := map[*plan.Query]bool{}
	for i := range ds {
		if !strings.HasPrefix(ds[i].Rule, "BL3") {
			continue
		}
		q := queryAt(w.Project().Queries, ds[i].Span.Start)
		if q == nil || done[q] {
			continue
		}
		done[q] = true
		res, err := w.Simulate(q)
		if err != nil || res == nil || res.Plan == nil {
			continue
		}
		name := fmt.Sprintf("Predicted plan (Spark %s, simulated): %s", res.Version, plural(res.Exchanges, "shuffle"))
		sections := []plan.Section{{Name: name, Root: res.Plan, Pos: q.Span.Start}}
		if after, layout := advise.ForQuery(w, q); after != nil && after.Exchanges < res.Exchanges {
			sections[0].Name = "Before: " + name
			sections = append(sections, plan.Section{
				Name: fmt.Sprintf("After %s: %s, %d removed", layout, plural(after.Exchanges, "shuffle"), res.Exchanges-after.Exchanges),
				Root: after.Plan, Pos: q.Span.Start,
			})
		}
		out = append(out, &plan.Explain{File: q.Span.Start.File, Pos: q.Span.Start, Plans: sections})
	}
	return out
}

// queryAt returns the query whose span holds pos, nil when none does.
func queryAt(qs []*plan.Query, pos plan.Pos) *plan.Query {
	for _, q := range qs {
		if q.Span.Contains(pos) {
			return q
		}
	}
	return nil
}

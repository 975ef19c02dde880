package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/bucketlint/bucketlint/advise"
	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/rules"
	"github.com/bucketlint/bucketlint/simulate"
	"github.com/bucketlint/bucketlint/workload"
)

// predictedPlans returns, for each SQL query holding a join or aggregation finding (BL3xx),
// its predicted physical plan as an explain output anchored at the query, so that the
// markdown report can draw it next to the finding as it draws real explain output.
func predictedPlans(w *workload.Workload, ds []rules.Diagnostic) []*plan.Explain {
	p := w.Project()
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
		res, err := w.Simulate(q)
		if err != nil || res == nil || res.Plan == nil {
			continue
		}
		name := fmt.Sprintf("Predicted plan (Spark %s, simulated): %s", res.Version, shuffleCount(res.Exchanges))
		sections := []plan.Section{{Name: name, Root: res.Plan, Pos: q.Span.Start}}
		if after, layout := adviceAfter(w, q); after != nil && after.Exchanges < res.Exchanges {
			sections[0].Name = "Before: " + name
			sections = append(sections, plan.Section{
				Name: fmt.Sprintf("After %s: %s, %d removed", layout, shuffleCount(after.Exchanges), res.Exchanges-after.Exchanges),
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

// adviceAfter simulates q under the layout the advisor recommends for it alone, and names the
// layout; nil when the advice changes nothing for q.
func adviceAfter(w *workload.Workload, q *plan.Query) (*simulate.Result, string) {
	pos := q.Span.Start
	recs := advise.Advise(w.TablesAt(pos), []advise.WeightedQuery{advise.Query(w, q, 1)}, advise.OptionsFor(w, pos))
	var after *simulate.Result
	var changes []string
	for _, r := range recs {
		for _, o := range r.Queries {
			if o.After != nil && (after == nil || o.After.Exchanges < after.Exchanges) {
				after = o.After
			}
		}
		switch {
		case r.Keep || r.Bucket == nil:
		default:
			changes = append(changes, fmt.Sprintf("%s in %d buckets on (%s)", r.Table, r.Bucket.NumBuckets, strings.Join(r.Bucket.Columns, ", ")))
		}
		for k, v := range r.Confs {
			changes = append(changes, k+"="+v)
		}
	}
	if after == nil {
		return nil, ""
	}
	sort.Strings(changes)
	layout := "the recommended layout"
	if len(changes) > 0 {
		layout = "(" + strings.Join(changes, "; ") + ")"
	}
	return after, layout
}

func shuffleCount(n int) string {
	if n == 1 {
		return "1 shuffle"
	}
	return fmt.Sprintf("%d shuffles", n)
}

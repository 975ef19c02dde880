//go:build engine

package verify

import (
	"context"
	"errors"

	"github.com/bucketlint/bucketlint/advise"
	"github.com/bucketlint/bucketlint/plan"
	wl "github.com/bucketlint/bucketlint/workload" // the package's tests declare a helper named workload
)

// FromWorkload is FromAdvice for queries of w: the advice that the workload's one default of
// the advisor's options gives for them, over the catalogue every script shares.
func FromWorkload(w *wl.Workload, queries []advise.WeightedQuery) []Scenario {
	tables := w.Catalogue().Tables()
	return FromAdvice(tables, queries, advise.Advise(tables, queries, advise.OptionsFor(w, plan.Pos{})))
}

// ProveAt proves the advice for every query of w (check --verify): each scenario is run on
// its own with opt, simulated under the workload's version and settings. It returns, for each
// of the positions, the result of the first scenario whose query holds it (nil for none). A
// scenario the engine cannot run is given to skipped and proves nothing.
func ProveAt(ctx context.Context, w *wl.Workload, at []plan.Pos, opt Options, skipped func(Scenario, error)) []*Result {
	out := make([]*Result, len(at))
	queries := advise.Weighted(w, w.Queries())
	if len(queries) == 0 {
		return out
	}
	opt.Sim = w.OptionsAt(plan.Pos{})
	for _, sc := range FromWorkload(w, queries) {
		res, err := Run(ctx, []Scenario{sc}, opt)
		if err == nil && res[0].Error != "" {
			err = errors.New(res[0].Error)
		}
		if err != nil {
			skipped(sc, err)
			continue
		}
		for i, pos := range at {
			if out[i] == nil && sc.Query.Span.Contains(pos) {
				out[i] = &res[0]
			}
		}
	}
	return out
}

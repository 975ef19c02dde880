package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/bucketlint/bucketlint/advise"
	"github.com/bucketlint/bucketlint/engine/verify"
	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/report"
	"github.com/bucketlint/bucketlint/rules"
	"github.com/bucketlint/bucketlint/workload"
)

// checkVerifyRows is the number of generated rows per table check --verify runs on.
const checkVerifyRows = 20_000

// verifyFindings proves the advice for the project's workload (check --verify) and returns,
// per finding, the verification of the query the finding points into (nil when none), and
// how many attached verifications did not reproduce. A scenario the engine cannot run is
// reported on standard error and left unverified.
func verifyFindings(ctx context.Context, w *workload.Workload, diags []rules.Diagnostic, s *streams) ([]*report.Verification, int) {
	queries := advise.Weighted(w, w.Queries())
	out := make([]*report.Verification, len(diags))
	if len(queries) == 0 {
		return out, 0
	}
	tables, sim := w.Catalogue().Tables(), w.OptionsAt(plan.Pos{})
	recs := advise.Advise(tables, queries, advise.OptionsFor(w, plan.Pos{}))
	scenarios := verify.FromAdvice(tables, queries, recs)
	failed := 0
	for _, sc := range scenarios {
		res, err := verify.Run(ctx, []verify.Scenario{sc}, verify.Options{Rows: checkVerifyRows, Seed: 1, Sim: sim})
		if err == nil && res[0].Error != "" {
			err = errors.New(res[0].Error)
		}
		if err != nil {
			fmt.Fprintf(s.err, "%s: not verified: %v\n", sc.Query.Span.Start, err)
			continue
		}
		r := &res[0]
		v := &report.Verification{
			Scenario: r.Name, Identical: r.Identical, Reproduced: r.Reproduced(),
			ExchangesBefore: r.Before.Exchanges, ExchangesAfter: r.After.Exchanges,
			ShuffledRowsBefore: r.Before.ShuffledRows, ShuffledRowsAfter: r.After.ShuffledRows,
			ShuffledBytesBefore: r.Before.ShuffledBytes, ShuffledBytesAfter: r.After.ShuffledBytes,
		}
		for i := range diags {
			if out[i] == nil && sc.Query.Span.Contains(diags[i].Span.Start) {
				out[i] = v
				if !v.Reproduced {
					failed++
				}
			}
		}
	}
	return out, failed
}

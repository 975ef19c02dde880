//go:build engine

package main

import (
	"context"
	"fmt"

	"github.com/bucketlint/bucketlint/engine/verify"
	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/report"
	"github.com/bucketlint/bucketlint/rules"
	"github.com/bucketlint/bucketlint/workload"
)

// checkVerifyRows is the number of generated rows per table check --verify runs on.
const checkVerifyRows = 20_000

// verifyFindings proves the advice for the workload (check --verify) and returns, per
// finding, the verification of the query the finding points into (nil when none), and how
// many attached verifications did not reproduce. A scenario the engine cannot run is
// reported on standard error and left unverified.
func verifyFindings(ctx context.Context, w *workload.Workload, diags []rules.Diagnostic, s *streams) ([]*report.Verification, int) {
	at := make([]plan.Pos, len(diags))
	for i := range diags {
		at[i] = diags[i].Span.Start
	}
	res := verify.ProveAt(ctx, w, at, verify.Options{Rows: checkVerifyRows, Seed: 1}, func(sc verify.Scenario, err error) {
		fmt.Fprintf(s.err, "%s: not verified: %v\n", sc.Query.Span.Start, err)
	})
	return report.Verifications(res)
}

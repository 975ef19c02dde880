//go:build !engine

package main

import (
	"context"

	"github.com/bucketlint/bucketlint/report"
	"github.com/bucketlint/bucketlint/rules"
	"github.com/bucketlint/bucketlint/workload"
)

// engineBuilt is false: this is the linter's light build, without the embedded engine
// (engine/store's Parquet reader and writer through parquet-go, and the compression
// libraries that brings), so that `go install` downloads a few MB of modules (issue 15).
// `verify` and `check --verify` need it; every other command works the same.
const engineBuilt = false

// runVerifyCmd refuses: verify runs on the embedded engine, in every mode (it writes the
// tables as Parquet for --spark local too, reads them with --layout, and its Spark Connect
// client is in engine/verify).
func runVerifyCmd(_ context.Context, _ []string, _ *streams) error {
	return errNoEngine("verify")
}

// verifyFindings is never called in this build: parseCheck refuses --verify first.
func verifyFindings(context.Context, *workload.Workload, []rules.Diagnostic, *streams) ([]*report.Verification, int) {
	return nil, 0
}

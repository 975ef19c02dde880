package main

import (
	"fmt"

	"github.com/bucketlint/bucketlint/parser"
	"github.com/bucketlint/bucketlint/parser/eventlog"
	"github.com/bucketlint/bucketlint/report"
)

// runPlanEventLog is `plan` on a Spark event log: every SQL execution that ran a job, printed
// as it ends in the log (streamed), with each operator's measured metrics.
func runPlanEventLog(opts *planOptions, s *streams) error {
	if opts.format != "text" {
		return usagef("plan prints an event log as text only, not %s", opts.format)
	}
	_, err := eventlog.Read(opts.file, eventlog.Options{}, func(e *eventlog.Execution) error {
		if e.Plan == nil || len(e.Stages) == 0 {
			return nil
		}
		ex, pairs, perr := parser.ExecutedPlan(opts.file, e.Plan)
		if perr != nil {
			ex, pairs = nil, nil
		}
		return report.WriteRunPlan(s.out, e, ex, pairs)
	})
	if err != nil {
		fmt.Fprintln(s.err, err)
		return &parseFailure{count: 1}
	}
	return nil
}

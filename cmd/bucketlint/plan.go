package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/bucketlint/bucketlint/parser/eventlog"
	"github.com/bucketlint/bucketlint/parser/explain"
	"github.com/bucketlint/bucketlint/parser/perr"
	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/report"
)

// planOptions are the flags and argument of `bucketlint plan`.
type planOptions struct {
	format   string
	file     string
	maxInput sizeFlag
}

func parsePlan(args []string, s *streams) (*planOptions, error) {
	opts := &planOptions{}
	fs := newFlagSet("plan", "[flags] FILE|-",
		"Parse one Spark explain output (every mode of Spark 2.4 to 4.x: simple, extended,\n"+
			"formatted, cost, codegen, adaptive) and print the plan with each shuffle and its cause.\n"+
			"FILE may hold several explain outputs and other text around them; - reads standard input.\n"+
			"FILE may be a Spark event log instead (plain, rolled or compressed): each SQL execution\n"+
			"that ran a job is printed with the metrics Spark measured on each operator (text only).",
		s,
		"bucketlint plan explain.txt",
		"spark-submit job.py 2>&1 | bucketlint plan -",
		"bucketlint plan --format mermaid explain.txt > plan.mmd")
	fs.StringVar(&opts.format, "format", "text", "output `format`: text, json, mermaid or dot")
	registerMaxInput(fs, &opts.maxInput)
	if err := parseFlags(fs, args); err != nil {
		return nil, err
	}
	if err := checkFormat(opts.format, "text", "json", "mermaid", "dot"); err != nil {
		return nil, err
	}
	if fs.NArg() != 1 {
		return nil, usagef("want one FILE (or - for standard input), got %d arguments", fs.NArg())
	}
	opts.file = fs.Arg(0)
	if err := checkPaths(opts.file); err != nil {
		return nil, err
	}
	return opts, nil
}

func runPlanCmd(_ context.Context, args []string, s *streams) error {
	opts, err := parsePlan(args, s)
	if err != nil {
		return err
	}
	return runPlan(opts, s)
}

func runPlan(opts *planOptions, s *streams) error {
	if eventlog.IsLog(opts.file) {
		return runPlanEventLog(opts, s)
	}
	name, src, err := readInput(opts.file, s.in, opts.maxInput.limit())
	var u *usageError
	if errors.As(err, &u) {
		return err
	}
	var explains []*plan.Explain
	var errs perr.List
	if err != nil {
		errs.Add(plan.Pos{File: name}, "%v", err)
	} else {
		explains, errs = explain.Parse(name, src)
		errs = errs.Capped()
	}
	if len(explains) == 0 && len(errs) == 0 {
		errs = append(errs, perr.Errorf(positionOf(name), "no Spark explain output found (looked for \"== Physical Plan ==\", an AdaptiveSparkPlan or an operator tree)"))
	}
	for _, e := range errs {
		fmt.Fprintln(s.err, e)
	}
	switch opts.format {
	case "json":
		err = report.PlanJSON(s.out, name, explains, toPositioned(errs))
	case "mermaid":
		err = report.PlanMermaid(s.out, explains)
	case "dot":
		err = report.PlanDot(s.out, explains)
	default:
		err = report.PlanText(s.out, explains, report.PlanOptions{Color: s.color})
	}
	if err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	if len(errs) > 0 {
		return &parseFailure{count: len(errs)}
	}
	return nil
}

func toPositioned(errs perr.List) []report.PositionedError {
	out := make([]report.PositionedError, len(errs))
	for i, e := range errs {
		out[i] = report.PositionedError{File: e.Pos.File, Line: e.Pos.Line, Column: e.Pos.Col, Message: e.Msg}
	}
	return out
}

func positionOf(file string) plan.Pos { return plan.Pos{File: file, Line: 1, Col: 1} }

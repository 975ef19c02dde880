package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/bucketlint/bucketlint/parser/explain"
	"github.com/bucketlint/bucketlint/report"
	"github.com/bucketlint/bucketlint/simulate"
)

// simulateOptions are the flags and argument of `bucketlint simulate`.
type simulateOptions struct {
	common  commonFlags
	format  string
	explain string
	file    string
}

func parseSimulate(args []string, s *streams) (*simulateOptions, error) {
	opts := &simulateOptions{}
	fs := newFlagSet("simulate", "[flags] QUERY.sql|-",
		"Predict the physical plan Spark builds for each query of QUERY.sql over the tables\n"+
			"declared with --tables (and in QUERY.sql itself): join strategies, bucketed scans,\n"+
			"where an Exchange (shuffle) or a Sort goes and why, per Spark version. Each query is\n"+
			"planned in its own session: the settings, tables and views its script has where it\n"+
			"runs, over the catalogue of the --tables inputs. With --explain, compare the\n"+
			"prediction with a real EXPLAIN output and report every difference.",
		s,
		"bucketlint simulate --tables ddl.sql query.sql",
		"bucketlint simulate --tables ddl.sql --spark-version 3.2 --conf spark.sql.shuffle.partitions=400 query.sql",
		"bucketlint simulate --tables ddl.sql --explain explain.txt query.sql")
	opts.common.register(fs, true)
	fs.StringVar(&opts.format, "format", "text", "output `format`: text, json or mermaid")
	fs.StringVar(&opts.explain, "explain", "", "compare with the real explain output in `FILE`")
	if err := parseFlags(fs, args); err != nil {
		return nil, err
	}
	if err := checkFormat(opts.format, "text", "json", "mermaid"); err != nil {
		return nil, err
	}
	if fs.NArg() != 1 {
		return nil, usagef("want one QUERY file (or - for standard input), got %d arguments", fs.NArg())
	}
	opts.file = fs.Arg(0)
	if err := opts.common.check(); err != nil {
		return nil, err
	}
	if err := checkPaths(opts.file, opts.explain); err != nil {
		return nil, err
	}
	return opts, nil
}

func runSimulateCmd(ctx context.Context, args []string, s *streams) error {
	opts, err := parseSimulate(args, s)
	if err != nil {
		return err
	}
	return runSimulate(ctx, opts, s)
}

// runSimulate predicts the plan of every query of the QUERY file in the workload built from it
// and the --tables inputs, each in its session.
func runSimulate(ctx context.Context, opts *simulateOptions, s *streams) error {
	ld, err := opts.common.load(ctx, []string{opts.file}, s)
	if err != nil {
		return err
	}
	loadErr := ld.printErrors(s)
	qs := queriesUnder(ld.w, []string{opts.file})
	if len(qs) == 0 && loadErr != nil {
		return loadErr // the query file could not be read or parsed (exit 3)
	}
	if len(qs) == 0 {
		return usagef("%s: no query found%s", opts.file, unreadCode(ld.w, []string{opts.file}))
	}
	sims := make([]report.Simulation, len(qs))
	for i, q := range qs {
		r, err := ld.w.Simulate(q.Query)
		if err != nil {
			return fmt.Errorf("%s: %w", q.Query.Span.Start, err)
		}
		pos := q.Query.Span.Start
		sims[i] = report.Simulation{Query: q.Query, Result: r, Confs: ld.w.OptionsAt(pos).Confs, Unresolved: ld.w.Resolved(q.Query).Unresolved}
	}
	switch opts.format {
	case "json":
		err = report.WriteSimulateJSON(s.out, sims)
	case "mermaid":
		err = report.WriteSimulateMermaid(s.out, sims)
	default:
		err = report.WriteSimulateText(s.out, sims)
	}
	if err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	var errs []error
	if opts.explain != "" {
		diffs, err := compareExplain(opts.explain, opts.common.maxInput.limit(), s, sims[0].Result)
		if err != nil {
			return err
		}
		if diffs > 0 {
			errs = append(errs, &explainDiffError{count: diffs, file: opts.explain})
		}
	}
	if loadErr != nil {
		errs = append(errs, loadErr)
	}
	return errors.Join(errs...)
}

// An explainDiffError says the prediction differs from a real explain output: findings, exit
// code 1.
type explainDiffError struct {
	count int
	file  string
}

func (e *explainDiffError) Error() string {
	return fmt.Sprintf("%d difference(s) between the prediction and %s", e.count, e.file)
}

// Unwrap makes the differences findings for exitCode.
func (e *explainDiffError) Unwrap() error {
	return &findingsError{count: e.count, failOn: "a difference"}
}

// compareExplain compares a prediction with the first explain output in file, writes the
// comparison and returns the number of differences.
func compareExplain(file string, limit int64, s *streams, r *simulate.Result) (int, error) {
	name, src, err := readInput(file, s.in, limit)
	var u *usageError
	if errors.As(err, &u) {
		return 0, err
	}
	if err != nil {
		fmt.Fprintf(s.err, "%s: %v\n", name, err)
		return 0, &parseFailure{count: 1}
	}
	explains, errs := explain.Parse(name, src)
	for _, e := range errs {
		fmt.Fprintln(s.err, e)
	}
	if len(explains) == 0 {
		return 0, usagef("%s: no explain output found", file)
	}
	c := report.ComparePlans(explains[0], r.Plan)
	if err := report.WriteComparison(s.out, name, c); err != nil {
		return 0, fmt.Errorf("writing output: %w", err)
	}
	return len(c.Diffs), nil
}

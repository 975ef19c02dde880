package main

import (
	"context"
	"fmt"

	"github.com/bucketlint/bucketlint/evidence"
	"github.com/bucketlint/bucketlint/report"
)

// evidenceOptions are the flags and arguments of `bucketlint evidence`.
type evidenceOptions struct {
	format string
	top    int
	paths  []string
}

func parseEvidence(args []string, s *streams) (*evidenceOptions, error) {
	opts := &evidenceOptions{}
	fs := newFlagSet("evidence", "[flags] path|url ...",
		"Read Spark event logs (files, rolled eventlog_v2_* directories, or directories of them,\n"+
			"as spark.history.fs.logDirectory holds them; plain or compressed with lz4, snappy or\n"+
			"zstd; or every application of a History Server URL, through its REST API) and print\n"+
			"the costliest shuffles on bucketable keys: every Exchange whose hash keys are columns\n"+
			"of one table, summed per table and keys over every run in the logs, with the bytes\n"+
			"and records written, the runs, the write time, and the bucket layout that removes\n"+
			"the shuffle. Logs are streamed: memory does not grow with their size.",
		s,
		"bucketlint evidence /var/log/spark-events",
		"bucketlint evidence --top 5 --format json app-20260101.zstd",
		"bucketlint evidence http://127.0.0.1:18080")
	fs.StringVar(&opts.format, "format", "text", "output `format`: text or json")
	fs.IntVar(&opts.top, "top", 10, "print at most `n` shuffles (0: all)")
	if err := parseFlags(fs, args); err != nil {
		return nil, err
	}
	if err := checkFormat(opts.format, "text", "json"); err != nil {
		return nil, err
	}
	if opts.top < 0 {
		return nil, usagef("--top must be 0 or more, got %d", opts.top)
	}
	opts.paths = fs.Args()
	if len(opts.paths) == 0 {
		fs.Usage()
		return nil, usagef("evidence needs an event log or a directory of them")
	}
	for _, p := range opts.paths {
		if !evidence.IsURL(p) {
			if err := checkPaths(p); err != nil {
				return nil, err
			}
		}
	}
	return opts, nil
}

func runEvidenceCmd(ctx context.Context, args []string, s *streams) error {
	opts, err := parseEvidence(args, s)
	if err != nil {
		return err
	}
	ev, errs := readEvidence(ctx, opts.paths)
	for _, e := range errs {
		fmt.Fprintln(s.err, e)
	}
	costs := ev.Costs()
	if opts.format == "json" {
		err = report.WriteEvidenceJSON(s.out, ev, costs, opts.top)
	} else {
		err = report.WriteEvidenceText(s.out, ev, costs, opts.top)
	}
	if err == nil && len(errs) > 0 {
		err = &parseFailure{count: len(errs)}
	}
	return err
}

// readEvidence reads every event log under paths into one Evidence, with the errors of the
// logs that could not be read (the others are read all the same).
func readEvidence(ctx context.Context, paths []string) (*evidence.Evidence, []error) {
	all := &evidence.Evidence{}
	var errs []error
	for _, p := range paths {
		ev, err := evidence.Read(ctx, p)
		if ev != nil {
			all.Merge(ev)
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	return all, errs
}

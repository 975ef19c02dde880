package main

import (
	"context"
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/bucketlint/bucketlint/advise"
	"github.com/bucketlint/bucketlint/evidence"
	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/report"
	"github.com/bucketlint/bucketlint/simulate"
	"github.com/bucketlint/bucketlint/workload"
)

// adviseOptions are the flags and arguments of `bucketlint advise`.
type adviseOptions struct {
	common     commonFlags
	partitions listFlag
	minFile    string
	maxFile    string
	format     string
	target     string
	cores      int
	powerOfTwo bool
	evidence   string
	set        map[string]bool // the flags given
	files      []string
}

func parseAdvise(args []string, s *streams) (*adviseOptions, error) {
	opts := &adviseOptions{set: map[string]bool{}}
	fs := newFlagSet("advise", "[flags] FILE.sql…",
		"Recommend bucket columns, counts and sort columns per table so that the workload's\n"+
			"joins and aggregations need no shuffle, with the plans before and after and the code\n"+
			"to rewrite each table (PySpark, Scala, SQL). Each join gets the smallest change that\n"+
			"removes its shuffle: a setting, one table rewritten to the other's layout, or both\n"+
			"rewritten, ranked by the bytes rewritten. FILEs hold the DDL and the queries, each\n"+
			"query simulated in its own session; a query repeated in one session counts that many\n"+
			"times, and a comment \"-- weight: N\" in a query sets its weight.",
		s,
		"bucketlint advise --size orders=40GB --size customers=3GB --cores 64 ddl.sql jobs/*.sql",
		"bucketlint advise --size finance.transactions=2TB --partitions finance.transactions=730 jobs/",
		"bucketlint advise --spark-version 3.2 --format json workload.sql")
	opts.common.register(fs, true)
	fs.Var(&opts.partitions, "partitions", "number of partitions `table=N` of a partitioned table, to size its buckets per partition; repeatable")
	fs.StringVar(&opts.minFile, "min-bucket-file-size", "16MB", "smallest bucket file `size` (one bucket of one partition) a table may be given another table's count for")
	fs.StringVar(&opts.maxFile, "max-bucket-file-size", "2GB", "largest bucket file `size` a table may be given another table's count for")
	fs.StringVar(&opts.format, "format", "text", "output `format`: text or json")
	fs.StringVar(&opts.target, "target-bucket-size", "256MB", "data `size` one bucket should hold (default: thresholds.target-bucket-size in the config, else 256MB)")
	fs.IntVar(&opts.cores, "cores", 0, "executor `cores` of the cluster (default: thresholds.cores in the config, else 0: unknown)")
	fs.BoolVar(&opts.powerOfTwo, "power-of-two", true, "round bucket counts up to a power of two")
	fs.StringVar(&opts.evidence, "evidence", "", "Spark event logs (a `PATH`: a log, a rolled log's directory or a directory of them; or a History Server URL) whose measured shuffle bytes weigh the layouts instead of guesses")
	if err := parseFlags(fs, args); err != nil {
		return nil, err
	}
	fs.Visit(func(f *flag.Flag) { opts.set[f.Name] = true })
	if err := checkFormat(opts.format, "text", "json"); err != nil {
		return nil, err
	}
	if fs.NArg() == 0 {
		return nil, usagef("want at least one SQL file with the DDL and the queries")
	}
	opts.files = fs.Args()
	if err := opts.common.check(); err != nil {
		return nil, err
	}
	if err := checkPaths(opts.files...); err != nil {
		return nil, err
	}
	if opts.evidence != "" && !evidence.IsURL(opts.evidence) {
		if err := checkPaths(opts.evidence); err != nil {
			return nil, err
		}
	}
	return opts, nil
}

func runAdviseCmd(ctx context.Context, args []string, s *streams) error {
	opts, err := parseAdvise(args, s)
	if err != nil {
		return err
	}
	return runAdvise(ctx, opts, s)
}

// runAdvise advises layouts for the queries of the files, each simulated in its session,
// from the workload's one default of the advisor's options and the flags given.
func runAdvise(ctx context.Context, opts *adviseOptions, s *streams) error {
	ld, err := opts.common.load(ctx, opts.files, s)
	if err != nil {
		return err
	}
	loadErr := ld.printErrors(s)
	w := ld.w
	ao, err := opts.adviseOptions(w)
	if err != nil {
		return err
	}
	qs := queriesUnder(w, opts.files)
	if len(qs) == 0 && loadErr != nil {
		return loadErr // the inputs could not be read or parsed (exit 3)
	}
	if len(qs) == 0 {
		return usagef("no queries found in %s%s", strings.Join(opts.files, ", "), unreadCode(w, opts.files))
	}
	if opts.evidence != "" {
		ev, errs := readEvidence(ctx, []string{opts.evidence})
		for _, e := range errs {
			fmt.Fprintln(s.err, e)
		}
		if len(errs) > 0 {
			return &parseFailure{count: len(errs)}
		}
		ao.Measure = measureIn(ev)
	}
	queries := advise.Merged(w, qs)
	recs := advise.Advise(w.Catalogue().Tables(), queries, ao)
	if opts.format == "json" {
		err = report.WriteAdviseJSON(s.out, recs)
	} else {
		err = report.WriteAdviseText(s.out, queries, recs)
	}
	if err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	return loadErr
}

// adviseOptions is the workload's default of the advisor's options with the flags given.
func (o *adviseOptions) adviseOptions(w *workload.Workload) (advise.Options, error) {
	ao := advise.OptionsFor(w, plan.Pos{})
	if o.set["target-bucket-size"] || ao.TargetBucketBytes <= 0 {
		target, err := simulate.ParseBytes(o.target)
		if err != nil || target <= 0 {
			return ao, usagef("--target-bucket-size %q: want a size such as 256MB", o.target)
		}
		ao.TargetBucketBytes = target
	}
	if o.set["cores"] {
		ao.ClusterCores = o.cores
	}
	ao.PowerOfTwo = o.powerOfTwo
	minFile, err := simulate.ParseBytes(o.minFile)
	if err != nil || minFile <= 0 {
		return ao, usagef("--min-bucket-file-size %q: want a size such as 16MB", o.minFile)
	}
	maxFile, err := simulate.ParseBytes(o.maxFile)
	if err != nil || maxFile < minFile {
		return ao, usagef("--max-bucket-file-size %q: want a size such as 2GB, at least --min-bucket-file-size", o.maxFile)
	}
	ao.MinBucketFileBytes, ao.MaxBucketFileBytes = minFile, maxFile
	ao.Partitions = map[string]int{}
	for _, p := range o.partitions {
		k, v, ok := strings.Cut(p, "=")
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if !ok || err != nil || n <= 0 {
			return ao, usagef("--partitions %q: want table=N", p)
		}
		t := w.Catalogue().Table(strings.TrimSpace(k))
		if t == nil {
			return ao, usagef("--partitions %q: no table %s in the DDL", p, k)
		}
		ao.Partitions[t.Name] = n
	}
	return ao, nil
}

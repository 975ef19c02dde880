package main

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/bucketlint/bucketlint/advise"
	"github.com/bucketlint/bucketlint/report"
	"github.com/bucketlint/bucketlint/simulate"
)

// adviseOptions are the flags and arguments of `bucketlint advise`.
type adviseOptions struct {
	confs, sizes listFlag
	partitions   listFlag
	minFile      string
	maxFile      string
	version      string
	format       string
	target       string
	cores        int
	powerOfTwo   bool
	files        []string
}

func parseAdvise(args []string, s *streams) (*adviseOptions, error) {
	opts := &adviseOptions{}
	fs := newFlagSet("advise", "[flags] FILE.sql…",
		"Recommend bucket columns, counts and sort columns per table so that the workload's\n"+
			"joins and aggregations need no shuffle, with the plans before and after and the code\n"+
			"to rewrite each table (PySpark, Scala, SQL). Each join gets the smallest change that\n"+
			"removes its shuffle: a setting, one table rewritten to the other's layout, or both\n"+
			"rewritten, ranked by the bytes rewritten. FILEs hold the DDL and the queries; a\n"+
			"query repeated counts that many times, and a comment \"-- weight: N\" in a query sets\n"+
			"its weight.",
		s,
		"bucketlint advise --size orders=40GB --size customers=3GB --cores 64 ddl.sql jobs/*.sql",
		"bucketlint advise --size finance.transactions=2TB --partitions finance.transactions=730 jobs/",
		"bucketlint advise --spark-version 3.2 --format json workload.sql")
	fs.Var(&opts.confs, "conf", "Spark configuration `key=value`; repeatable")
	fs.Var(&opts.sizes, "size", "table size `table=bytes` (10GB, 512MB, …); repeatable")
	fs.Var(&opts.partitions, "partitions", "number of partitions `table=N` of a partitioned table, to size its buckets per partition; repeatable")
	fs.StringVar(&opts.minFile, "min-bucket-file-size", "16MB", "smallest bucket file `size` (one bucket of one partition) a table may be given another table's count for")
	fs.StringVar(&opts.maxFile, "max-bucket-file-size", "2GB", "largest bucket file `size` a table may be given another table's count for")
	fs.StringVar(&opts.version, "spark-version", "3.5", "Spark `version` to model: 3.0.0 … 4.x")
	fs.StringVar(&opts.format, "format", "text", "output `format`: text or json")
	fs.StringVar(&opts.target, "target-bucket-size", "256MB", "data `size` one bucket should hold")
	fs.IntVar(&opts.cores, "cores", 0, "executor `cores` of the cluster (0: unknown)")
	fs.BoolVar(&opts.powerOfTwo, "power-of-two", true, "round bucket counts up to a power of two")
	if err := parseFlags(fs, args); err != nil {
		return nil, err
	}
	if err := checkFormat(opts.format, "text", "json"); err != nil {
		return nil, err
	}
	if fs.NArg() == 0 {
		return nil, usagef("want at least one SQL file with the DDL and the queries")
	}
	opts.files = fs.Args()
	return opts, nil
}

func runAdviseCmd(_ context.Context, args []string, s *streams) error {
	opts, err := parseAdvise(args, s)
	if err != nil {
		return err
	}
	return runAdvise(opts, s)
}

func runAdvise(opts *adviseOptions, s *streams) error {
	ws, err := loadSQL(opts.files, func(string) bool { return true }, s.in, s.err)
	if err != nil {
		return err
	}
	opt, err := simOptions(opts.version, ws.confs, opts.confs, opts.sizes, ws.tables)
	if err != nil {
		return err
	}
	target, err := simulate.ParseBytes(opts.target)
	if err != nil || target <= 0 {
		return usagef("--target-bucket-size %q: want a size such as 256MB", opts.target)
	}
	minFile, err := simulate.ParseBytes(opts.minFile)
	if err != nil || minFile <= 0 {
		return usagef("--min-bucket-file-size %q: want a size such as 16MB", opts.minFile)
	}
	maxFile, err := simulate.ParseBytes(opts.maxFile)
	if err != nil || maxFile < minFile {
		return usagef("--max-bucket-file-size %q: want a size such as 2GB, at least --min-bucket-file-size", opts.maxFile)
	}
	parts := map[string]int{}
	for _, p := range opts.partitions {
		k, v, ok := strings.Cut(p, "=")
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if !ok || err != nil || n <= 0 {
			return usagef("--partitions %q: want table=N", p)
		}
		name := strings.ToLower(strings.TrimSpace(k))
		if ws.tables[name] == nil {
			return usagef("--partitions %q: no table %s in the DDL", p, k)
		}
		parts[name] = n
	}
	if len(ws.queries) == 0 {
		return usagef("no queries found in %s", strings.Join(opts.files, ", "))
	}
	workload := weighted(ws)
	recs := advise.Advise(ws.tables, workload, advise.Options{
		Spark: opt, TargetBucketBytes: target, ClusterCores: opts.cores, PowerOfTwo: opts.powerOfTwo,
		MinBucketFileBytes: minFile, MaxBucketFileBytes: maxFile, Partitions: parts,
	})
	if opts.format == "json" {
		err = report.WriteAdviseJSON(s.out, recs)
	} else {
		err = report.WriteAdviseText(s.out, workload, recs)
	}
	if err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	if ws.errs > 0 {
		return &parseFailure{count: ws.errs}
	}
	return nil
}

var weightComment = regexp.MustCompile(`(?i)--\s*weight\s*[:=]\s*([0-9.]+)`)

// weighted merges repeated queries (same text) into one with the count as weight; a
// "-- weight: N" comment sets the weight instead.
func weighted(ws *workspace) []advise.WeightedQuery {
	var out []advise.WeightedQuery
	index := map[string]int{}
	for _, q := range ws.queries {
		w := 1.0
		if m := weightComment.FindStringSubmatch(q.Text); m != nil {
			if v, err := strconv.ParseFloat(m[1], 64); err == nil && v > 0 {
				w = v
			}
		}
		key := strings.Join(strings.Fields(strings.ToLower(q.Text)), " ")
		if i, ok := index[key]; ok {
			out[i].Weight += w
			continue
		}
		index[key] = len(out)
		out = append(out, advise.WeightedQuery{Query: ws.withViews(q), Weight: w})
	}
	return out
}

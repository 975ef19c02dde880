package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/bucketlint/bucketlint/advise"
	"github.com/bucketlint/bucketlint/plan"
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
		err = writeAdviseJSON(s.out, recs)
	} else {
		err = writeAdviseText(s.out, workload, recs)
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

func specText(b *plan.BucketSpec) string {
	s := "CLUSTERED BY (" + strings.Join(b.Columns, ", ") + ")"
	if len(b.SortColumns) > 0 {
		s += " SORTED BY (" + strings.Join(b.SortColumns, ", ") + ")"
	}
	return s + fmt.Sprintf(" INTO %d BUCKETS", b.NumBuckets)
}

func writeAdviseText(w io.Writer, workload []advise.WeightedQuery, recs []advise.Recommendation) error {
	var b strings.Builder
	if len(recs) == 0 {
		b.WriteString("no layout change removes a shuffle from this workload\n")
	} else {
		b.WriteString(adviseSummary(recs) + "\n\n")
	}
	for i, r := range recs {
		if i > 0 {
			b.WriteString("\n")
		}
		if r.Bucket == nil {
			fmt.Fprintf(&b, "%s: leave unbucketed\n  why: %s\n", r.Table, r.Reason)
			continue
		}
		if r.Keep {
			fmt.Fprintf(&b, "%s: keep %s (no rewrite)\n  why: %s\n", r.Table, specText(r.Bucket), r.Reason)
		} else {
			fmt.Fprintf(&b, "%s: %s\n  why: %s\n", r.Table, specText(r.Bucket), r.Reason)
		}
		if len(r.Confs) > 0 {
			fmt.Fprintf(&b, "  settings: %s\n", confsText(r.Confs))
		}
		fmt.Fprintf(&b, "  shuffles removed: %d\n", r.ShufflesRemoved)
		for _, f := range r.Fixes {
			fmt.Fprintf(&b, "  fixes %s\n", f)
		}
		for _, o := range r.Queries {
			fmt.Fprintf(&b, "  query %d (%s): %d exchange(s), %d sort(s) before; %d exchange(s), %d sort(s) after\n",
				o.Index+1, workload[o.Index].Query.Span.Start, o.Before.Exchanges, o.Before.Sorts, o.After.Exchanges, o.After.Sorts)
		}
		for _, c := range []struct{ name, code string }{{"PySpark", r.Code.PySpark}, {"Scala", r.Code.Scala}, {"SQL", r.Code.SQL}, {"SQL, as one CREATE TABLE … AS SELECT", r.Code.CTAS}} {
			if c.code == "" {
				continue
			}
			fmt.Fprintf(&b, "  %s:\n", c.name)
			for _, ln := range strings.Split(strings.TrimRight(c.code, "\n"), "\n") {
				b.WriteString("    " + ln + "\n")
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// adviseSummary is the advice in one line: the tables rewritten, kept, broadcast, and the
// settings it needs.
func adviseSummary(recs []advise.Recommendation) string {
	var rewrite, keep, plain []string
	confs := map[string]string{}
	for _, r := range recs {
		switch {
		case r.Bucket == nil:
			plain = append(plain, r.Table)
		case r.Keep:
			keep = append(keep, r.Table)
		default:
			rewrite = append(rewrite, fmt.Sprintf("%s into %d buckets", r.Table, r.Bucket.NumBuckets))
		}
		for k, v := range r.Confs {
			confs[k] = v
		}
	}
	var parts []string
	if len(rewrite) > 0 {
		parts = append(parts, "rewrite "+strings.Join(rewrite, ", "))
	} else {
		parts = append(parts, "rewrite nothing")
	}
	if len(keep) > 0 {
		parts = append(parts, "keep "+strings.Join(keep, ", "))
	}
	if len(plain) > 0 {
		parts = append(parts, "leave unbucketed "+strings.Join(plain, ", "))
	}
	if len(confs) > 0 {
		parts = append(parts, "set "+confsText(confs))
	}
	return "advice: " + strings.Join(parts, "; ")
}

func confsText(confs map[string]string) string {
	keys := make([]string, 0, len(confs))
	for k := range confs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for i, k := range keys {
		keys[i] = k + "=" + confs[k]
	}
	return strings.Join(keys, ", ")
}

func writeAdviseJSON(w io.Writer, recs []advise.Recommendation) error {
	type countsJSON struct {
		Exchanges int `json:"exchanges"`
		Sorts     int `json:"sorts"`
	}
	type queryJSON struct {
		Index  int        `json:"index"`
		Before countsJSON `json:"before"`
		After  countsJSON `json:"after"`
	}
	type bucketJSON struct {
		NumBuckets  int      `json:"numBuckets"`
		Columns     []string `json:"columns"`
		SortColumns []string `json:"sortColumns"`
	}
	type recJSON struct {
		Table           string            `json:"table"`
		Bucket          *bucketJSON       `json:"bucket"`
		CastColumns     map[string]string `json:"castColumns"`
		Keep            bool              `json:"keep"`
		Confs           map[string]string `json:"confs"`
		RewriteBytes    int64             `json:"rewriteBytes"`
		Reason          string            `json:"reason"`
		ShufflesRemoved int               `json:"shufflesRemoved"`
		Fixes           []string          `json:"fixes"`
		Queries         []queryJSON       `json:"queries"`
		Code            map[string]string `json:"code"`
	}
	out := struct {
		Recommendations []recJSON `json:"recommendations"`
	}{Recommendations: []recJSON{}}
	for _, r := range recs {
		rj := recJSON{Table: r.Table, CastColumns: r.CastColumns, Keep: r.Keep, Confs: r.Confs, RewriteBytes: r.RewriteBytes, Reason: r.Reason, ShufflesRemoved: r.ShufflesRemoved, Fixes: []string{}, Queries: []queryJSON{}}
		if rj.CastColumns == nil {
			rj.CastColumns = map[string]string{}
		}
		if rj.Confs == nil {
			rj.Confs = map[string]string{}
		}
		if r.Bucket != nil {
			rj.Bucket = &bucketJSON{NumBuckets: r.Bucket.NumBuckets, Columns: r.Bucket.Columns, SortColumns: nonNil(r.Bucket.SortColumns)}
			if !r.Keep {
				rj.Code = map[string]string{"pyspark": r.Code.PySpark, "scala": r.Code.Scala, "sql": r.Code.SQL, "sqlCtas": r.Code.CTAS}
			}
		}
		for _, f := range r.Fixes {
			rj.Fixes = append(rj.Fixes, f.String())
		}
		for _, o := range r.Queries {
			rj.Queries = append(rj.Queries, queryJSON{Index: o.Index, Before: countsJSON{o.Before.Exchanges, o.Before.Sorts}, After: countsJSON{o.After.Exchanges, o.After.Sorts}})
		}
		out.Recommendations = append(out.Recommendations, rj)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/bucketlint/bucketlint/engine/hash"
	"github.com/bucketlint/bucketlint/parser"
	"github.com/bucketlint/bucketlint/parser/explain"
	"github.com/bucketlint/bucketlint/parser/sql"
	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/report"
	"github.com/bucketlint/bucketlint/simulate"
)

// listFlag is a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(v string) error {
	*l = append(*l, v)
	return nil
}

// simulateOptions are the flags and argument of `bucketlint simulate`.
type simulateOptions struct {
	tables  listFlag
	confs   listFlag
	sizes   listFlag
	version string
	format  string
	explain string
	file    string
}

func parseSimulate(args []string, s *streams) (*simulateOptions, error) {
	opts := &simulateOptions{}
	fs := newFlagSet("simulate", "[flags] QUERY.sql|-",
		"Predict the physical plan Spark builds for each query of QUERY.sql over the tables\n"+
			"declared with --tables (and in QUERY.sql itself): join strategies, bucketed scans,\n"+
			"where an Exchange (shuffle) or a Sort goes and why, per Spark version. With --explain,\n"+
			"compare the prediction with a real EXPLAIN output and report every difference.",
		s,
		"bucketlint simulate --tables ddl.sql query.sql",
		"bucketlint simulate --tables ddl.sql --spark-version 3.2 --conf spark.sql.shuffle.partitions=400 query.sql",
		"bucketlint simulate --tables ddl.sql --explain explain.txt query.sql")
	fs.Var(&opts.tables, "tables", "`FILE` of table DDL (CREATE TABLE …); repeatable")
	fs.Var(&opts.confs, "conf", "Spark configuration `key=value`; repeatable")
	fs.Var(&opts.sizes, "size", "table size `table=bytes` (10GB, 512MB, …) for broadcast and bucket-count decisions; repeatable")
	fs.StringVar(&opts.version, "spark-version", "3.5", "Spark `version` to model: 3.0.0 … 4.x")
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
	return opts, nil
}

func runSimulateCmd(_ context.Context, args []string, s *streams) error {
	opts, err := parseSimulate(args, s)
	if err != nil {
		return err
	}
	return runSimulate(opts, s)
}

// workspace is what the SQL inputs declare: tables, queries and SET confs.
type workspace struct {
	tables  map[string]*plan.Table
	queries []*plan.Query
	confs   map[string]string
	views   map[string]*plan.Query
	errs    int
}

// loadSQL reads the inputs of simulate and advise. SQL files and standard input are read
// with parser/sql (DDL, SET, queries, CREATE VIEW); directories and every other kind of file
// (DESCRIBE or SHOW CREATE output, catalog YAML, code) go through parser.Load, as check reads
// them. Queries found through parser.Load are kept when keep says so for their file:
// simulate predicts the plan of its QUERY argument alone, advise weighs every query of the
// workload. Parse errors are reported to w.
func loadSQL(files []string, keep func(file string) bool, stdin io.Reader, w io.Writer) (*workspace, error) {
	p, err := sql.New()
	if err != nil {
		return nil, err
	}
	ws := &workspace{tables: map[string]*plan.Table{}, confs: map[string]string{}, views: map[string]*plan.Query{}}
	var loadPaths []string
	for _, f := range files {
		if f != "-" && !isSQLFile(f) {
			loadPaths = append(loadPaths, f)
		}
	}
	if len(loadPaths) > 0 {
		for _, f := range loadPaths {
			if _, err := os.Stat(f); err != nil {
				return nil, &usageError{msg: err.Error()}
			}
		}
		proj, errs := parser.Load(context.Background(), loadPaths, parser.LoadOptions{SQL: p})
		for _, e := range errs {
			fmt.Fprintln(w, e)
		}
		ws.errs += len(errs)
		for name, t := range proj.Tables {
			ws.tables[name] = t
		}
		for _, c := range proj.Confs {
			ws.confs[c.Key] = c.Value
		}
		for _, q := range proj.Queries {
			if keep(q.Span.Start.File) {
				ws.queries = append(ws.queries, q)
			}
		}
	}
	for _, f := range files {
		if f != "-" && !isSQLFile(f) {
			continue
		}
		name, src, err := readInput(f, stdin)
		if err != nil {
			return nil, &usageError{msg: err.Error()}
		}
		pf, errs := p.ParseFile(name, src)
		for _, e := range errs {
			fmt.Fprintln(w, e)
		}
		ws.errs += len(errs)
		for _, t := range pf.Tables {
			ws.tables[t.Name] = t
		}
		for _, c := range pf.Confs {
			ws.confs[c.Key] = c.Value
		}
		for _, st := range pf.Other {
			if vn, body, ok := viewDefinition(st.Text); ok {
				if vf, errs := p.ParseFile(name, []byte(body)); len(errs) == 0 && len(vf.Queries) == 1 {
					ws.views[vn] = vf.Queries[0]
				}
			}
		}
		ws.queries = append(ws.queries, pf.Queries...)
	}
	return ws, nil
}

// isSQLFile reports whether a path names a SQL file read directly by parser/sql.
func isSQLFile(f string) bool {
	switch strings.ToLower(filepath.Ext(f)) {
	case ".sql", ".hql", ".ddl":
		fi, err := os.Stat(f)
		return err != nil || !fi.IsDir()
	}
	return false
}

// withViews adds the views a query may read as common table expressions.
func (ws *workspace) withViews(q *plan.Query) *plan.Query {
	if len(ws.views) == 0 {
		return q
	}
	c := *q
	c.CTEs = append([]*plan.CTE{}, q.CTEs...)
	names := make([]string, 0, len(ws.views))
	for n := range ws.views {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		c.CTEs = append(c.CTEs, &plan.CTE{Name: n, Root: ws.views[n].Root})
	}
	return &c
}

// viewDefinition reads CREATE [OR REPLACE] [GLOBAL] [TEMP] VIEW name AS query.
func viewDefinition(s string) (name, body string, ok bool) {
	m := viewPattern().FindStringSubmatch(s)
	if m == nil {
		return "", "", false
	}
	return strings.ToLower(strings.Trim(m[1], "`")), m[2], true
}

func viewPattern() *regexp.Regexp {
	return regexp.MustCompile(`(?is)^\s*CREATE\s+(?:OR\s+REPLACE\s+)?(?:GLOBAL\s+)?(?:TEMP(?:ORARY)?\s+)?VIEW\s+(?:IF\s+NOT\s+EXISTS\s+)?([A-Za-z_0-9.` + "`" + `]+)\s+AS\s+(.*)$`)
}

// simOptions turns --spark-version, SET statements and --conf into simulate.Options.
func simOptions(version string, fileConfs map[string]string, confs, sizes listFlag, tables map[string]*plan.Table) (simulate.Options, error) {
	v, err := simulate.ParseVersion(version)
	if err != nil {
		return simulate.Options{}, &usageError{msg: err.Error()}
	}
	opt := simulate.Options{SparkVersion: v, Confs: map[string]string{}, BucketOf: hash.BucketOfLiteral}
	for k, val := range fileConfs {
		opt.Confs[k] = val
	}
	for _, c := range confs {
		k, val, ok := strings.Cut(c, "=")
		if !ok {
			return opt, usagef("--conf %q: want key=value", c)
		}
		opt.Confs[strings.TrimSpace(k)] = strings.TrimSpace(val)
	}
	for _, sz := range sizes {
		k, val, ok := strings.Cut(sz, "=")
		n, err := simulate.ParseBytes(val)
		if !ok || err != nil {
			return opt, usagef("--size %q: want table=bytes", sz)
		}
		t := tables[strings.ToLower(strings.TrimSpace(k))]
		if t == nil {
			return opt, usagef("--size %q: no table %s in the DDL", sz, k)
		}
		t.SizeInBytes = n
	}
	return opt, nil
}

func runSimulate(opts *simulateOptions, s *streams) error {
	ws, err := loadSQL(append(append([]string{}, opts.tables...), opts.file), func(f string) bool {
		return filepath.Clean(f) == filepath.Clean(opts.file)
	}, s.in, s.err)
	if err != nil {
		return err
	}
	if len(ws.queries) == 0 {
		return usagef("%s: no query found", opts.file)
	}
	opt, err := simOptions(opts.version, ws.confs, opts.confs, opts.sizes, ws.tables)
	if err != nil {
		return err
	}
	var results []*simulate.Result
	for _, q := range ws.queries {
		r, err := simulate.Simulate(ws.tables, ws.withViews(q), opt)
		if err != nil {
			return fmt.Errorf("%s: %w", q.Span.Start, err)
		}
		results = append(results, r)
	}
	switch opts.format {
	case "json":
		err = report.WriteSimulateJSON(s.out, opt.Confs, results)
	case "mermaid":
		err = report.WriteSimulateMermaid(s.out, results)
	default:
		err = report.WriteSimulateText(s.out, ws.queries, results)
	}
	if err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	var errs []error
	if opts.explain != "" {
		diffs, err := compareExplain(opts.explain, s, results[0])
		if err != nil {
			return err
		}
		if diffs > 0 {
			errs = append(errs, &explainDiffError{count: diffs, file: opts.explain})
		}
	}
	if ws.errs > 0 {
		errs = append(errs, &parseFailure{count: ws.errs})
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
func compareExplain(file string, s *streams, r *simulate.Result) (int, error) {
	name, src, err := readInput(file, s.in)
	if err != nil {
		return 0, &usageError{msg: err.Error()}
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

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
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
		err = writeSimulateJSON(s.out, opt, results)
	case "mermaid":
		err = writeSimulateMermaid(s.out, results)
	default:
		err = writeSimulateText(s.out, ws.queries, results)
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

// writeSimulateText prints each prediction as Spark's simple explain mode would, then the
// decisions.
func writeSimulateText(w io.Writer, queries []*plan.Query, results []*simulate.Result) error {
	var b strings.Builder
	for i, r := range results {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "-- query %d (%s): Spark %s, co-partitioning era %s", i+1, queries[i].Span.Start, r.Version, r.Era)
		if r.Adaptive {
			b.WriteString(", adaptive execution on")
		}
		b.WriteString("\n== Physical Plan (predicted) ==\n")
		writeSparkTree(&b, r.Plan, "", "", true)
		fmt.Fprintf(&b, "\nExchanges: %d, Sorts: %d\n", r.Exchanges, r.Sorts)
		for _, d := range r.Decisions {
			fmt.Fprintf(&b, "  %s %s: %s — %s\n", d.Node.Info().Name, d.Side, d.Inserted, d.Reason)
		}
		for _, u := range r.Unmodelled {
			fmt.Fprintf(&b, "  not modelled: %s\n", u)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeSparkTree prints a plan the way Spark's TreeNode.generateTreeString does: ":- " before
// every child but the last, "+- " before the last, ":  " and "   " continuing the levels.
func writeSparkTree(b *strings.Builder, n plan.Node, prefix, marker string, last bool) {
	b.WriteString(prefix + marker + n.Info().Text + "\n")
	next := prefix
	if marker != "" {
		if last {
			next += "   "
		} else {
			next += ":  "
		}
	}
	kids := n.Children()
	for i, k := range kids {
		m := ":- "
		if i == len(kids)-1 {
			m = "+- "
		}
		writeSparkTree(b, k, next, m, i == len(kids)-1)
	}
}

func writeSimulateMermaid(w io.Writer, results []*simulate.Result) error {
	var b strings.Builder
	b.WriteString("flowchart BT\n")
	id := 0
	var rec func(n plan.Node) int
	rec = func(n plan.Node) int {
		id++
		me := id
		label := strings.ReplaceAll(n.Info().Text, `"`, "'")
		if len(label) > 80 {
			label = label[:77] + "..."
		}
		fmt.Fprintf(&b, "  n%d[\"%s\"]\n", me, label)
		if _, ok := n.(*plan.Exchange); ok {
			fmt.Fprintf(&b, "  style n%d fill:#f96\n", me)
		}
		for _, k := range n.Children() {
			c := rec(k)
			fmt.Fprintf(&b, "  n%d --> n%d\n", c, me)
		}
		return me
	}
	for _, r := range results {
		rec(r.Plan)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeSimulateJSON(w io.Writer, opt simulate.Options, results []*simulate.Result) error {
	type decisionJSON struct {
		Node     string `json:"node"`
		Side     string `json:"side"`
		Inserted string `json:"inserted"`
		Reason   string `json:"reason"`
	}
	type resultJSON struct {
		SparkVersion string            `json:"sparkVersion"`
		Era          string            `json:"era"`
		Adaptive     bool              `json:"adaptive"`
		Conf         map[string]string `json:"conf"`
		Plan         any               `json:"plan"`
		Exchanges    int               `json:"exchanges"`
		Sorts        int               `json:"sorts"`
		Decisions    []decisionJSON    `json:"decisions"`
		Unmodelled   []string          `json:"unmodelled"`
	}
	var out []resultJSON
	for _, r := range results {
		rj := resultJSON{
			SparkVersion: r.Version.String(), Era: r.Era.String(), Adaptive: r.Adaptive, Conf: opt.Confs,
			Plan: report.NodeJSON(r.Plan), Exchanges: r.Exchanges, Sorts: r.Sorts, Decisions: []decisionJSON{}, Unmodelled: r.Unmodelled,
		}
		if rj.Unmodelled == nil {
			rj.Unmodelled = []string{}
		}
		for _, d := range r.Decisions {
			rj.Decisions = append(rj.Decisions, decisionJSON{Node: d.Node.Info().Text, Side: d.Side, Inserted: d.Inserted, Reason: d.Reason})
		}
		out = append(out, rj)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if len(out) == 1 {
		return enc.Encode(out[0])
	}
	return enc.Encode(out)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// compareExplain compares a prediction with the first explain output in file: join
// strategies, the Exchanges and Sorts on every join side with partition counts, total
// exchanges and sorts, and bucketed scans. It prints each difference and returns how many.
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
	actual := explains[0].Physical()
	if a, ok := actual.(*plan.AdaptiveSparkPlan); ok {
		if ini := a.Sub("Initial Plan"); ini != nil {
			actual = ini
		} else if eff := a.Effective(); eff != nil {
			actual = eff
		}
	}
	want, got := planShape(actual), planShape(r.Plan)
	var diffs []string
	if want.exchanges != got.exchanges {
		diffs = append(diffs, fmt.Sprintf("exchanges: predicted %d, Spark %d", got.exchanges, want.exchanges))
	}
	if want.sorts != got.sorts {
		diffs = append(diffs, fmt.Sprintf("sorts: predicted %d, Spark %d", got.sorts, want.sorts))
	}
	if want.bucketed != got.bucketed {
		diffs = append(diffs, fmt.Sprintf("bucketed scans: predicted %d, Spark %d", got.bucketed, want.bucketed))
	}
	if fmt.Sprint(want.partitions) != fmt.Sprint(got.partitions) {
		diffs = append(diffs, fmt.Sprintf("shuffle partition counts: predicted %v, Spark %v", got.partitions, want.partitions))
	}
	for i := 0; i < max(len(want.joins), len(got.joins)); i++ {
		var w, g string
		if i < len(want.joins) {
			w = want.joins[i]
		}
		if i < len(got.joins) {
			g = got.joins[i]
		}
		if w != g {
			diffs = append(diffs, fmt.Sprintf("join %d: predicted %s, Spark %s", i+1, orNone(g), orNone(w)))
		}
	}
	fmt.Fprintf(s.out, "\n== Compared with %s ==\n", name)
	if len(diffs) == 0 {
		fmt.Fprintf(s.out, "the prediction matches: %d exchanges, %d sorts, %d bucketed scans, joins %v\n", got.exchanges, got.sorts, got.bucketed, got.joins)
	}
	for _, d := range diffs {
		fmt.Fprintln(s.out, d)
	}
	return len(diffs), nil
}

func orNone(s string) string {
	if s == "" {
		return "no join"
	}
	return s
}

type shapeSummary struct {
	exchanges, sorts, bucketed int
	partitions                 []int
	joins                      []string
}

// planShape summarises a plan: shuffle Exchanges (not broadcasts, not reused), Sorts, the
// shuffles' partition counts, and per join its strategy and what is inserted on each side.
func planShape(root plan.Node) shapeSummary {
	var s shapeSummary
	plan.Walk(root, func(n plan.Node) bool {
		switch x := n.(type) {
		case *plan.Exchange:
			s.exchanges++
			s.partitions = append(s.partitions, x.Partitioning.NumPartitions)
		case *plan.Sort:
			s.sorts++
		case *plan.FileScan:
			// "Bucketed: true" (3.3+), else a printed SelectedBucketsCount (3.1+).
			if x.Bucketed != nil && *x.Bucketed || x.Bucketed == nil && x.TotalBuckets > 0 {
				s.bucketed++
			}
		}
		if j, ok := plan.JoinOf(n); ok && len(n.Children()) == 2 {
			s.joins = append(s.joins, fmt.Sprintf("%s left %s right %s", j.Strategy, sideOps(n.Children()[0]), sideOps(n.Children()[1])))
		}
		return true
	})
	return s
}

func sideOps(n plan.Node) string {
	var parts []string
	var rec func(n plan.Node)
	rec = func(n plan.Node) {
		switch x := n.(type) {
		case *plan.Exchange:
			parts = append(parts, "Exchange("+strconv.Itoa(x.Partitioning.NumPartitions)+")")
		case *plan.Sort:
			parts = append(parts, "Sort")
		case *plan.BroadcastExchange:
			parts = append(parts, "BroadcastExchange")
		}
		if _, ok := plan.JoinOf(n); ok {
			return
		}
		for _, k := range n.Children() {
			rec(k)
		}
	}
	rec(n)
	if len(parts) == 0 {
		return "[]"
	}
	return "[" + strings.Join(parts, " ") + "]"
}

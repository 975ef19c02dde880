package main

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/bucketlint/bucketlint/engine/hash"
	"github.com/bucketlint/bucketlint/parser"
	"github.com/bucketlint/bucketlint/parser/perr"
	"github.com/bucketlint/bucketlint/parser/sql"
	"github.com/bucketlint/bucketlint/rules"
	"github.com/bucketlint/bucketlint/simulate"
	"github.com/bucketlint/bucketlint/workload"
)

// listFlag is a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(v string) error {
	*l = append(*l, v)
	return nil
}

// commonFlags are the flags of every command that reads a workload (check, simulate, advise,
// verify, tables), declared once so that each reads .bucketlint.yaml, the Spark version and
// settings, the table inputs and the excludes the same way, and builds the same workload.
type commonFlags struct {
	config       string
	sparkVersion string
	confs        listFlag
	tables       listFlag
	exclude      listFlag
	// extendExclude adds to the configuration's exclude; exclude replaces it.
	extendExclude listFlag
	// respectGitignore skips what Git ignores (.gitignore files, .git/info/exclude).
	respectGitignore bool
	// stdinName is check's --stdin-filename: the name standard input ("-") is read as.
	stdinName string
	// sizes is --size, registered by the commands that size advice (simulate, advise).
	sizes listFlag
	// maxInput is --max-input-size, the largest input read.
	maxInput sizeFlag
	// jobs is --jobs, registered by check: how many files are parsed, join sites built and
	// rules run at once; 0 means one per CPU (GOMAXPROCS).
	jobs int
}

// register declares the common flags on fs; withSizes adds --size.
func (c *commonFlags) register(fs *flag.FlagSet, withSizes bool) {
	fs.StringVar(&c.config, "config", "", "configuration `FILE` (default: .bucketlint.yaml found upwards)")
	fs.StringVar(&c.sparkVersion, "spark-version", "", "Spark `version` to model, 3.0 … 4.x (default 3.5, or spark.version in the config)")
	fs.Var(&c.confs, "conf", "Spark configuration `key=value`; repeatable, wins over the config and the files")
	fs.Var(&c.tables, "tables", "more table definitions to read (DDL, DESCRIBE or SHOW CREATE output, catalog YAML) at `PATH`;\n"+
		"their tables, views and settings count, their queries are not simulated, advised or verified; repeatable")
	fs.Var(&c.exclude, "exclude", "gitignore-style `glob` of paths to skip; repeatable, replaces the config's exclude")
	fs.Var(&c.extendExclude, "extend-exclude", "gitignore-style `glob` of paths to skip; repeatable, adds to the config's exclude")
	fs.BoolVar(&c.respectGitignore, "respect-gitignore", true, "skip the files Git ignores (.gitignore files, .git/info/exclude) in walked directories")
	registerMaxInput(fs, &c.maxInput)
	if withSizes {
		fs.Var(&c.sizes, "size", "table size `table=bytes` (10GB, 512MB, …) for broadcast and bucket-count decisions; repeatable")
	}
}

// registerJobs declares --jobs on fs.
func (c *commonFlags) registerJobs(fs *flag.FlagSet) {
	fs.IntVar(&c.jobs, "jobs", 0, "parse files and run rules `N` at a time (default 0: one per CPU Go uses, GOMAXPROCS);\n"+
		"the output is the same for every N")
}

// check validates the flags' values (exit 2 on a bad one).
func (c *commonFlags) check() error {
	if c.jobs < 0 {
		return usagef("--jobs %d: want 1 or more (or 0 for one per CPU)", c.jobs)
	}
	for _, kv := range c.confs {
		if k, _, ok := strings.Cut(kv, "="); !ok || strings.TrimSpace(k) == "" {
			return usagef("--conf %q: want key=value", kv)
		}
	}
	for _, sz := range c.sizes {
		k, v, ok := strings.Cut(sz, "=")
		if _, err := simulate.ParseBytes(v); !ok || err != nil || strings.TrimSpace(k) == "" {
			return usagef("--size %q: want table=bytes", sz)
		}
	}
	return checkPaths(c.tables...)
}

// A loaded workload is what every command reads: the configuration, the resolved workload and
// the inputs that could not be parsed.
type loaded struct {
	cfg  *config
	w    *workload.Workload
	errs perr.List
	// exclude is the effective exclude list: the configuration's or --exclude, then
	// --extend-exclude.
	exclude []string
	// jobs is how many rules run at once (--jobs; 0: one per CPU).
	jobs int
}

// load reads the configuration, loads the paths (and --tables and the configuration's catalog
// files; "-" is standard input) and resolves them into the workload every command shares.
func (c *commonFlags) load(ctx context.Context, paths []string, s *streams) (*loaded, error) {
	return c.loadWith(ctx, paths, nil, s)
}

// loadWith is load with a verify scenario file's Spark version and settings, which win over
// the configuration's and lose to the flags.
func (c *commonFlags) loadWith(ctx context.Context, paths []string, scenario *sparkConfig, s *streams) (*loaded, error) {
	cfg, err := resolveConfig(c.config, c.maxInput.limit(), rules.All())
	if err != nil {
		return nil, err
	}
	if scenario != nil {
		merged := *cfg
		merged.Spark = overlay(cfg.Spark, *scenario)
		cfg = &merged
	}
	return c.loadFrom(ctx, cfg, paths, parser.LoadOptions{Stdin: s.in})
}

// loadFrom loads the paths (and --tables and the configuration's catalog files) under an
// already resolved configuration; base gives the load options the flags do not (standard
// input, an editor's unsaved files, a compiled SQL parser), and the configuration's and the
// flags' excludes and --max-input-size are added to it.
func (c *commonFlags) loadFrom(ctx context.Context, cfg *config, paths []string, base parser.LoadOptions) (*loaded, error) {
	wc, err := c.workloadConfig(cfg)
	if err != nil {
		return nil, err
	}
	all := append(append(append([]string(nil), paths...), c.tables...), cfg.Catalog...)
	exclude := append([]string(nil), cfg.Exclude...)
	if len(c.exclude) > 0 {
		exclude = append([]string(nil), c.exclude...)
	}
	exclude = append(exclude, c.extendExclude...)
	base.Exclude = append(append([]string(nil), base.Exclude...), exclude...)
	base.MaxInputSize = c.maxInput.limit()
	base.SQLOptions = sqlOptions(wc.SparkVersion)
	for k, v := range wc.Confs {
		if strings.EqualFold(k, "spark.sql.legacy.bangEqualsNot") {
			base.SQLOptions.LegacyBangNot = strings.EqualFold(v, "true")
		}
	}
	base.GitIgnore = c.respectGitignore
	if base.Workers == 0 {
		base.Workers = c.jobs
	}
	if base.StdinName == "" {
		base.StdinName = c.stdinName
	}
	project, errs := parser.Load(ctx, all, base)
	w, err := workload.New(project, wc)
	if err != nil {
		return nil, c.sizeError(w)
	}
	return &loaded{cfg: cfg, w: w, errs: errs, exclude: exclude, jobs: c.jobs}, nil
}

// sqlOptions makes the SQL parser read the syntax of the Spark version modelled: the
// configured one, or the default, which its errors then name as such.
func sqlOptions(v simulate.Version) sql.Options {
	if v.Major == 0 {
		d := simulate.DefaultVersion()
		return sql.Options{Spark: sql.Version{Major: d.Major, Minor: d.Minor}, SparkDefault: true}
	}
	return sql.Options{Spark: sql.Version{Major: v.Major, Minor: v.Minor}}
}

// overlay returns base with the version and settings top gives.
func overlay(base, top sparkConfig) sparkConfig {
	out := sparkConfig{Version: base.Version, Conf: map[string]string{}}
	if top.Version != "" {
		out.Version = top.Version
	}
	for k, v := range base.Conf {
		out.Conf[k] = v
	}
	for k, v := range top.Conf {
		out.Conf[k] = v
	}
	return out
}

// workloadConfig turns the configuration and the flags into the workload's: --spark-version
// over spark.version, --conf over spark.conf, the thresholds the advisor sizes with.
func (c *commonFlags) workloadConfig(cfg *config) (workload.Config, error) {
	wc := workload.Config{BucketOf: hash.BucketOfLiteral, Confs: map[string]string{}, Workers: c.jobs}
	v := c.sparkVersion
	if v == "" {
		v = cfg.Spark.Version
	}
	if v != "" {
		ver, err := simulate.ParseVersion(v)
		if err != nil {
			return wc, usagef("--spark-version: %v", err)
		}
		wc.SparkVersion = ver
	}
	for k, val := range cfg.Spark.Conf {
		wc.Confs[k] = val
	}
	for _, kv := range c.confs {
		k, val, _ := strings.Cut(kv, "=")
		wc.Confs[strings.TrimSpace(k)] = strings.TrimSpace(val)
	}
	th := cfg.Thresholds.thresholds()
	wc.TargetBucketBytes, wc.ClusterCores = th.TargetBucketBytes, th.ClusterCores
	for _, sz := range c.sizes {
		if wc.Sizes == nil {
			wc.Sizes = map[string]int64{}
		}
		k, val, _ := strings.Cut(sz, "=")
		n, _ := simulate.ParseBytes(val)
		wc.Sizes[strings.ToLower(strings.TrimSpace(k))] = n
	}
	return wc, nil
}

// sizeError names the first --size whose table the workload does not have.
func (c *commonFlags) sizeError(w *workload.Workload) error {
	for _, sz := range c.sizes {
		k, _, _ := strings.Cut(sz, "=")
		if w.Catalogue().Table(strings.TrimSpace(k)) == nil {
			return usagef("--size %q: no table %s in the DDL", sz, strings.TrimSpace(k))
		}
	}
	return usagef("--size: a table is not in the DDL")
}

// printErrors writes the inputs' errors, one per line, and returns the parse failure they
// make (exit 3), nil for none.
func (l *loaded) printErrors(s *streams) error {
	for _, e := range l.errs {
		fmt.Fprintln(s.err, e)
	}
	if len(l.errs) > 0 {
		return &parseFailure{count: len(l.errs)}
	}
	return nil
}

// queriesUnder returns the workload's queries that run in files under paths (each a file, a
// directory or "-"): the command's own queries, not those of --tables inputs.
func queriesUnder(w *workload.Workload, paths []string) []workload.Query {
	var out []workload.Query
	for _, q := range w.Queries() {
		if under(q.Query.Span.Start.File, paths) {
			out = append(out, q)
		}
	}
	return out
}

// unreadCode says which DataFrame joins and groupBys under paths are no query (their frames,
// keys or columns are not known in their files), for a "no queries found" message: "" when
// there are none.
func unreadCode(w *workload.Workload, paths []string) string {
	var at []string
	for _, p := range w.UnreadCode() {
		if under(p.File, paths) {
			at = append(at, p.String())
		}
	}
	if len(at) == 0 {
		return ""
	}
	more := ""
	if len(at) > 5 {
		more = fmt.Sprintf(" and %d more", len(at)-5)
		at = at[:5]
	}
	return fmt.Sprintf(" (DataFrame joins or groupBys whose frames, keys or columns the files do not show: %s%s)", strings.Join(at, ", "), more)
}

// under reports whether file, as parser.Load names it, is one of paths or below one.
func under(file string, paths []string) bool {
	for _, p := range paths {
		p = filepath.ToSlash(filepath.Clean(p))
		if p == "." || file == p || strings.HasPrefix(file, strings.TrimSuffix(p, "/")+"/") {
			return true
		}
	}
	return false
}

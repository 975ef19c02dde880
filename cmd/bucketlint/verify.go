//go:build engine

package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/bucketlint/bucketlint/advise"
	"github.com/bucketlint/bucketlint/engine/store"
	"github.com/bucketlint/bucketlint/engine/verify"
	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/report"
	"github.com/bucketlint/bucketlint/simulate"
)

// verifyOptions are the flags and arguments of `bucketlint verify`.
type verifyOptions struct {
	rows        int
	seed        uint64
	spark       string
	sparkScript string
	sample      float64
	common      commonFlags
	format      string
	noTiming    bool
	memory      string
	out         string
	budget      int64
	paths       []string
	layout      layoutOptions
}

func parseVerify(args []string, s *streams) (*verifyOptions, error) {
	opts := &verifyOptions{}
	fs := newFlagSet("verify", "[flags] path…",
		"Prove layout advice on data. For each recommendation of 'bucketlint advise' over the workload\n"+
			"in the paths (or each *.verify.yaml scenario file), write the tables in the current and the\n"+
			"advised layout into a temporary warehouse, run the query both ways on the embedded engine and\n"+
			"report Exchanges, rows and bytes shuffled and time, and whether the results are identical.\n"+
			"Tables without fixture data get --rows generated rows. Temporary files are removed; user data\n"+
			"is only read. With --layout, validate a bucketed table directory instead (read-only): a data-source\n"+
			"table by Murmur3, or a Hive-format one (STORED AS … in --table-spec, or --hive) by HiveHash.\n"+
			"Exit codes: 0 verified, 2 usage or internal error (or a query the engine cannot run), 3 an\n"+
			"input could not be parsed, 4 a recommendation did not reproduce (results differ or the\n"+
			"shuffle is still there).",
		s,
		"bucketlint verify ddl/ jobs/",
		"bucketlint verify --rows 1000000 --seed 7 --format json fixtures/verify/",
		"bucketlint verify --spark local[2] fixtures/verify/transactions-accounts.verify.yaml",
		"bucketlint verify --spark sc://spark-host:15002 --sample 5 ddl/ jobs/",
		"bucketlint verify --layout /data/warehouse/db.db/t --table-spec \"db.t: CLUSTERED BY (k) INTO 8 BUCKETS\" --types k:int",
		"bucketlint verify --layout /data/warehouse/db.db/h --table-spec \"db.h: CLUSTERED BY (k) INTO 8 BUCKETS STORED AS PARQUET\" --types k:int")
	fs.IntVar(&opts.rows, "rows", 100_000, "generated `rows` per table without fixture data")
	fs.Uint64Var(&opts.seed, "seed", 1, "generator `seed`")
	fs.StringVar(&opts.spark, "spark", "", "also run on a real Spark `MASTER`: local[N]; or sc://host:port to verify on that\n"+
		"Spark Connect server's own tables instead (scratch copies, dropped afterwards; the tables are only read)")
	fs.Float64Var(&opts.sample, "sample", 0, "with --spark sc://…, verify on a TABLESAMPLE of `percent` of each table")
	fs.StringVar(&opts.sparkScript, "spark-script", "", "`path` of a verify_spark.py to run with --spark local instead of the one built in (for developing it)")
	opts.common.register(fs, false)
	fs.StringVar(&opts.format, "format", "text", "output `format`: text or json")
	fs.BoolVar(&opts.noTiming, "no-timing", false, "leave out times (for reproducible output)")
	fs.StringVar(&opts.out, "out", "", "keep the tables written in `DIR`, which must be empty or not exist (default: a temporary\n"+
		"directory, removed afterwards); DIR/tables.tsv says which directory holds which table and layout")
	fs.StringVar(&opts.memory, "memory", "4GiB", "memory `budget` for the tables' data and the engine, e.g. 512MiB or 16GiB;\n"+
		"a run that needs more stops with a clear error")
	opts.layout.register(fs)
	paths, err := parseInterspersed(fs, args)
	if err != nil {
		return nil, err
	}
	if err := checkFormat(opts.format, "text", "json"); err != nil {
		return nil, err
	}
	if err := opts.common.check(); err != nil {
		return nil, err
	}
	if opts.rows <= 0 {
		return nil, usagef("--rows %d: want a positive count", opts.rows)
	}
	if opts.budget, err = simulate.ParseBytes(opts.memory); err != nil || opts.budget <= 0 {
		return nil, usagef("--memory %q: want a size such as 512MiB or 8GiB", opts.memory)
	}
	if opts.sample < 0 || opts.sample > 100 {
		return nil, usagef("--sample %g: want a percentage in (0, 100]", opts.sample)
	}
	if opts.sample > 0 && !strings.HasPrefix(opts.spark, "sc://") {
		return nil, usagef("--sample needs --spark sc://host:port")
	}
	if opts.spark != "" && !strings.HasPrefix(opts.spark, "local") && !strings.HasPrefix(opts.spark, "sc://") {
		return nil, usagef("--spark %q: want local, local[N], local[*] or sc://host:port", verify.RedactRemote(opts.spark))
	}
	opts.paths = paths
	if opts.layout.dir != "" {
		if len(paths) > 0 {
			return nil, usagef("--layout validates one directory; no paths expected, got %s", strings.Join(paths, " "))
		}
		return opts, nil
	}
	if len(paths) == 0 {
		return nil, usagef("want at least one path with the DDL and the queries, or a *%s file", verify.ScenarioSuffix)
	}
	if err := checkPaths(paths...); err != nil {
		return nil, err
	}
	return opts, nil
}

func runVerifyCmd(ctx context.Context, args []string, s *streams) error {
	opts, err := parseVerify(args, s)
	if err != nil {
		return err
	}
	if opts.layout.dir != "" {
		return runValidateLayout(opts, s)
	}
	// The budget is enforced on the data and the engine's buffers; the Go runtime is told
	// too, so that garbage is collected before the heap outgrows it.
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(opts.budget))
	results, loadErrs, err := verifyPaths(ctx, opts, s)
	if err != nil {
		return err
	}
	ro := report.VerifyOptions{NoTiming: opts.noTiming}
	if opts.format == "json" {
		err = report.WriteVerifyJSON(s.out, results, ro)
	} else {
		err = report.WriteVerifyText(s.out, results, ro)
	}
	if err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	var errs []error
	if loadErrs > 0 {
		errs = append(errs, &parseFailure{count: loadErrs})
	}
	failed, notRun := 0, 0
	for i := range results {
		switch {
		case results[i].Error != "":
			notRun++
		case !results[i].Reproduced():
			failed++
		}
	}
	if notRun > 0 {
		errs = append(errs, fmt.Errorf("%d of %d scenarios could not be run on the engine", notRun, len(results)))
	}
	if failed > 0 {
		errs = append(errs, &verifyFailure{failed: failed, total: len(results)})
	}
	if len(errs) == 0 {
		return nil
	}
	return outcome(errs)
}

// A workloadRun is one set of scenarios with its Spark settings.
type workloadRun struct {
	scenarios []verify.Scenario
	sim       simulate.Options
	// rows is the scenario file's default row count; 0 means --rows.
	rows int
}

// verifyPaths builds the scenarios of the paths (scenario files each on their own, the other
// paths as one workload), runs them and returns the results and the number of input errors.
func verifyPaths(ctx context.Context, opts *verifyOptions, s *streams) ([]verify.Result, int, error) {
	runs, loadErrs, err := loadRuns(ctx, opts, s)
	if err != nil {
		return nil, 0, err
	}
	if opts.out != "" {
		if err := store.CheckOutDir(opts.out); err != nil {
			return nil, 0, fmt.Errorf("--out: %w", err)
		}
	}
	show := progressFunc(s)
	// One bar for all the runs: each run's steps are offset by those of the runs before.
	per := verify.StepsPerScenario(opts.spark != "")
	if strings.HasPrefix(opts.spark, "sc://") {
		per = 1 // RunConnect's Progress counts scenarios
	}
	total := 0
	for _, wr := range runs {
		total += per * len(wr.scenarios)
	}
	var results []verify.Result
	base := 0
	for k, wr := range runs {
		var progress func(verify.Progress)
		if show != nil {
			offset := base
			progress = func(p verify.Progress) {
				p.Done, p.Total = offset+p.Done, total
				show(p)
			}
		}
		base += per * len(wr.scenarios)
		outDir := opts.out
		if opts.out != "" && len(runs) > 1 {
			// Several scenario files each get a directory of their own below --out.
			outDir = filepath.Join(opts.out, fmt.Sprintf("run%02d", k+1))
		}
		res, err := runOne(ctx, wr, outDir, progress, opts, s)
		if err != nil {
			return nil, 0, err
		}
		results = append(results, res...)
	}
	if show != nil {
		fmt.Fprint(s.rawErr, "\r\033[K")
	}
	if opts.out != "" {
		fmt.Fprintf(s.err, "bucketlint verify: the tables written are kept in %s (tables.tsv lists them)\n", opts.out)
	}
	return results, loadErrs, nil
}

// loadRuns builds the runs of the paths: the scenario files each on their own, the other
// paths as one workload. It returns them and the number of input errors.
func loadRuns(ctx context.Context, opts *verifyOptions, s *streams) ([]workloadRun, int, error) {
	var files, rest []string
	for _, p := range opts.paths {
		found, err := scenarioFiles(p)
		if err != nil {
			return nil, 0, &usageError{msg: err.Error()}
		}
		if len(found) > 0 {
			files = append(files, found...)
		} else {
			rest = append(rest, p)
		}
	}
	var runs []workloadRun
	loadErrs := 0
	if len(rest) > 0 {
		wr, n, err := workloadFromPaths(ctx, rest, nil, opts, s)
		if err != nil {
			return nil, 0, err
		}
		runs, loadErrs = append(runs, wr), loadErrs+n
	}
	for _, f := range files {
		sf, err := verify.ReadScenario(f)
		if err != nil {
			return nil, 0, scenarioError(err)
		}
		wr, n, err := workloadFromPaths(ctx, sf.Paths(), sf, opts, s)
		if err != nil {
			return nil, 0, err
		}
		runs, loadErrs = append(runs, wr), loadErrs+n
	}
	return runs, loadErrs, nil
}

// runOne runs one set of scenarios: on a Spark Connect server's tables with --spark sc://,
// else on the embedded engine (and a local Spark with --spark local), writing the tables
// into outDir when it is set.
func runOne(ctx context.Context, wr workloadRun, outDir string, progress func(verify.Progress), opts *verifyOptions, s *streams) ([]verify.Result, error) {
	if strings.HasPrefix(opts.spark, "sc://") {
		// An interrupt cancels ctx (run.go) and the run, which still drops its scratch
		// tables on the server.
		return verify.RunConnect(ctx, wr.scenarios, verify.ConnectOptions{
			Remote: opts.spark, Sim: wr.sim, SamplePercent: opts.sample, Progress: progress, ParseExplain: sparkPlan,
		})
	}
	vo := verify.Options{Rows: opts.rows, Seed: opts.seed, Sim: wr.sim, Progress: progress, OutDir: outDir}
	vo.Exec.MemoryBudget = opts.budget
	if wr.rows > 0 {
		vo.Rows = wr.rows
	}
	if opts.spark != "" {
		sc, err := sparkCheck(opts, wr.sim, s)
		if err != nil {
			return nil, err
		}
		vo.Spark = sc
	}
	return verify.Run(ctx, wr.scenarios, vo)
}

// scenarioFiles returns p when it is a scenario file, the scenario files below p when it is
// a directory, and nothing otherwise.
func scenarioFiles(p string) ([]string, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		if strings.HasSuffix(p, verify.ScenarioSuffix) {
			return []string{p}, nil
		}
		return nil, nil
	}
	var out []string
	err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, verify.ScenarioSuffix) {
			out = append(out, filepath.ToSlash(path))
		}
		return nil
	})
	sort.Strings(out)
	return out, err
}

// workloadFromPaths loads the DDL and queries in paths into the workload every command
// builds (a scenario file's Spark version and settings between the configuration's and the
// flags') and turns the advice (or the scenario file's explicit layout) into scenarios, each
// query run in its session.
func workloadFromPaths(ctx context.Context, paths []string, sf *verify.ScenarioFile, opts *verifyOptions, s *streams) (workloadRun, int, error) {
	var scenario *sparkConfig
	if sf != nil {
		scenario = &sparkConfig{Version: sf.Spark.Version, Conf: sf.Spark.Conf}
	}
	ld, err := opts.common.loadWith(ctx, paths, scenario, s)
	if err != nil {
		return workloadRun{}, 0, err
	}
	for _, e := range ld.errs {
		fmt.Fprintln(s.err, e)
	}
	w := ld.w
	sim := w.OptionsAt(plan.Pos{})
	queries := advise.Weighted(w, queriesUnder(w, paths))
	if len(queries) == 0 && len(ld.errs) > 0 {
		return workloadRun{}, 0, &parseFailure{count: len(ld.errs)} // the inputs could not be read or parsed (exit 3)
	}
	if len(queries) == 0 {
		return workloadRun{}, 0, usagef("no queries found in %s%s", strings.Join(paths, ", "), unreadCode(w, paths))
	}
	var scenarios []verify.Scenario
	if sf != nil {
		if scenarios, err = sf.Scenarios(w.Catalogue().Tables(), queries, advise.OptionsFor(w, plan.Pos{})); err != nil {
			return workloadRun{}, 0, scenarioError(err)
		}
	} else {
		scenarios = verify.FromWorkload(w, queries)
	}
	wr := workloadRun{scenarios: scenarios, sim: sim}
	if sf != nil {
		wr.rows = sf.Rows
	}
	return wr, len(ld.errs), nil
}

// scenarioError makes a scenario file's mistakes configuration errors and a file that
// cannot be read a usage error: exit code 2 either way.
func scenarioError(err error) error {
	var se *verify.ScenarioError
	if errors.As(err, &se) {
		return &configError{msg: err.Error()}
	}
	return &usageError{msg: err.Error()}
}

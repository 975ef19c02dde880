package main

import (
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/bucketlint/bucketlint/parser"
	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/report"
	"github.com/bucketlint/bucketlint/rules"
)

// checkOptions are the flags and arguments of `bucketlint check`.
type checkOptions struct {
	paths         []string
	common        commonFlags
	enable        listFlag
	disable       listFlag
	failOn        string
	evidence      string
	outputs       outputsFlag
	baseline      string
	writeBaseline string
	verify        bool
	verbose       bool
	quiet         bool
	explain       bool // list explanations too: info findings without a fix
	fix, diff     bool
	today         string // "YYYY-MM-DD": the date until= suppressions are judged by
}

func parseCheck(args []string, s *streams) (*checkOptions, error) {
	opts := &checkOptions{}
	fs := newFlagSet("check", "[flags] [path ...]",
		"Lint Spark bucketing and join layout in the given files and directories (default .):\n"+
			"explain output, DDL, SQL, PySpark, Scala, notebooks, catalog YAML and Spark conf, read\n"+
			"together. Settings come from .bucketlint.yaml, found from the working directory up to\n"+
			"the repository root, then from the flags. Exit codes: 0 nothing at or above --fail-on,\n"+
			"1 findings, 2 usage or configuration error, 3 an input could not be parsed.",
		s,
		"bucketlint check",
		"bucketlint check --format text --format sarif=bucketlint.sarif jobs/ ddl/",
		"bucketlint check --spark-version 3.2 --conf spark.sql.shuffle.partitions=400 --fail-on error .",
		"bucketlint check --write-baseline .bucketlint-baseline.json && bucketlint check --baseline .bucketlint-baseline.json")
	opts.common.register(fs, false)
	opts.common.registerJobs(fs)
	fs.Var(&opts.enable, "enable", "turn `RULE` on (ID, name or family such as BL3); repeatable")
	fs.Var(&opts.disable, "disable", "turn `RULE` off (ID, name or family such as BL3); repeatable")
	fs.StringVar(&opts.failOn, "fail-on", "warning", "lowest `severity` that fails the run: error, warning, info or never")
	fs.Var(&opts.outputs, "format", "output `FORMAT[=FILE]`: "+strings.Join(report.Formats(), ", ")+"; repeatable (default text)")
	fs.StringVar(&opts.baseline, "baseline", "", "report only findings not accepted in baseline `FILE`")
	fs.StringVar(&opts.writeBaseline, "write-baseline", "", "record the current findings as accepted in `FILE`")
	fs.BoolVar(&opts.quiet, "q", false, "quiet: print the findings only, no summary line and no closing message (the exit code tells)")
	fs.BoolVar(&opts.quiet, "quiet", false, "same as -q")
	fs.BoolVar(&opts.explain, "explain", false, "also list explanations: info findings with no fix (a shuffle no layout removes, a symptom of another finding), left out by default")
	fs.BoolVar(&opts.fix, "fix", false, "apply the fixes that are edits (safe to make mechanically) to the files, then report what is left")
	fs.BoolVar(&opts.diff, "diff", false, "print the edits --fix would make as a unified diff and change nothing; exit 1 when there are some")
	fs.BoolVar(&opts.verbose, "v", false, "print the effective configuration to standard error: file, Spark version and confs, rules on")
	fs.StringVar(&opts.evidence, "evidence", "", "Spark event logs (a `PATH`: a log, a rolled log's directory or a directory of them; or a History Server URL) whose runs rank the findings by measured shuffle bytes")
	fs.StringVar(&opts.common.stdinName, "stdin-filename", "", "the `name` standard input (path -) is read as: its extension picks the format, findings carry it")
	fs.BoolVar(&opts.verify, "verify", false, "prove each recommendation on generated data (engine/verify); exit 4 when one does not reproduce")
	paths, err := parseInterspersed(fs, args)
	if err != nil {
		return nil, err
	}
	if opts.verify && !engineBuilt {
		return nil, errNoEngine("--verify")
	}
	if _, ok := failThreshold(opts.failOn); !ok {
		return nil, usagef("--fail-on %q: want error, warning, info or never", opts.failOn)
	}
	if err := opts.common.check(); err != nil {
		return nil, err
	}
	if len(opts.outputs) == 0 {
		opts.outputs = outputsFlag{{format: "text"}}
	}
	if err := checkOutputs(opts.outputs); err != nil {
		return nil, err
	}
	opts.paths = paths
	if len(opts.paths) == 0 {
		opts.paths = []string{"."}
	}
	if err := checkPaths(append(opts.paths, opts.baseline)...); err != nil {
		return nil, err
	}
	if (opts.fix || opts.diff) && slices.Contains(opts.paths, "-") {
		return nil, usagef("--fix and --diff edit files: standard input (-) cannot be fixed")
	}
	if opts.fix && opts.diff {
		return nil, usagef("--fix and --diff: give one (--diff shows what --fix would write)")
	}
	if opts.common.stdinName != "" && !slices.Contains(opts.paths, "-") {
		return nil, usagef("--stdin-filename %s: name the path - (standard input) too", opts.common.stdinName)
	}
	return opts, nil
}

// targets are the files the run writes: report files and the baseline.
func (o *checkOptions) targets() []string {
	var out []string
	for _, x := range o.outputs {
		if !x.toStdout() {
			out = append(out, x.file)
		}
	}
	if o.writeBaseline != "" {
		out = append(out, o.writeBaseline)
	}
	return out
}

// wants reports whether one of the outputs is the named format.
func (o *checkOptions) wants(format string) bool {
	for _, x := range o.outputs {
		if x.format == format {
			return true
		}
	}
	return false
}

// parseInterspersed parses flags before, between and after the paths, as linters accept
// them (`bucketlint check jobs/ --format sarif=out.sarif`); after "--" everything is a path.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var paths []string
	for {
		if err := parseFlags(fs, args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return paths, nil
		}
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(paths, rest...), nil
		}
		paths = append(paths, rest[0])
		args = rest[1:]
	}
}

// failThreshold maps --fail-on to the lowest failing severity; 0 for never.
func failThreshold(s string) (rules.Severity, bool) {
	if s == "never" {
		return 0, true
	}
	return rules.ParseSeverity(s)
}

// passBelow is report.Check.PassBelow for --fail-on: the lowest failing severity, above
// every severity for never.
func passBelow(failOn string) rules.Severity {
	if lowest, _ := failThreshold(failOn); lowest > 0 {
		return lowest
	}
	return rules.Error + 1
}

func runCheckCmd(ctx context.Context, args []string, s *streams) error {
	opts, err := parseCheck(args, s)
	if err != nil {
		return err
	}
	opts.today = time.Now().UTC().Format(time.DateOnly)
	err = runCheck(ctx, opts, s)
	if opts.quiet && err != nil && onlyExpected(err) {
		return &quietOutcome{err: err}
	}
	return err
}

// runCheck loads the inputs, runs the enabled rules, post-processes the findings, writes
// every requested format and returns the error that decides the exit code.
func runCheck(ctx context.Context, opts *checkOptions, s *streams) error {
	catalogue := rules.All()
	loadStart := time.Now()
	ld, err := opts.common.load(ctx, opts.paths, s)
	if err != nil {
		return err
	}
	cfg, w := ld.cfg, ld.w
	project := w.Project()
	enabled, err := enabledRules(opts, cfg, catalogue)
	if err != nil {
		return err
	}
	if opts.verbose {
		printEffective(s.err, cfg, w.OptionsAt(plan.Pos{}), enabled, catalogue)
		printNotes(s.err, project.Notes)
	}
	if err := checkTargets(project.Files, opts.targets()); err != nil {
		return err
	}
	src := newSources(opts.common.maxInput.limit())
	dg := diagnose(ld, enabled, catalogue, opts.today, src.get)
	diags, ruleErr, loadErrs, st := dg.diags, dg.ruleErr, dg.loadErrs, dg.st
	st.explain = opts.explain
	if opts.baseline != "" {
		if st.baseline, err = readBaseline(opts.baseline, opts.common.maxInput.limit()); err != nil {
			return err
		}
	}
	if opts.writeBaseline != "" {
		// Record what would be reported without a baseline; the run then reports nothing new.
		pre := *st
		pre.baseline = nil
		all := postprocess(append([]rules.Diagnostic(nil), diags...), &pre)
		if err := writeBaseline(opts.writeBaseline, all, st.rebase); err != nil {
			return err
		}
		st.baseline = fingerprintCounts(all, st.rebase)
	}
	diags = postprocess(diags, st)
	if opts.fix || opts.diff {
		fixed, fixErr := applyFixes(opts, diags, project.Files, src.get, loadStart, s)
		if fixErr != nil || opts.diff {
			return exitError(ruleErr, fixErr, loadErrs, nil, "never")
		}
		if fixed > 0 {
			// Check the tree as --fix left it: the report is what a new run says.
			again := *opts
			again.fix = false
			return runCheck(ctx, &again, s)
		}
	}
	if opts.evidence != "" {
		if err := attachEvidence(ctx, opts.evidence, diags, w, cfg.Thresholds.thresholds().BroadcastBytes, s); err != nil {
			return err
		}
	}

	explains := project.Explains
	if opts.wants("markdown") {
		explains = append(append([]*plan.Explain(nil), explains...), report.PredictedPlans(w, diags)...)
	}
	c := &report.Check{
		Tool:     report.Tool{Name: "bucketlint", Version: version},
		Findings: diags, Errors: positioned(loadErrs), Files: len(project.Files),
		Rules: catalogue, Explains: explains, Baselined: st.baselined, Explained: st.explained, BaselineUnused: st.unused, Source: src.get,
		PassBelow: passBelow(opts.failOn), Quiet: opts.quiet, RulesFailed: len(internalErrors(ruleErr)),
	}
	var verifyErr error
	if opts.verify {
		var failed int
		c.Verified, failed = verifyFindings(ctx, w, diags, s)
		if failed > 0 {
			verifyErr = &verifyFailure{failed: failed, total: len(diags)}
		}
	}
	outErr := writeOutputs(opts.outputs, c, s)
	return exitError(ruleErr, errors.Join(outErr, verifyErr), loadErrs, diags, opts.failOn)
}

// resolveConfig reads --config, or the .bucketlint.yaml found from the working directory up.
// Catalog files are relative to the configuration file's directory.
func resolveConfig(file string, limit int64, catalogue []*rules.Rule) (*config, error) {
	if file == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		file = findConfig(wd)
		if rel, err := filepath.Rel(wd, file); err == nil && file != "" {
			file = rel
		}
	}
	if file == "" {
		return &config{}, nil
	}
	cfg, err := loadConfig(file, limit, catalogue)
	if err != nil {
		return nil, err
	}
	for i, c := range cfg.Catalog {
		if !filepath.IsAbs(c) {
			cfg.Catalog[i] = filepath.ToSlash(filepath.Join(filepath.Dir(file), c))
		}
	}
	return cfg, nil
}

// enabledRules applies the config's rules list, then --enable and --disable, to the rules'
// defaults (rules.Enabled); a flag that names no rule is a usage error.
func enabledRules(opts *checkOptions, cfg *config, catalogue []*rules.Rule) (map[string]bool, error) {
	entries := append([]string(nil), cfg.Rules...)
	for _, set := range []struct {
		flag, prefix string
		names        []string
	}{{"--enable", "", opts.enable}, {"--disable", "-", opts.disable}} {
		for _, n := range set.names {
			if len(rules.Select(catalogue, n)) == 0 {
				return nil, usagef("%s %s: unknown rule; 'bucketlint rules' lists them", set.flag, n)
			}
			entries = append(entries, set.prefix+n)
		}
	}
	return rules.Enabled(catalogue, entries), nil
}

func positioned(errs []*parser.Error) []report.PositionedError {
	out := make([]report.PositionedError, len(errs))
	for i, e := range errs {
		out[i] = report.PositionedError{File: e.Pos.File, Line: e.Pos.Line, Column: e.Pos.Col, Message: e.Msg}
	}
	return out
}

func fingerprintCounts(ds []rules.Diagnostic, r *rebaser) map[string]int {
	m := map[string]int{}
	for i := range ds {
		m[r.fingerprint(&ds[i])]++
	}
	return m
}

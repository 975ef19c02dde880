package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"

	"github.com/bucketlint/bucketlint/report"
)

// streams are the IO a command reads and writes, injected so tests run in-process.
type streams struct {
	in  io.Reader
	out io.Writer
	err io.Writer
	// color says whether out is a terminal that wants colour (and NO_COLOR is not set).
	color bool
	// getenv reads the environment (os.Getenv); nil reads nothing.
	getenv func(string) string
	// rawOut and rawErr are out and err before runStreams wrapped them in report.Guard,
	// which escapes what input text could smuggle into a terminal or a CI log: the github
	// format writes workflow commands to rawOut, verify's progress line redraws on rawErr.
	rawOut, rawErr io.Writer
}

// env returns an environment variable through the injected getenv.
func (s *streams) env(key string) string {
	if s.getenv == nil {
		return ""
	}
	return s.getenv(key)
}

// A command is one subcommand: its name, one line of help and its entry point.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, args []string, s *streams) error
}

func commands() []command {
	return []command{
		{"hash", "print the hash Spark computes for a row and the bucket it lands in", runHashCmd},
		{"plan", "parse one Spark explain output and print the plan, shuffles highlighted", runPlanCmd},
		{"simulate", "predict Spark's physical plan for a query over bucketed tables, with reasons", runSimulateCmd},
		{"advise", "recommend bucket layouts that remove a workload's shuffles, as code", runAdviseCmd},
		{"verify", "prove layout advice on data: run the query before and after on the embedded engine", runVerifyCmd},
		{"check", "lint bucketing and join layout: the CI and pre-commit entry point", runCheckCmd},
		{"rules", "list the rules: ID, name, severity, default, title", runRulesCmd},
		{"explain", "print a rule's documentation: why, bad and good examples, how to suppress", runExplainCmd},
		{"tables", "print the table catalogue merged from DDL, DESCRIBE, SHOW CREATE, catalogs and code", runTablesCmd},
		{"evidence", "rank the shuffles Spark event logs measured on bucketable keys, with the layout that removes each", runEvidenceCmd},
		{"lsp", "run the Language Server for editors on standard input and output", runLSPCmd},
		{"version", "print the bucketlint version", runVersionCmd},
	}
}

// run is main without the process: it parses args, runs the command and returns the exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	ctx, stop := signalContext(interrupted)
	defer stop()
	return runStreams(ctx, args, &streams{in: stdin, out: stdout, err: stderr, color: wantColor(stdout), getenv: os.Getenv})
}

// signalContext returns the context every command runs under: cancelled by the first SIGINT
// or SIGTERM, so that a command stops its work and cleans up (verify removes its temporary
// warehouse and drops its scratch tables on a Spark Connect server). A second signal calls
// onSecond with it, for a user who will not wait for that clean-up: main's interrupted
// removes what is left of the temporary directories and ends the process at once.
func signalContext(onSecond func(os.Signal)) (context.Context, context.CancelFunc) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	second := make(chan os.Signal, 1)
	quit := make(chan struct{})
	unwatch := context.AfterFunc(ctx, func() {
		signal.Notify(second, os.Interrupt, syscall.SIGTERM) // before stop: no signal falls between
		stop()
		go func() {
			select {
			case sig := <-second:
				onSecond(sig)
			case <-quit:
			}
		}()
	})
	var once sync.Once
	return ctx, func() {
		once.Do(func() {
			unwatch()
			stop()
			signal.Stop(second)
			close(quit)
		})
	}
}

// runStreams is run with the context, streams and environment given, as tests inject them.
// Everything a command prints passes through report.Guard.
func runStreams(ctx context.Context, args []string, s *streams) int {
	if s.rawOut == nil {
		switch colorFlag(args) {
		case "always":
			s.color = true
		case "never":
			s.color = false
		}
		out, errOut := report.NewGuard(s.out, s.color), report.NewGuard(s.err, false)
		guarded := *s
		guarded.rawOut, guarded.rawErr, guarded.out, guarded.err = s.out, s.err, out, errOut
		defer func() { _, _ = out.Flush(), errOut.Flush() }()
		s = &guarded
	}
	stdout, stderr := s.out, s.err
	if len(args) > 0 && (args[0] == "--version" || args[0] == "-version" || args[0] == "-V") {
		args = append([]string{"version"}, args[1:]...)
	}
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" || args[0] == "-help" {
		if len(args) > 1 {
			return runStreams(ctx, []string{args[1], "-h"}, s)
		}
		if len(args) == 0 {
			printUsage(stderr)
			return exitUsage
		}
		printUsage(stdout)
		return exitOK
	}
	for _, c := range commands() {
		if c.name != args[0] {
			continue
		}
		err := c.run(ctx, args[1:], s)
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		var q *quietOutcome
		if errors.As(err, &q) {
			return exitCode(q.err) // -q: the exit code says it
		}
		if err != nil {
			fmt.Fprintf(stderr, "bucketlint %s: %v\n", c.name, err)
		}
		return exitCode(err)
	}
	fmt.Fprintf(stderr, "bucketlint: unknown command %q; run 'bucketlint help'\n", args[0])
	return exitUsage
}

func printUsage(w io.Writer) {
	fmt.Fprint(w, `Usage: bucketlint <command> [flags] [arguments]

bucketlint reads Spark explain output, table DDL, SQL and code, predicts where Spark's
planner shuffles a join or aggregation over bucketed tables, and says why.

Commands:
`)
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.summary)
	}
	fmt.Fprint(w, `
Run 'bucketlint <command> -h' for a command's flags; 'bucketlint --version' prints the version.
Exit codes: 0 ok, 1 findings, 2 usage or internal error (a missing path included), 3 an input
could not be read or parsed, 4 verify: a recommendation did not reproduce (docs/exit-codes.md).
`)
}

func runVersionCmd(_ context.Context, args []string, s *streams) error {
	fs := newFlagSet("version", "", "Print the bucketlint version.", s)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("version takes no arguments, got %d", fs.NArg())
	}
	fmt.Fprintf(s.out, "bucketlint %s\n", version)
	return nil
}

// newFlagSet returns a flag set that reports errors instead of exiting and prints help in the
// project's shape: Usage, a paragraph, the flags, examples.
func newFlagSet(name, synopsis, about string, s *streams, examples ...string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(s.err)
	fs.Func("color", "when to colour the output: `auto` (a terminal, NO_COLOR unset), always or never", func(v string) error {
		if v != "auto" && v != "always" && v != "never" {
			return errors.New("want auto, always or never")
		}
		return nil // runStreams read it before the command ran (colorFlag)
	})
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprintf(w, "Usage: bucketlint %s %s\n\n%s\n", name, synopsis, about)
		hasFlags := false
		fs.VisitAll(func(*flag.Flag) { hasFlags = true })
		if hasFlags {
			fmt.Fprint(w, "\nFlags:\n")
			fs.PrintDefaults()
		}
		if len(examples) > 0 {
			fmt.Fprintf(w, "\nExamples:\n  %s\n", strings.Join(examples, "\n  "))
		}
	}
	return fs
}

// colorFlag is the value of --color among args (before a "--"), read before the command
// parses its flags because the output streams are set up first; "" when not given.
func colorFlag(args []string) string {
	val := ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		name, v, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if name != "color" || !strings.HasPrefix(a, "-") {
			continue
		}
		if !hasValue && i+1 < len(args) {
			i++
			v = args[i]
		}
		val = v
	}
	return val
}

// A quietOutcome is a run's outcome under -q: findings or input errors the exit code
// reports, printed no further.
type quietOutcome struct{ err error }

func (q *quietOutcome) Error() string { return q.err.Error() }

// wantColor reports whether w is a terminal and the user has not asked for no colour
// (https://no-color.org).
func wantColor(w io.Writer) bool {
	if _, set := os.LookupEnv("NO_COLOR"); set {
		return false
	}
	if os.Getenv("TERM") == "dumb" {
		return false
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// parseFlags parses args with fs: flag.ErrHelp for -h, a usage error (exit 2) for anything
// the flag set rejects.
func parseFlags(fs *flag.FlagSet, args []string) error {
	err := fs.Parse(args)
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return err
	}
	return &usageError{msg: err.Error()}
}

// checkFormat is a usage error unless format is one of the command's formats: "unknown
// format "x"; want text, json or mermaid".
func checkFormat(format string, formats ...string) error {
	for _, f := range formats {
		if f == format {
			return nil
		}
	}
	want := formats[len(formats)-1]
	if len(formats) > 1 {
		want = strings.Join(formats[:len(formats)-1], ", ") + " or " + want
	}
	return usagef("unknown format %q; want %s", format, want)
}

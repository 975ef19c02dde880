package rules

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"slices"

	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
)

// A Driver runs rules over a project. The check command builds one from its flags and
// configuration; Run is the shorthand with defaults.
type Driver struct {
	// Options are the Spark version and configuration rules and simulations run under.
	Options simulate.Options
	// Thresholds are the rules' limits; zero fields take their defaults.
	Thresholds Thresholds
	// Source returns an input file's text for rules that compute edit spans; nil reads the
	// file from disk (os.ReadFile), once per file.
	Source func(file string) []byte
}

// Run runs rules over p with the given options and default thresholds and returns the
// diagnostics, sorted by file, line, column and rule. A rule that fails reports nothing; use
// Driver.Run to see its error.
func Run(p *plan.Project, opts simulate.Options, rules []*Rule) []Diagnostic {
	d := &Driver{Options: opts}
	diags, _ := d.Run(p, rules)
	return diags
}

// Run runs rules over p. Every query is simulated at most once, whichever rules ask for it.
// The diagnostics carry their rule's ID, name and severity, and are sorted by file, line,
// column and rule; the error joins the failures of rules, each prefixed with its ID.
func (d *Driver) Run(p *plan.Project, rules []*Rule) ([]Diagnostic, error) {
	if p == nil {
		return nil, nil
	}
	opts := withProjectConfs(d.Options, p)
	sims := map[*plan.Query]simResult{}
	simulateQuery := func(q *plan.Query) (*simulate.Result, error) {
		if r, ok := sims[q]; ok {
			return r.res, r.err
		}
		res, err := simulate.Simulate(p.Tables, q, opts)
		sims[q] = simResult{res, err}
		return res, err
	}
	source := d.Source
	if source == nil {
		source = fileReader()
	}
	var out []Diagnostic
	var errs []error
	cache := &passCache{}
	for _, r := range rules {
		if r == nil || r.Run == nil {
			continue
		}
		pass := &Pass{
			Project:    p,
			Options:    opts,
			Simulate:   simulateQuery,
			Thresholds: d.Thresholds.WithDefaults(),
			Source:     source,
			cache:      cache,
		}
		pass.Report = func(diag Diagnostic) {
			if diag.Rule == "" {
				diag.Rule = r.ID
			}
			if diag.Name == "" {
				diag.Name = r.Name
			}
			if diag.Severity == 0 {
				diag.Severity = r.Severity
			}
			out = append(out, diag)
		}
		if err := r.Run(pass); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", r.ID, err))
		}
	}
	SortDiagnostics(out)
	return out, errors.Join(errs...)
}

type simResult struct {
	res *simulate.Result
	err error
}

// fileReader returns a Source that reads each file from disk once.
func fileReader() func(string) []byte {
	cache := map[string][]byte{}
	return func(file string) []byte {
		if b, ok := cache[file]; ok {
			return b
		}
		b, err := os.ReadFile(file)
		if err != nil {
			b = nil
		}
		cache[file] = b
		return b
	}
}

// SortDiagnostics sorts diagnostics by file, line, column, rule and message.
func SortDiagnostics(ds []Diagnostic) {
	slices.SortStableFunc(ds, func(a, b Diagnostic) int {
		x, y := a.Span.Start, b.Span.Start
		return cmp.Or(cmp.Compare(x.File, y.File), cmp.Compare(x.Line, y.Line), cmp.Compare(x.Col, y.Col),
			cmp.Compare(a.Rule, b.Rule), cmp.Compare(a.Message, b.Message))
	})
}

// withProjectConfs returns opts with the Spark settings the project's files make (SET k=v,
// spark-defaults.conf, .config(k, v)) added under the explicit ones: a key given in opts
// (the command line or configuration file) wins; among files the last setting wins. Where a
// SET appears in a file is not modelled: it applies to the whole project.
func withProjectConfs(opts simulate.Options, p *plan.Project) simulate.Options {
	confs := map[string]string{}
	for _, c := range projectConfs(p) {
		confs[c.Key] = c.Value
	}
	if len(confs) == 0 {
		return opts
	}
	for k, v := range opts.Confs {
		confs[k] = v
	}
	opts.Confs = confs
	return opts
}

// projectConfs returns every configuration setting of the project: its SQL and conf files,
// then its code files.
func projectConfs(p *plan.Project) []plan.Conf {
	out := append([]plan.Conf(nil), p.Confs...)
	for _, cf := range p.Code {
		out = append(out, cf.Confs...)
	}
	return out
}

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
	confs := scopedConfs(p)
	opts := withProjectConfs(d.Options, confs, plan.Pos{})
	optionsAt := func(pos plan.Pos) simulate.Options { return withProjectConfs(d.Options, confs, pos) }
	sims := map[*plan.Query]simResult{}
	simulateQuery := func(q *plan.Query) (*simulate.Result, error) {
		if r, ok := sims[q]; ok {
			return r.res, r.err
		}
		res, err := simulate.Simulate(p.Tables, q, optionsAt(q.Span.Start))
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
			optionsAt:  optionsAt,
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

// confScope is how far a Spark setting found in the project reaches.
type confScope int

// The scopes of a setting.
const (
	// scopeProject: spark-defaults.conf and spark-submit --conf (a shell file) configure every
	// application, so every file.
	scopeProject confScope = iota
	// scopeFile: spark.conf.set / .config / spark.sql("SET …") in code configure the session
	// the file builds, which no other file shares.
	scopeFile
	// scopeFollowing: SET k=v in a SQL file configures its session from that statement on.
	scopeFollowing
)

// A scopedConf is a setting with its reach.
type scopedConf struct {
	plan.Conf
	Scope confScope
}

// scopedConfs returns every configuration setting of the project (its SQL and conf files,
// then its code files, each once) with its scope.
func scopedConfs(p *plan.Project) []scopedConf {
	lang := map[string]string{}
	for _, cf := range p.Code {
		lang[cf.File] = cf.Language
		if cf.Notebook != "" && cf.Language != "conf" && cf.Language != "shell" {
			lang[cf.File] = "notebook"
		}
	}
	seen := map[plan.Conf]bool{}
	var out []scopedConf
	for _, c := range projectConfs(p) {
		if seen[c] {
			continue
		}
		seen[c] = true
		sc := scopedConf{Conf: c}
		l, isCode := lang[c.Pos.File]
		switch {
		case c.Pos.File == "" || l == "conf" || l == "shell":
			sc.Scope = scopeProject
		case isCode:
			sc.Scope = scopeFile
		default:
			sc.Scope = scopeFollowing
		}
		out = append(out, sc)
	}
	return out
}

// reaches reports whether a setting applies at pos.
func (c scopedConf) reaches(pos plan.Pos) bool {
	switch c.Scope {
	case scopeFile:
		return pos.File == c.Pos.File
	case scopeFollowing:
		return pos.File == c.Pos.File && (c.Pos.Line < pos.Line || (c.Pos.Line == pos.Line && c.Pos.Col <= pos.Col))
	}
	return true
}

// withProjectConfs returns opts with the Spark settings of the project's files that apply at
// pos added under the explicit ones: a key given in opts (the command line or configuration
// file) wins; among files the last setting wins. Settings of spark-defaults.conf and
// spark-submit --conf apply everywhere; a session setting in code applies to its own file
// only (each job builds its own session); SET in a SQL file applies to that file from its
// position on. A zero pos takes the project-wide settings only.
func withProjectConfs(opts simulate.Options, confs []scopedConf, pos plan.Pos) simulate.Options {
	set := map[string]string{}
	for _, c := range confs {
		if c.reaches(pos) {
			set[c.Key] = c.Value
		}
	}
	if len(set) == 0 {
		return opts
	}
	for k, v := range opts.Confs {
		set[k] = v
	}
	opts.Confs = set
	return opts
}

// projectConfs returns every configuration setting of the project: its SQL and conf files,
// then its code files. A setting the loader lists in both places appears twice.
func projectConfs(p *plan.Project) []plan.Conf {
	out := append([]plan.Conf(nil), p.Confs...)
	for _, cf := range p.Code {
		out = append(out, cf.Confs...)
	}
	return out
}

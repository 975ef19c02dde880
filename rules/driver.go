package rules

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"

	"github.com/bucketlint/bucketlint/internal/crash"
	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/workload"
)

// A Driver runs rules over a workload. The check command builds one from its configuration;
// Run is the shorthand with defaults.
type Driver struct {
	// Thresholds are the rules' limits; zero fields take their defaults.
	Thresholds Thresholds
	// Source returns an input file's text for rules that compute edit spans; nil reads the
	// file from disk (os.ReadFile), once per file.
	Source func(file string) []byte
	// Workers is how many rules run at once; 0 or less means one per CPU
	// (runtime.GOMAXPROCS). The diagnostics do not depend on it. Source, when given, must
	// be safe to call from several goroutines.
	Workers int
	// Unread are the positions of statements the parsers could not read (the input errors):
	// a script stops at a statement Spark rejects, and one bucketlint does not read may
	// define names, so what follows it in the same file is not resolved as if it did not exist.
	Unread []plan.Pos
}

// Run runs rules over w with default thresholds and returns the diagnostics, sorted by file,
// line, column and rule. A rule that fails reports nothing; use Driver.Run to see its error.
func Run(w *workload.Workload, rules []*Rule) []Diagnostic {
	diags, _ := (&Driver{}).Run(w, rules)
	return diags
}

// Run runs rules over w: the project as the workload resolved it, each query simulated in its
// session once (Workload.Simulate), whichever rules ask for it. The rules run side by side
// on Workers goroutines; each reports into its own list, and the lists are joined in the
// rules' order, so the result does not depend on which rule ends first. The diagnostics
// carry their rule's ID, name and severity, and are sorted by file, line, column and rule;
// the error joins the failures of rules, each prefixed with its ID, in the rules' order.
func (d *Driver) Run(w *workload.Workload, rules []*Rule) ([]Diagnostic, error) {
	if w == nil {
		return nil, nil
	}
	source := d.Source
	if source == nil {
		source = fileReader()
	}
	found := make([][]Diagnostic, len(rules))
	errs := make([]error, len(rules))
	crash.Each(len(rules), d.Workers, func(i int) {
		found[i], errs[i] = d.runOne(w, rules[i], source)
	})
	// Rules that asked for the same simulation or join sites while it panicked each got that
	// panic (workload's memo raises it in every caller): it is reported once, with the
	// first rule's ID.
	seen := map[*crash.Error]bool{}
	for i, err := range errs {
		var ce *crash.Error
		if errors.As(err, &ce) {
			if seen[ce] {
				errs[i] = nil
			}
			seen[ce] = true
		}
	}
	out := slices.Concat(found...)
	SortDiagnostics(out)
	return out, errors.Join(errs...)
}

// runOne runs one rule and returns what it reported, with its ID, name and severity filled
// in, and its failure prefixed with its ID. A panic in the rule, or in a worker of the
// workload it asked (join sites, simulations), is its failure: a *crash.Error, whichever
// goroutine ran it, so that the other rules still run and the caller reports one internal
// error instead of ending in a Go panic; what the rule reported before it is dropped.
func (d *Driver) runOne(w *workload.Workload, r *Rule, source func(string) []byte) (_ []Diagnostic, err error) {
	if r == nil || r.Run == nil {
		return nil, nil
	}
	defer crash.Catch(func(cerr error) { err = fmt.Errorf("%s: %w", r.ID, cerr) })
	var out []Diagnostic
	pass := &Pass{
		Project:    w.Project(),
		Workload:   w,
		Options:    w.OptionsAt(plan.Pos{}),
		Thresholds: d.Thresholds.WithDefaults(),
		Source:     source,
		Unread:     d.Unread,
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
	if rerr := r.Run(pass); rerr != nil {
		return out, fmt.Errorf("%s: %w", r.ID, rerr)
	}
	return out, nil
}

// fileReader returns a Source that reads each file from disk once; rules running side by
// side share it.
func fileReader() func(string) []byte {
	var mu sync.Mutex
	cache := map[string][]byte{}
	return func(file string) []byte {
		mu.Lock()
		defer mu.Unlock()
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

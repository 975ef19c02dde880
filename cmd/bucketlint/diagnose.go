package main

import (
	"github.com/bucketlint/bucketlint/parser/perr"
	"github.com/bucketlint/bucketlint/rules"
)

// A diagnosis is what a check run found before the baseline and the outputs: the rules'
// findings and the inputs' errors as findings (BL901), the settings postprocess applies to
// them, the inputs' errors (sorted), and the rules' failures.
type diagnosis struct {
	diags    []rules.Diagnostic
	st       *settings
	loadErrs perr.List
	ruleErr  error
}

// diagnose runs the enabled rules over a loaded workload and turns its inputs' errors (BL901)
// and malformed inline suppressions (BL902) into findings; today ("YYYY-MM-DD") judges until= dates and
// source gives the rules an input's text. check and the language server share it, so an
// editor shows what check reports.
func diagnose(ld *loaded, enabled map[string]bool, catalogue []*rules.Rule, today string, source func(string) []byte) *diagnosis {
	cfg, w := ld.cfg, ld.w
	sups, problems := rules.ResolveSuppressions(catalogue, w.Project().Suppressions)
	loadErrs := append(perr.List(nil), ld.errs...)
	var toRun []*rules.Rule
	ran := map[string]bool{}
	for _, r := range catalogue {
		if enabled[r.ID] && r.ID != rules.ParseErrorID && r.ID != rules.UnusedSuppressionID {
			toRun = append(toRun, r)
			ran[r.ID] = true
		}
	}
	driver := &rules.Driver{Thresholds: cfg.Thresholds.thresholds(), Source: source, Workers: ld.jobs}
	for _, e := range ld.errs {
		driver.Unread = append(driver.Unread, e.Pos)
	}
	diags, ruleErr := driver.Run(w, toRun)

	loadErrs.Sort()
	for _, e := range loadErrs {
		if d, ok := rules.InputError(catalogue, e.Pos, e.Msg); ok {
			diags = append(diags, d)
		}
	}
	// A malformed ignore comment is a finding (BL902), not an input error: the input was read.
	for _, p := range problems {
		if d, ok := rules.SuppressionFinding(catalogue, p); ok {
			diags = append(diags, d)
		}
	}

	st := &settings{rebase: newRebaser(), today: today, suppressions: sups, ran: ran, enabled: enabled, exclude: ld.exclude, catalogue: catalogue, severity: map[string]rules.Severity{}}
	for k, v := range cfg.Severity {
		sev, _ := rules.ParseSeverity(v)
		st.severity[rules.ByID(catalogue, k).ID] = sev
	}
	return &diagnosis{diags: diags, st: st, loadErrs: loadErrs, ruleErr: ruleErr}
}

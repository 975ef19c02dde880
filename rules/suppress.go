package rules

import (
	"fmt"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// A Suppression is an inline suppression whose rules are known: it drops the findings of
// those rules on the lines it covers.
type Suppression struct {
	plan.Suppression
	// IDs are the rules' IDs, as resolved from IDs or names.
	IDs  []string
	used bool
}

// A SuppressionProblem is a malformed suppression or one that names a rule that does not
// exist; it suppresses nothing.
type SuppressionProblem struct {
	Pos plan.Pos
	Msg string
}

// ResolveSuppressions looks up the rules each suppression names; a malformed one, or one
// naming an unknown rule, is a problem and is dropped.
func ResolveSuppressions(catalogue []*Rule, in []plan.Suppression) ([]*Suppression, []SuppressionProblem) {
	var out []*Suppression
	var problems []SuppressionProblem
	for _, s := range in {
		if s.Problem != "" {
			problems = append(problems, SuppressionProblem{Pos: s.Pos, Msg: s.Problem})
			continue
		}
		r := &Suppression{Suppression: s}
		ok := true
		for _, id := range s.Rules {
			rule := ByID(catalogue, id)
			if rule == nil {
				problems = append(problems, SuppressionProblem{Pos: s.Pos, Msg: fmt.Sprintf("%s names unknown rule %q", plan.IgnoreWord, id)})
				ok = false
				continue
			}
			r.IDs = append(r.IDs, rule.ID)
		}
		if ok {
			out = append(out, r)
		}
	}
	return out, problems
}

// expired reports whether the suppression's until= date is before today ("YYYY-MM-DD";
// dates in this form compare as strings).
func (s *Suppression) expired(today string) bool {
	return s.Until != "" && today != "" && s.Until < today
}

// covers reports whether s covers the diagnostic.
func (s *Suppression) covers(d *Diagnostic) bool {
	if d.Span.Start.File != s.Pos.File || d.Span.Start.Line < s.Line || d.Span.Start.Line > s.Last {
		return false
	}
	for _, id := range s.IDs {
		if id == d.Rule {
			return true
		}
	}
	return false
}

// ApplySuppressions drops the diagnostics a suppression covers and reports each suppression
// that covered nothing as BL902, for the rules that ran (a suppression of a rule that did not
// run cannot be judged). A suppression whose until= date is past suppresses nothing, and
// says so.
func ApplySuppressions(ds []Diagnostic, sups []*Suppression, ran map[string]bool, catalogue []*Rule, today string) []Diagnostic {
	bl902 := ByID(catalogue, UnusedSuppressionID)
	out := ds[:0]
	for i := range ds {
		kept := true
		for _, s := range sups {
			if !s.expired(today) && s.covers(&ds[i]) {
				s.used, kept = true, false
			}
		}
		if kept {
			out = append(out, ds[i])
		}
	}
	for _, s := range sups {
		if s.used || !anyRan(s.IDs, ran) || bl902 == nil {
			continue
		}
		d := Diagnostic{
			Rule: bl902.ID, Name: bl902.Name, Severity: bl902.Severity,
			Span:    plan.Span{Start: s.Pos, End: plan.Pos{File: s.Pos.File, Line: s.Pos.Line, Col: s.Pos.Col + len(plan.IgnoreWord)}},
			Message: fmt.Sprintf("%s %s suppresses nothing on line %d; remove it", plan.IgnoreWord, strings.Join(s.IDs, ","), s.Line),
			Fix:     &Fix{Description: "Remove the unused " + plan.IgnoreWord + " comment"},
		}
		if s.expired(today) {
			d.Message = fmt.Sprintf("%s %s expired on %s; fix the finding on line %d or extend the date", plan.IgnoreWord, strings.Join(s.IDs, ","), s.Until, s.Line)
			d.Fix = &Fix{Description: "Fix the finding, or move the until= date if it is still accepted"}
		}
		out = append(out, d)
	}
	return out
}

// SuppressionFinding reports a malformed ignore comment (no rule, no reason, a bad until=
// date, an unknown rule) as a BL902 finding of its own: the comment suppresses nothing, and the
// run goes on to judge everything else by --fail-on. False when BL902 is not in the catalogue.
func SuppressionFinding(catalogue []*Rule, p SuppressionProblem) (Diagnostic, bool) {
	r := ByID(catalogue, UnusedSuppressionID)
	if r == nil {
		return Diagnostic{}, false
	}
	return Diagnostic{
		Rule: r.ID, Name: r.Name, Severity: r.Severity,
		Span:    plan.Span{Start: p.Pos, End: plan.Pos{File: p.Pos.File, Line: p.Pos.Line, Col: p.Pos.Col + len(plan.IgnoreWord)}},
		Message: p.Msg + "; it suppresses nothing",
		Fix:     &Fix{Description: "Write it as " + plan.IgnoreWord + " RULE <why the finding is accepted> [until=YYYY-MM-DD], or remove it"},
	}, true
}

func anyRan(ids []string, ran map[string]bool) bool {
	for _, id := range ids {
		if ran[id] {
			return true
		}
	}
	return false
}

package rules

import (
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/plan"
)

func TestSuppressions(t *testing.T) {
	t.Parallel()
	at := func(line int) plan.Pos { return plan.Pos{File: "q.sql", Line: line, Col: 4} }
	in := []plan.Suppression{
		{Pos: at(1), Rules: []string{"bucket-count-mismatch", "BL306"}, Reason: "known", Line: 2, Last: 4},
		{Pos: at(5), Rules: []string{"BL999"}, Reason: "typo", Line: 6, Last: 6},
		{Pos: at(7), Rules: []string{"BL301"}, Line: 8, Last: 8, Problem: "needs a reason"},
		{Pos: at(9), Rules: []string{"BL307"}, Reason: "unused", Line: 10, Last: 10},
		{Pos: at(11), Rules: []string{"BL301"}, Reason: "old", Until: "2026-01-31", Line: 12, Last: 12},
		{Pos: at(13), Rules: []string{"BL104"}, Reason: "rule off", Line: 14, Last: 14},
	}
	sups, problems := ResolveSuppressions(All(), in)
	if len(sups) != 4 || len(problems) != 2 || !strings.Contains(problems[0].Msg, `unknown rule "BL999"`) || problems[1].Msg != "needs a reason" {
		t.Fatalf("suppressions %d, problems %+v", len(sups), problems)
	}
	if got := strings.Join(sups[0].IDs, ","); got != "BL301,BL306" {
		t.Errorf("IDs %s, want BL301,BL306", got)
	}
	finding := func(rule string, line int) Diagnostic {
		return Diagnostic{Rule: rule, Span: plan.Span{Start: plan.Pos{File: "q.sql", Line: line, Col: 1}}}
	}
	ds := []Diagnostic{finding("BL301", 3), finding("BL301", 5), finding("BL306", 4), finding("BL301", 12)}
	ran := map[string]bool{"BL301": true, "BL306": true, "BL307": true}
	out := ApplySuppressions(ds, sups, ran, All(), "2026-12-02")
	var got []string
	for _, d := range out {
		got = append(got, d.Rule+"@"+strings.TrimPrefix(d.Span.Start.String(), "q.sql:"))
	}
	// Lines 3 and 4 are covered; line 5 is not; BL307's suppression covered nothing (BL902);
	// the expired one suppresses nothing and says so; BL104 did not run and is not judged.
	if want := "BL301@5:1 BL301@12:1 BL902@9:4 BL902@11:4"; strings.Join(got, " ") != want {
		t.Errorf("after suppressions: %s, want %s", strings.Join(got, " "), want)
	}
	if !strings.Contains(out[3].Message, "expired on 2026-01-31") {
		t.Errorf("expired message: %s", out[3].Message)
	}
}

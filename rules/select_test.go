package rules

import (
	"slices"
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/plan"
)

func TestSelectAndEnabled(t *testing.T) {
	t.Parallel()
	catalogue := All()
	ids := func(rs []*Rule) string {
		var out []string
		for _, r := range rs {
			out = append(out, r.ID)
		}
		return strings.Join(out, " ")
	}
	for name, want := range map[string]string{
		"BL301":                 "BL301",
		"bucket-count-mismatch": "BL301",
		"BL9":                   "BL901 BL902",
		"BL40":                  "BL401 BL402 BL403 BL404 BL405",
		"BL":                    "",
		"none":                  "",
		"BL999":                 "",
	} {
		if got := ids(Select(catalogue, name)); got != want {
			t.Errorf("Select(%q) = %q, want %q", name, got, want)
		}
	}
	if got := len(Select(catalogue, "all")); got != len(catalogue) {
		t.Errorf("Select(all) = %d rules, want %d", got, len(catalogue))
	}
	on := func(entries ...string) []string {
		m := Enabled(catalogue, entries)
		var out []string
		for _, r := range catalogue {
			if m[r.ID] {
				out = append(out, r.ID)
			}
		}
		return out
	}
	for _, c := range []struct {
		entries []string
		want    []string
	}{
		{[]string{"none", "BL3", "-BL310", "BL106"}, []string{"BL106", "BL301", "BL302", "BL303", "BL304", "BL305", "BL306", "BL307", "BL308", "BL309", "BL311", "BL312", "BL313"}},
		{[]string{"none", "parse-error"}, []string{"BL901"}},
		{[]string{"all", "-all", "-none", "-BL1", "-BL2", "-BL3", "-BL4"}, []string{"BL901", "BL902"}},
		{[]string{"none", "BL999"}, nil},
	} {
		if got := on(c.entries...); !slices.Equal(got, c.want) {
			t.Errorf("Enabled(%q) = %q, want %q", c.entries, got, c.want)
		}
	}
}

func TestInputError(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		pos  plan.Pos
		ok   bool
		want string
	}{
		{plan.Pos{File: "q.sql", Line: 3, Col: 7}, true, "q.sql:3:7"},
		{plan.Pos{File: "q.sql"}, true, "q.sql:1:1"},
		{plan.Pos{}, false, ""},
	} {
		d, ok := InputError(All(), c.pos, "no")
		if ok != c.ok || ok && (d.Span.Start.String() != c.want || d.Rule != ParseErrorID || d.Severity != Error || d.Message != "no") {
			t.Errorf("InputError(%v) = %+v, %t", c.pos, d, ok)
		}
	}
	if _, ok := InputError(nil, plan.Pos{File: "q.sql", Line: 1}, "no"); ok {
		t.Error("ParseError without BL901 in the catalogue made a finding")
	}
}

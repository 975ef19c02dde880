package rules

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/bucketlint/bucketlint/parser"
	"github.com/bucketlint/bucketlint/parser/sql"
	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/workload"
)

// TestRunLoadedScenario runs every rule over a Spark 3.5.9 scenario directory as the check
// command loads it (parser.Load: tables from SHOW CREATE TABLE and DESCRIBE EXTENDED, ten
// explain outputs): the count mismatch is found, its shuffle reported at the Exchange line of
// the simple explain output, and the result is sorted.
func TestRunLoadedScenario(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("..", "fixtures", "spark", "3.5", "joins", "mismatch_200_vs_8")
	p, errs := parser.Load(context.Background(), []string{dir}, parser.LoadOptions{})
	if len(errs) > 0 {
		t.Fatalf("load: %v", errs)
	}
	w, err := workload.New(p, workload.Config{})
	if err != nil {
		t.Fatal(err)
	}
	diags := Run(w, All())
	byRule := map[string]int{}
	for _, d := range diags {
		byRule[d.Rule]++
	}
	for _, id := range []string{"BL301", "BL310"} {
		if byRule[id] == 0 {
			t.Errorf("no %s finding; got %v", id, byRule)
		}
	}
	// BL306 stays silent: b's scan is "disabled by query planner" because the join shuffles it
	// anyway, which BL301 and BL310 report.
	for _, id := range []string{"BL302", "BL303", "BL304", "BL305", "BL306", "BL101", "BL201"} {
		if byRule[id] > 0 {
			t.Errorf("unexpected %s findings: %d", id, byRule[id])
		}
	}
	want := filepath.Join(dir, "join", "aqe-off.simple.txt") + ":8:7"
	found := false
	for _, d := range diags {
		found = found || (d.Rule == "BL310" && d.Span.Start.String() == want)
	}
	if !found {
		t.Errorf("no BL310 finding at %s", want)
	}
	sorted := slices.IsSortedFunc(diags, func(a, b Diagnostic) int {
		x, y := a.Span.Start, b.Span.Start
		switch {
		case x.File != y.File:
			return cmpString(x.File, y.File)
		case x.Line != y.Line:
			return x.Line - y.Line
		case x.Col != y.Col:
			return x.Col - y.Col
		}
		return cmpString(a.Rule, b.Rule)
	})
	if !sorted {
		t.Error("diagnostics are not sorted by file, line, column and rule")
	}
	for _, d := range diags {
		if d.Name == "" || d.Severity == 0 {
			t.Errorf("%s at %s: name or severity not filled in", d.Rule, d.Span.Start)
		}
	}
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// TestRunEveryScenario runs every rule over every recorded Spark 3.5 scenario (DDL, DESCRIBE
// output, explain output in every mode): no rule panics or fails, and a scenario whose plans
// have no shuffle gets no BL301–BL305 or BL310 finding.
func TestRunEveryScenario(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("loads every fixture scenario")
	}
	dirs, _ := filepath.Glob(filepath.Join("..", "fixtures", "spark", "3.5", "*", "*"))
	if len(dirs) == 0 {
		t.Skip("no fixtures")
	}
	sp, err := sql.New()
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range dirs {
		if filepath.Ext(dir) != "" {
			continue
		}
		p, _ := parser.Load(context.Background(), []string{dir}, parser.LoadOptions{SQL: sp})
		w, err := workload.New(p, workload.Config{})
		if err != nil {
			t.Fatal(err)
		}
		d := &Driver{}
		diags, err := d.Run(w, All())
		if err != nil {
			t.Errorf("%s: %v", dir, err)
		}
		if hasShuffle(p) {
			continue
		}
		for _, g := range diags {
			switch g.Rule {
			case "BL301", "BL302", "BL303", "BL304", "BL305", "BL310":
				if filepath.Ext(g.Span.Start.File) == ".txt" {
					t.Errorf("%s: %s at %s on a plan without shuffles: %s", dir, g.Rule, g.Span.Start, g.Message)
				}
			}
		}
	}
}

// hasShuffle reports whether any explain output of the project has a shuffle Exchange.
func hasShuffle(p *plan.Project) bool {
	found := false
	for _, e := range p.Explains {
		for _, s := range e.Plans {
			plan.WalkAll(s.Root, func(n plan.Node) bool {
				if _, ok := n.(*plan.Exchange); ok {
					found = true
				}
				return !found
			})
		}
	}
	return found
}

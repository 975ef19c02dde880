package sql

import (
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/plan"
)

// TestPivotAndGeneratorsInPlan checks what PIVOT and LATERAL VIEW become in the plan: a
// PIVOT is a block of its own over the relation before it (the LATERAL VIEWs before it
// included), with its aggregates as items, its pivot columns and the names of the columns
// it makes (ResolvePivot's outputName); a LATERAL VIEW is a generator of the block whose
// FROM it follows.
func TestPivotAndGeneratorsInPlan(t *testing.T) {
	p, err := New()
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		// pivot is "for: names" of the PIVOT block, "" for none; gens are the generators
		// as "function alias (columns)" of the block holding them; alias is the PIVOT's.
		pivot, alias string
		gens         []string
	}
	for _, tc := range []struct {
		src string
		want
	}{
		{"SELECT * FROM (SELECT a, b, v FROM t) PIVOT (sum(v) FOR b IN (0, 1, 2))", want{pivot: "b: 0 1 2"}},
		{"SELECT * FROM t PIVOT (sum(v) AS s FOR b IN (0 AS zero, 'One', NULL)) p", want{pivot: "b: zero one null", alias: "p"}},
		{"SELECT * FROM t PIVOT (count(v) AS c, max(v) FOR b IN (0, 1))", want{pivot: "b: 0_c 0_max(v) 1_c 1_max(v)"}},
		{"SELECT * FROM t PIVOT (sum(v) FOR (b, c) IN ((1, 2) AS x, (3, 4) AS y))", want{pivot: "b c: x y"}},
		{"SELECT x FROM t LATERAL VIEW explode(xs) e AS x", want{gens: []string{"explode e (x)"}}},
		{"SELECT * FROM t LATERAL VIEW OUTER posexplode(xs) AS p, x LATERAL VIEW explode(ys) f AS y", want{gens: []string{"posexplode  (p, x) outer", "explode f (y)"}}},
		{"SELECT * FROM t LATERAL VIEW explode(xs) e AS x PIVOT (sum(v) FOR x IN (1, 2))", want{pivot: "x: 1 2", gens: []string{"explode e (x)"}}},
		{"FROM t |> SELECT a, b, v |> PIVOT (sum(v) FOR b IN (0, 1)) |> WHERE a > 1", want{pivot: "b: 0 1"}},
	} {
		f, errs := p.ParseFile("q.sql", []byte(tc.src))
		if len(errs) > 0 || len(f.Queries) != 1 {
			t.Fatalf("%s: %v", tc.src, errs)
		}
		var got want
		f.Queries[0].WalkRelations(func(r *plan.Relation) bool {
			if r.Kind != plan.SelectRel {
				return true
			}
			sel := r.Select
			for _, g := range sel.Generators {
				s := g.Function + " " + g.Alias + " (" + strings.Join(g.Columns, ", ") + ")"
				if g.Outer {
					s += " outer"
				}
				got.gens = append(got.gens, s)
			}
			if pv := sel.Pivot; pv != nil {
				var cols []string
				for _, k := range pv.Columns {
					cols = append(cols, k.Column)
				}
				got.pivot, got.alias = strings.Join(cols, " ")+": "+strings.Join(pv.Names, " "), r.Alias
				if !sel.Aggregate || len(sel.ItemsX) == 0 || pv.Grouped {
					t.Errorf("%s: the PIVOT block does not aggregate its aggregates, or says its grouping is known before resolution", tc.src)
				}
			}
			return true
		})
		if got.pivot != tc.pivot || got.alias != tc.alias || strings.Join(got.gens, "|") != strings.Join(tc.gens, "|") {
			t.Errorf("%s:\n got %+v\nwant %+v", tc.src, got, tc.want)
		}
	}
}

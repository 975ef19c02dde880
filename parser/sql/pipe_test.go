package sql

import (
	"bytes"
	"strings"
	"testing"
)

// TestPipeAsSelect checks that a query written with |> operators reads as the same plan (joins,
// keys, filters, aggregation, order) as its SELECT form, so that rules and the simulator see
// the same query whichever way it is written.
func TestPipeAsSelect(t *testing.T) {
	p, err := New()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ name, pipe, sel string }{
		{"join", "FROM a |> JOIN b ON a.k = b.k", "SELECT * FROM a JOIN b ON a.k = b.k"},
		{"table join using", "TABLE a |> LEFT JOIN b USING (k)", "SELECT * FROM a LEFT JOIN b USING (k)"},
		{
			"join then aggregate", "FROM a |> JOIN b ON a.k = b.k |> AGGREGATE count(*) AS n GROUP BY a.k",
			"SELECT a.k, count(*) AS n FROM a JOIN b ON a.k = b.k GROUP BY a.k",
		},
		{
			"where then aggregate", "FROM a |> WHERE a.v = 1 |> AGGREGATE sum(w) GROUP BY k",
			"SELECT k, sum(w) FROM a WHERE a.v = 1 GROUP BY k",
		},
		{"aggregate without keys", "FROM a |> AGGREGATE count(*)", "SELECT count(*) FROM a"},
		{"alias then join", "FROM a |> AS x |> JOIN b ON x.k = b.k", "SELECT * FROM a AS x JOIN b ON x.k = b.k"},
		{"select", "FROM a |> SELECT k, v", "SELECT k, v FROM a"},
		{"extend", "FROM a |> EXTEND v + 1 AS w", "SELECT *, v + 1 AS w FROM a"},
		{"join then where", "FROM a |> JOIN b ON a.k = b.k |> WHERE b.w > 0", "SELECT * FROM a JOIN b ON a.k = b.k WHERE b.w > 0"},
		{"order then limit", "FROM a |> ORDER BY k |> LIMIT 10", "SELECT * FROM a ORDER BY k LIMIT 10"},
		{
			"operator over a SELECT", "SELECT k, v FROM a |> WHERE v > 1 |> AGGREGATE count(*) GROUP BY k",
			"SELECT k, count(*) FROM (SELECT k, v FROM a) WHERE v > 1 GROUP BY k",
		},
		{
			"aggregate over an aggregate", "FROM a |> AGGREGATE count(*) AS n GROUP BY k |> WHERE n > 1",
			"SELECT * FROM (SELECT k, count(*) AS n FROM a GROUP BY k) WHERE n > 1",
		},
		{"set operation", "SELECT k FROM a |> UNION ALL SELECT k FROM b", "(SELECT k FROM a) UNION ALL SELECT k FROM b"},
		{
			"join in a CTE", "WITH j AS (FROM a |> JOIN b ON a.k = b.k) SELECT * FROM j",
			"WITH j AS (SELECT * FROM a JOIN b ON a.k = b.k) SELECT * FROM j",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, want := planOf(t, p, c.pipe), planOf(t, p, c.sel)
			if got != want {
				t.Errorf("%s\n%s\nwant (%s)\n%s", c.pipe, got, c.sel, want)
			}
		})
	}
}

// planOf returns the printed plan of one query, without its position.
func planOf(t *testing.T, p *Parser, src string) string {
	t.Helper()
	f, errs := p.ParseFile("q.sql", []byte(src))
	if len(errs) > 0 || len(f.Queries) != 1 {
		t.Fatalf("%s: %v", src, errs)
	}
	var b bytes.Buffer
	if err := Fprint(&b, &File{Queries: f.Queries}, nil); err != nil {
		t.Fatal(err)
	}
	_, rest, _ := strings.Cut(b.String(), "\n")
	return rest
}

// TestJoinUnderPivotAndLateralView checks that PIVOT, UNPIVOT and LATERAL VIEW, whose column
// changes are not modelled, keep the relation they apply to: a join under them is in the
// plan with its keys.
func TestJoinUnderPivotAndLateralView(t *testing.T) {
	p, err := New()
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{
		"SELECT * FROM a JOIN b ON a.k = b.k LATERAL VIEW explode(b.xs) e AS x",
		"SELECT * FROM a JOIN b ON a.k = b.k LATERAL VIEW OUTER explode(b.xs) e AS x WHERE x > 0",
		"SELECT * FROM (SELECT a.k, b.w FROM a JOIN b ON a.k = b.k) PIVOT (sum(w) FOR k IN (1, 2))",
		"SELECT * FROM a JOIN b ON a.k = b.k PIVOT (sum(w) AS s FOR k IN (1 AS one, 2 AS two))",
		"SELECT * FROM a JOIN b ON a.k = b.k UNPIVOT (v FOR c IN (w, v))",
		"FROM a |> JOIN b ON a.k = b.k |> PIVOT (sum(w) FOR k IN (1, 2))",
		"FROM a |> JOIN b ON a.k = b.k |> UNPIVOT (v FOR c IN (w, v)) |> WHERE v > 0",
		"SELECT s.k, count(*) FROM (SELECT * FROM a JOIN b ON a.k = b.k) s LATERAL VIEW explode(s.xs) e AS x GROUP BY s.k",
	} {
		got := planOf(t, p, src)
		if !strings.Contains(got, "key a.k = b.k") {
			t.Errorf("%s: the join of a and b on k is not in the plan:\n%s", src, got)
		}
	}
}

// TestPipeChainLimit checks that a chain of |> operators too long to nest is an error, not a
// recursion as deep as the chain.
func TestPipeChainLimit(t *testing.T) {
	p, err := New()
	if err != nil {
		t.Fatal(err)
	}
	long := "FROM t" + strings.Repeat(" |> WHERE a > 1 |> SELECT a", maxNesting)
	if _, errs := p.ParseFile("q.sql", []byte(long)); len(errs) != 1 || !strings.Contains(errs[0].Msg, "|> operators in one query are not read") {
		t.Errorf("%d operators: %v", 2*maxNesting, errs)
	}
	ok := "FROM t" + strings.Repeat(" |> WHERE a > 1 |> SELECT a", maxNesting/2)
	if _, errs := p.ParseFile("q.sql", []byte(ok)); len(errs) != 0 {
		t.Errorf("%d operators: %v", maxNesting, errs)
	}
}

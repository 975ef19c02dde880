package main

import (
	"regexp"
	"strings"
	"testing"
)

// TestPipeSyntaxAsSelect checks that a join and an aggregation written with |> operators get
// the same findings and the same simulated plan as their SELECT form (Spark 4.0, where the
// pipe syntax exists).
func TestPipeSyntaxAsSelect(t *testing.T) {
	forms := map[string]string{
		"select": "SELECT a.k, count(*) FROM a JOIN b ON a.k = b.k GROUP BY a.k;\n",
		"pipe":   "FROM a\n|> JOIN b ON a.k = b.k\n|> AGGREGATE count(*) GROUP BY a.k;\n",
	}
	// Positions differ between the forms; what is found, and where in the DDL, may not.
	at := regexp.MustCompile(`q\.sql:\d+:\d+(-\d+)?`)
	run := func(form string, args ...string) string {
		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{"ddl.sql": ddlText, "q.sql": forms[form]})
		out, errOut, code := checkIn(t, dir, nil, args...)
		if code > 1 {
			t.Fatalf("%s %v: exit %d: %s", form, args, code, errOut)
		}
		return at.ReplaceAllString(out, "q.sql")
	}
	for _, args := range [][]string{
		{"check", "--spark-version", "4.0"},
		{"simulate", "--spark-version", "4.0", "--tables", "ddl.sql", "q.sql"},
	} {
		sel, pipe := run("select", args...), run("pipe", args...)
		if sel != pipe {
			t.Errorf("%v: the pipe form differs from the SELECT form:\n%s\nSELECT form:\n%s", args, pipe, sel)
		}
		if args[0] == "check" && !regexp.MustCompile(`BL301`).MatchString(pipe) {
			t.Errorf("check: the join of 200 and 8 buckets is not reported:\n%s", pipe)
		}
	}
}

// TestPivotAndLateralViewFindings checks that a PIVOT is an aggregation grouped by its
// input's other columns (BL307 when they leave out the bucket column, none when they are
// it), that |> PIVOT gets the findings of PIVOT in FROM, and that a LATERAL VIEW keeps the
// join under it (BL301 for the join of 200 and 8 buckets).
func TestPivotAndLateralViewFindings(t *testing.T) {
	at := regexp.MustCompile(`q\.sql:\d+:\d+(-\d+)?`)
	run := func(q string) string {
		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{"ddl.sql": ddlText, "q.sql": q})
		out, errOut, code := checkIn(t, dir, nil, "check", "--spark-version", "4.0")
		if code > 1 {
			t.Fatalf("%s: exit %d: %s", q, code, errOut)
		}
		return at.ReplaceAllString(out, "q.sql")
	}
	for _, tc := range []struct {
		q, want, not string
	}{
		{q: "SELECT * FROM a PIVOT (count(*) FOR k IN (1, 2));\n", want: `PIVOT, grouping by \(v\) shuffles a.*BL307`},
		{q: "SELECT * FROM a PIVOT (sum(v) FOR v IN (1, 2));\n", not: `BL307`},
		{q: "SELECT a.k, x FROM a JOIN b ON a.k = b.k LATERAL VIEW explode(array(a.v, b.w)) e AS x;\n", want: `BL301`},
	} {
		got := run(tc.q)
		if tc.want != "" && !regexp.MustCompile(tc.want).MatchString(got) {
			t.Errorf("%s: no %s:\n%s", tc.q, tc.want, got)
		}
		if tc.not != "" && regexp.MustCompile(tc.not).MatchString(got) {
			t.Errorf("%s: %s reported:\n%s", tc.q, tc.not, got)
		}
	}
	sel := run("SELECT * FROM (SELECT a.k, b.w, a.v FROM a JOIN b ON a.k = b.k) PIVOT (sum(w) FOR k IN (1, 2));\n")
	pipe := run("FROM a\n|> JOIN b ON a.k = b.k\n|> SELECT a.k, b.w, a.v\n|> PIVOT (sum(w) FOR k IN (1, 2));\n")
	if sel != pipe || !strings.Contains(sel, "BL301") {
		t.Errorf("|> PIVOT differs from PIVOT in FROM, or both miss the join (BL301):\n%s\nPIVOT in FROM:\n%s", pipe, sel)
	}
}

package main

import (
	"regexp"
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

package sql

import (
	"strings"
	"testing"
)

// TestVersion3Gates checks how the 3.x releases read what their parsers accepted and a later
// one rejects (each boundary is recorded: testdata/spark/3.*/syntax.json and sqltests.json).
func TestVersion3Gates(t *testing.T) {
	base, err := New()
	if err != nil {
		t.Fatal(err)
	}
	v30, v31, v32, v35 := Version{3, 0}, Version{3, 1}, Version{3, 2}, Version{3, 5}
	cases := []struct {
		name string
		v    Version
		sql  string
		want string // "" for accepted, else a part of the first error
	}{
		{"comment ends at its first */ on 3.0", v30, "SELECT 1 AS a /* b /* c */ , 2 AS d", ""},
		{"nested comment on 3.1", v31, "SELECT 1 AS a /* b /* c */ , 2 AS d", "unclosed /* comment"},
		{"nested comment left over on 3.0", v30, "SELECT /* a /* b */ c */ 1", "a /* comment */ nested in another needs Spark 3.1"},
		{"stray */ after a nested comment on 3.0", v30, "/* a /* b */ */ SELECT 1", "nested in another needs Spark 3.1"},
		{"*/ in a string on 3.0", v30, "/* a /* b */ SELECT '*/'", ""},
		{"nested comment on 3.0 splits at ;", v30, "SELECT 1 /* a /* b */;\nSELECT 2", ""},
		{"hint kept on 3.0", v30, "SELECT /*+ BROADCAST(u) */ * FROM t /* x /* y */ JOIN u ON t.a = u.a", ""},
		{"SET of anything on 3.0", v30, "SET VAR v = 1", ""},
		{"SET TIME ZONE out of range on 3.0", v30, "SET TIME ZONE INTERVAL 24 HOURS", ""},
		{"SET key with a blank on 3.1", v31, "SET a b = 1", "SET of a key with a blank in it (SET a b = 1; 3.0 read any text after SET as a key and value) is not accepted since Spark 3.1"},
		{"SET key and value with blanks on 3.1", v31, "SET spark.sql.x = a b", ""},
		{"SET -v on 3.1", v31, "SET -v", ""},
		{"SET VAR on 3.5", v35, "SET VAR v = 1", "session variables"},
		{"RESET key on 3.0", v30, "RESET spark.sql.ansi.enabled", "RESET of one configuration key needs Spark 3.1"},
		{"RESET on 3.0", v30, "RESET", ""},
		{"RESET key on 3.1", v31, "RESET spark.sql.ansi.enabled", ""},
		{"mixed interval on 3.1", v31, "SELECT INTERVAL 1 MONTH 2 DAYS, INTERVAL '1 month 2 days'", ""},
		{"mixed interval on 3.2", v32, "SELECT INTERVAL 1 MONTH 2 DAYS", "mixing year-month and day-time fields is not accepted since Spark 3.2 (configured: 3.2): write two literals"},
		{"days out of range on 3.1", v31, "SELECT INTERVAL '106751992 04' DAY TO HOUR", ""},
		{"days out of range on 3.2", v32, "SELECT INTERVAL '106751992 04:00:00' DAY TO SECOND", "whose days are out of range"},
		{"hours out of range on 3.1", v31, "SELECT INTERVAL '2562047789:00' HOUR TO MINUTE", "out of range"},
		{"wide hours on 3.1", v31, "SELECT INTERVAL '100:00' HOUR TO MINUTE", "more than two digits of hours or minutes"},
		{"wide hours on 3.2", v32, "SELECT INTERVAL '100:00' HOUR TO MINUTE", ""},
		{"-2^31 months on 3.1", v31, "SELECT INTERVAL '-178956970-8' YEAR TO MONTH", "-2^31 months"},
		{"-2^31 months on 3.2", v32, "SELECT INTERVAL '-178956970-8' YEAR TO MONTH", ""},
		{"signed interval string on 3.1", v31, "SELECT INTERVAL -'1' DAY", "a sign before the string of an interval literal"},
		{"signed interval number on 3.1", v31, "SELECT INTERVAL -1 DAY", ""},
		{"date field wrapped on 3.1", v31, "SELECT DATE '2021-4294967297-11', TIMESTAMP '2021-01-01T12:30:4294967297.123456'", ""},
		{"date field wrapped on 3.2", v32, "SELECT DATE '2021-4294967297-11'", "more than 32 bits"},
		{"bad date on 3.1", v31, "SELECT DATE '2021-13-01'", "invalid DATE literal"},
		{"date field too wide even wrapped on 3.1", v31, "SELECT DATE '2021-4294967309-01'", "invalid DATE literal"},
		{"LATERAL as a table's name on 3.1", v31, "SELECT * FROM t, LATERAL f(a)", ""},
		{"LATERAL function on 3.2", v32, "SELECT * FROM t JOIN LATERAL explode(t.a)", "a function call after LATERAL past the first table of FROM (t, LATERAL f(a); 3.0 and 3.1 read it as the table LATERAL named f) needs Spark 3.4"},
		{"LATERAL function first on 3.2", v32, "SELECT * FROM LATERAL explode(array(1, 2))", ""},
		{"LATERAL function on 3.4", Version{3, 4}, "SELECT * FROM t JOIN LATERAL explode(t.a)", ""},
		{"LATERAL subquery on 3.1", v31, "SELECT * FROM t, LATERAL (SELECT t.a)", "a LATERAL subquery needs Spark 3.2"},
		{"TRANSFORM input alias on 3.1", v31, "SELECT TRANSFORM(DISTINCT a, b AS c) USING 'cat' FROM t", ""},
		{"TRANSFORM input alias on 3.2", v32, "SELECT TRANSFORM(a b) USING 'cat' FROM t", "an alias among TRANSFORM's inputs"},
		{"TRANSFORM LINES TERMINATED on 3.0", v30, "SELECT TRANSFORM(a) ROW FORMAT DELIMITED LINES TERMINATED BY '@' USING 'cat' FROM t", ""},
		{"TRANSFORM LINES TERMINATED on 3.1", v31, "SELECT TRANSFORM(a) ROW FORMAT DELIMITED LINES TERMINATED BY '@' USING 'cat' FROM t", "LINES TERMINATED BY other than"},
		{"window twice on 3.0", v30, "SELECT sum(a) OVER w FROM t WINDOW w AS (ORDER BY a), w AS (ORDER BY b)", ""},
		{"window twice on 3.1", v31, "SELECT sum(a) OVER w FROM t WINDOW w AS (ORDER BY a), w AS (ORDER BY b)", "a window defined twice"},
		{"LIKE ANY () on 3.0", v30, "SELECT * FROM t WHERE a LIKE ANY ()", ""},
		{"LIKE ANY () on 3.1", v31, "SELECT * FROM t WHERE a LIKE ALL ()", "LIKE ANY, ALL or SOME of an empty list"},
		{"FLOAT out of range on 3.0", v30, "SELECT -3.4028235E39f", ""},
		{"FLOAT out of range on 3.1", v31, "SELECT 3.4028235E39f", "a FLOAT literal out of range"},
		{"FLOAT from its point on 3.0", v30, "SELECT .10f", "a FLOAT literal starting with its point"},
		{"non-ASCII interval string on 3.0", v30, "SELECT INTERVAL 'interval 1中文day'", ""},
		{"non-ASCII interval string on 3.1", v31, "SELECT INTERVAL 'interval 1中文day'", "characters other than ASCII"},
		{"bad interval string on 3.0", v30, "SELECT INTERVAL '1 fortnight'", "is not an interval unit"},
		{"ALTER VIEW WITH SCHEMA on 3.5", v35, "ALTER VIEW v WITH SCHEMA BINDING", "WITH SCHEMA of a view needs Spark 4.0"},
		{"ALTER VIEW WITH SCHEMA on 4.0", Version{4, 0}, "ALTER VIEW v WITH SCHEMA TYPE EVOLUTION", ""},
		{"ALTER VIEW AS on 3.0", v30, "ALTER VIEW v AS SELECT 1", ""},
		{"legacy ! leaves other gates alone", v32, "SET spark.sql.legacy.bangEqualsNot=true;\nSELECT INTERVAL 1 MONTH 2 DAYS", "not accepted since Spark 3.2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, errs := base.WithOptions(Options{Spark: c.v}).ParseFile("x.sql", []byte(c.sql))
			got := ""
			if len(errs) > 0 {
				got = errs[0].Msg
			}
			if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
				t.Errorf("%s, %q: error %q, want %q", c.v, c.sql, got, c.want)
			}
		})
	}
}

// TestFlatComments checks the text a release before 3.1 reads: each comment ends at its
// first */, the offsets stay.
func TestFlatComments(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"SELECT 1", "SELECT 1"},
		{"/* a */ SELECT 1", "/* a */ SELECT 1"},
		{"/* a /* b */ c */", "/* a /  b */ c */"},
		{"/*/**/*/", "/*/ */*/"},
		{"/*/*/ x", "/*/*/ x"},
		{"'/* /*' /* x /* y */", "'/* /*' /* x /  y */"},
		{"-- /* /*\n/* x /* y", "-- /* /*\n/* x /  y"},
	} {
		if got := flatComments(c.in); got != c.want || len(got) != len(c.in) {
			t.Errorf("flatComments(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

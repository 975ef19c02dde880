package sql

import (
	"strings"
	"testing"
)

// TestGrammarForms parses one statement of each language form the hand-written parser
// reads (grouping analytics, PIVOT, LATERAL, TRANSFORM, ANSI intervals, shifts, COLLATE,
// WITHIN GROUP, named arguments, pipes, IDENTIFIER, * EXCEPT, INSERT … WITH, Hive's FROM
// first) and rejects what Spark's parser rejects, with a message naming the problem.
func TestGrammarForms(t *testing.T) {
	p, err := New()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, sql, err string // err "" for a statement that parses
	}{
		{"grouping sets", "SELECT a, b, sum(c) FROM t GROUP BY GROUPING SETS ((a, b), (a), ())", ""},
		{"rollup", "SELECT a, sum(c) FROM t GROUP BY ROLLUP(a, b)", ""},
		{"with cube", "SELECT a, sum(c) FROM t GROUP BY a, b WITH CUBE", ""},
		{"hive grouping sets", "SELECT a, b FROM t GROUP BY a, b GROUPING SETS ((a), (b))", ""},
		{"pivot", "SELECT * FROM sales PIVOT (sum(x) AS s FOR y IN (2012 AS a, 2013)) p", ""},
		{"unpivot", "SELECT * FROM t UNPIVOT INCLUDE NULLS (v FOR k IN (a, b))", ""},
		{"lateral view", "SELECT * FROM t LATERAL VIEW OUTER explode(xs) e AS x, y WHERE x > 1", ""},
		{"lateral subquery", "SELECT * FROM t1, LATERAL (SELECT t1.a) s JOIN LATERAL (SELECT 1) u ON true", ""},
		{"transform", "SELECT TRANSFORM(a, b) ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' USING 'cat' AS (x string, y int) FROM t", ""},
		{"transform function", "SELECT transform(xs, x -> x + 1) FROM t", ""},
		{"ansi intervals", "SELECT INTERVAL '1-2' YEAR TO MONTH, INTERVAL '1 02:03:04' DAY TO SECOND, CAST(x AS INTERVAL DAY TO SECOND), INTERVAL 2 DAYS 3 HOURS", ""},
		{"shifts", "SELECT a << 2, b >> 1, c >>> 3, CAST(m AS map<int, array<int>>) FROM t", ""},
		{"collate", "SELECT a COLLATE utf8_lcase = 'x' FROM t", ""},
		{"within group", "SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x) FROM t", ""},
		{"named args", "SELECT mask(s, upperChar => 'X') FROM t", ""},
		{"pipe", "FROM t |> WHERE a > 1 |> AGGREGATE sum(b) AS s GROUP BY a |> ORDER BY s |> LIMIT 3", ""},
		{"identifier", "SELECT IDENTIFIER('a' || 'b') FROM IDENTIFIER('db.t')", ""},
		{"star except", "SELECT * EXCEPT (a, b), t.* EXCEPT (c) FROM t", ""},
		{"insert with", "INSERT INTO t WITH c AS (SELECT 1 AS a) SELECT a FROM c", ""},
		{"from first", "FROM t SELECT a WHERE b > 1", ""},
		{"multi insert", "FROM s INSERT INTO t1 SELECT a INSERT OVERWRITE TABLE t2 SELECT b", ""},
		{"chained comparison", "SELECT a = b IS NULL, NOT NOT c FROM t", ""},
		{"typed literals", "SELECT DATE '2024-02-29', TIMESTAMP '2024-01-01 10:00:00.123', X'0aF' FROM t", ""},
		{"bad date", "SELECT DATE '2023-02-29'", "invalid DATE literal '2023-02-29'"},
		{"mixed interval", "SELECT INTERVAL 1 MONTH 2 DAYS", "mixing year-month and day-time"},
		{"bad unit-to-unit", "SELECT INTERVAL '1 2:03' DAY TO HOUR", "is not of the form DAY TO HOUR"},
		{"tinyint range", "SELECT 128Y", "out of range for TINYINT"},
		{"tinyint min", "SELECT -128Y", ""},
		{"unknown type", "SELECT CAST(a AS BINT) FROM t", `unsupported data type "BINT"`},
		{"string unit", "SELECT timestampadd('MONTH', 1, d) FROM t", "a string as the unit of TIMESTAMPADD"},
		{"duplicate cte", "WITH a AS (SELECT 1), a AS (SELECT 2) SELECT * FROM a", "defines a twice"},
		{"interval unit", "SELECT INTERVAL 1 fortnight", "expected an interval unit"},
		{"empty except", "SELECT * EXCEPT () FROM t", "expected a column"},
		{"missing table", "SELECT a FROM WHERE b", `unexpected token "WHERE" (expected a table)`},
		{"values widths", "SELECT * FROM VALUES (1, 2), (3) AS v(a, b)", "VALUES rows of different widths"},
		{"tablesample percent", "SELECT * FROM t TABLESAMPLE (101 PERCENT)", "is not between 0 and 100"},
		{"order and sort", "SELECT a FROM t ORDER BY a SORT BY a", "ORDER BY does not combine"},
		{"pipe aggregate", "FROM t |> AGGREGATE GROUP BY ROLLUP(a)", "no GROUP BY ALL, ROLLUP"},
		{"frame bound", "SELECT sum(a) OVER (ORDER BY b RANGE BETWEEN CURRENT ROW AND d PRECEDING) FROM t", "frame bound is a literal"},
		{"unknown statement", "SELCT 1", "SELCT does not start a statement"},
		{"known statements", "REFRESH TABLE t; MSCK REPAIR TABLE t; SHOW TABLES; ADD JAR 'x.jar'; CACHE TABLE t; OPTIMIZE t ZORDER BY (a)", ""},
		{"time zone", "SET TIME ZONE INTERVAL 24 HOURS", "within ±18 hours"},
		{"time zone ok", "SET TIME ZONE INTERVAL '08:30' HOUR TO MINUTE; SET TIME ZONE 'UTC'; SET TIME ZONE LOCAL", ""},
		{"describe json", "DESCRIBE t AS JSON", "EXTENDED before the table"},
		{"unclosed comment", "SELECT 1 /* a /* b */", "unclosed /* comment"},
		{"execute immediate of a statement parsed when it runs", "EXECUTE IMMEDIATE 'SELEC 1'", ""},
		{"temp view name", "CREATE TEMPORARY VIEW db.v AS SELECT 1", "one-part name"},
		{"double-quoted names", "SET spark.sql.ansi.doubleQuotedIdentifiers=true; SELECT \"a\" FROM \"t\"", ""},
		{"double-quoted strings", "CREATE SCHEMA \"s\"", "expected a name"},
		{"identifier string", "SELECT IDENTIFIER('c 1') FROM t", ""},
		{"identifier empty table name", "SELECT * FROM IDENTIFIER('')", "IDENTIFIER('') naming a table"},
		{"change nothing", "ALTER TABLE t CHANGE a", "CHANGE COLUMN needs a type"},
		{"change type", "ALTER TABLE t CHANGE COLUMN a a BIGINT; ALTER TABLE t CHANGE a COMMENT 'x'", ""},
		{"string column name", "ALTER TABLE t ADD COLUMN \"c\" INT", "expected a column name"},
		{"view column identifier", "CREATE VIEW v (IDENTIFIER('c1')) AS VALUES (1)", ""},
		{"view column call", "CREATE VIEW v (f(1)) AS VALUES (1)", "expected a column name"},
		{"view column comment", "SET spark.sql.ansi.doubleQuotedIdentifiers=true; CREATE VIEW v (c1 COMMENT \"x\") AS SELECT 1", "expected a string"},
		{"watermark", "SELECT * FROM s WATERMARK ts DELAY OF INTERVAL 10 SECONDS AS w JOIN (SELECT * FROM u) WATERMARK to_timestamp(x) AS t2 DELAY OF INTERVAL 1 MINUTE v ON w.k = v.k", ""},
		{"table named watermark", "SELECT watermark.a FROM t watermark, u WHERE u.a = watermark.a", ""},
		{"variant path", "SELECT v:a.b[0], v:['k'], v : c FROM t", ""},
		{"view columns", "CREATE VIEW v (c1 COMMENT 'x', c2) AS SELECT 1, 2; CREATE TEMPORARY VIEW u (a INT) USING parquet", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errs := p.ParseFile("f.sql", []byte(tt.sql))
			switch {
			case tt.err == "" && len(errs) > 0:
				t.Errorf("%s: %v", tt.sql, errs)
			case tt.err != "" && (len(errs) == 0 || !strings.Contains(errs[0].Msg, tt.err)):
				t.Errorf("%s: want an error with %q, got %v", tt.sql, tt.err, errs)
			}
		})
	}
}

// TestDepthLimit: input nested ten times deeper than the limits is one positioned error, not
// a stack overflow; the limit itself is read.
func TestDepthLimit(t *testing.T) {
	p, err := New()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, sql string
		fail      bool
	}{
		{"parens 200k", "SELECT " + strings.Repeat("(", 200000) + "a" + strings.Repeat(")", 200000) + " FROM t", true},
		{"nots", "SELECT 1 FROM t WHERE " + strings.Repeat("NOT ", 10*maxDepth) + "a", true},
		{"subqueries", "SELECT * FROM " + strings.Repeat("(SELECT * FROM ", 10*maxNesting) + "t" + strings.Repeat(")", 10*maxNesting), true},
		{"nots at the limit", "SELECT 1 FROM t WHERE " + strings.Repeat("NOT ", maxDepth/4) + "a", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errs := p.ParseFile("f.sql", []byte(tt.sql))
			if got := len(errs) > 0; got != tt.fail {
				t.Fatalf("errors %v, want failure %v", errs, tt.fail)
			}
			if tt.fail && (errs[0].Pos.Line != 1 || !strings.Contains(errs[0].Msg, "nesting deeper")) {
				t.Errorf("want a positioned nesting error, got %v", errs[0])
			}
		})
	}
}

// TestStatementRecovery: a file with a bad statement, an unclosed bracket and a function
// whose $$ body holds semicolons still yields the tables and queries around them, and one
// positioned error per bad statement.
func TestStatementRecovery(t *testing.T) {
	p, err := New()
	if err != nil {
		t.Fatal(err)
	}
	src := "CREATE TABLE a (k INT) USING parquet CLUSTERED BY (k) INTO 8 BUCKETS;\n" +
		"CREATE FUNCTION f(x INT) RETURNS INT LANGUAGE PYTHON AS $$\nreturn x; # ; ( '\n$$;\n" +
		"SELECT k, FROM a WHERE;\n" +
		"SELECT (k FROM a;\n" +
		"CREATE TABLE b (k INT) USING parquet CLUSTERED BY (k) INTO 8 BUCKETS;\n" +
		"SELECT * FROM a JOIN b ON a.k = b.k;\n"
	f, errs := p.ParseFile("f.sql", []byte(src))
	if len(f.Tables) != 2 || len(f.Queries) != 1 || len(f.Other) != 1 {
		t.Errorf("got %d tables, %d queries, %d other statements; want 2, 1, 1", len(f.Tables), len(f.Queries), len(f.Other))
	}
	if len(errs) != 2 || errs[0].Pos.Line != 5 || errs[1].Pos.Line != 6 {
		t.Errorf("want errors on lines 5 and 6, got %v", errs)
	}
}

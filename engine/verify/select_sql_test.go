//go:build engine

package verify

import (
	"strings"
	"testing"
)

// TestSelectSQLRenamesTables renames tables where the parser found their names: never in
// string literals, comments, aliases or column qualifiers.
func TestSelectSQLRenamesTables(t *testing.T) {
	t.Parallel()
	to := map[string]string{"db.a": "`s`.`a`", "b": "`s`.`b`"}
	for _, tc := range []struct{ name, in, want string }{
		{"from_and_join", "SELECT a.k FROM db.a JOIN b ON a.k = b.k", "SELECT a.k FROM `s`.`a` JOIN `s`.`b` ON a.k = b.k"},
		{"catalog_prefix", "select * from spark_catalog.db.a x", "select * from `s`.`a` x"},
		{"comma_list", "SELECT * FROM db.a, b WHERE db = 'FROM b'", "SELECT * FROM `s`.`a`, `s`.`b` WHERE db = 'FROM b'"},
		{"select_list_untouched", "SELECT b, a FROM c", "SELECT b, a FROM c"},
		{"subquery", "SELECT * FROM (SELECT k FROM b) t JOIN `db`.`a` u USING (k)", "SELECT * FROM (SELECT k FROM `s`.`b`) t JOIN `s`.`a` u USING (k)"},
		{"comments_blanked", "SELECT 1 -- FROM b\nFROM /* b */ b", "SELECT 1          \nFROM         `s`.`b`"},
		{"alias_named_like_a_table", "SELECT b.k FROM db.a b", "SELECT b.k FROM `s`.`a` b"},
		{"other_tables", "SELECT * FROM db.c JOIN x.b2 ON 1=1", "SELECT * FROM db.c JOIN x.b2 ON 1=1"},
		{"use_scopes_names", "USE db;\nSELECT *\nFROM a\nJOIN\n  b ON a.k = b.k", "SELECT *\nFROM `s`.`a`\nJOIN\n  `s`.`b` ON a.k = b.k"},
		{"cte", "WITH q AS (SELECT k FROM b) SELECT * FROM q JOIN db.a ON q.k = a.k", "WITH q AS (SELECT k FROM `s`.`b`) SELECT * FROM q JOIN `s`.`a` ON q.k = a.k"},
		{"nested_with_stays", "SELECT * FROM (WITH q AS (SELECT k FROM b) SELECT k FROM q) t", "SELECT * FROM (WITH q AS (SELECT k FROM `s`.`b`) SELECT k FROM q) t"},
		{"union", "SELECT k FROM b UNION ALL SELECT k FROM db.a", "SELECT k FROM `s`.`b` UNION ALL SELECT k FROM `s`.`a`"},
		{"insert_runs_its_select", "INSERT INTO db.c SELECT k FROM b", "SELECT k FROM `s`.`b`"},
		{"ctas_runs_its_select", "CREATE TABLE db.c USING parquet AS SELECT k FROM b", "SELECT k FROM `s`.`b`"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, w := workload(t, tc.in)
			if len(w) != 1 {
				t.Fatalf("%d queries", len(w))
			}
			got, err := selectSQL(w[0].Query, to)
			if err != nil || got != tc.want {
				t.Errorf("selectSQL(%q)\n got %q (%v)\nwant %q", tc.in, got, err, tc.want)
			}
		})
	}
}

// TestSelectSQLRefusesMisplacedNames: positions that do not match the query's text (a SQL
// string whose escapes moved them) are an error, never a guess.
func TestSelectSQLRefusesMisplacedNames(t *testing.T) {
	t.Parallel()
	_, w := workload(t, "SELECT k FROM b")
	q := *w[0].Query
	root := *q.Root
	q.Root = &root
	root.Text = "SELECT k  FROM b" // one byte more than the positions count
	if got, err := selectSQL(&q, map[string]string{"b": "x"}); err == nil || !strings.Contains(err.Error(), "cannot place table name b") {
		t.Errorf("selectSQL = %q, %v; want an error", got, err)
	}
}

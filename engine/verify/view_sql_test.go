//go:build engine

package verify

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/bucketlint/bucketlint/parser"
	wl "github.com/bucketlint/bucketlint/workload"
)

// TestSelectSQLReadsViews writes a query that reads views, as name resolution left it (the
// view's query in place of its scan, the view's CTEs among the query's), back as SQL Spark
// runs without the views: each view becomes its query in parentheses under the scan's alias.
func TestSelectSQLReadsViews(t *testing.T) {
	t.Parallel()
	ddl := "CREATE TABLE a (k INT, v INT) USING parquet CLUSTERED BY (k) INTO 8 BUCKETS;\n" +
		"CREATE TABLE b (k INT, w INT) USING parquet CLUSTERED BY (k) INTO 8 BUCKETS;\n" +
		"CREATE VIEW pos AS WITH x AS (SELECT k, w FROM b) SELECT k, w FROM x WHERE w > 0;\n" +
		"CREATE VIEW big AS SELECT k AS kk, w AS ww FROM pos WHERE w > 9;\n"
	to := map[string]string{"a": "`s`.`a`", "b": "`s`.`b`"}
	for _, tc := range []struct{ name, query, want string }{
		{
			"view_with_its_cte", "SELECT a.k, pos.w FROM a JOIN pos ON a.k = pos.k",
			"SELECT a.k, pos.w FROM `s`.`a` JOIN (WITH x AS (SELECT k, w FROM `s`.`b`) SELECT k, w FROM x WHERE w > 0) `pos` ON a.k = pos.k",
		},
		{
			"aliased", "SELECT * FROM a JOIN pos AS p ON a.k = p.k",
			"SELECT * FROM `s`.`a` JOIN (WITH x AS (SELECT k, w FROM `s`.`b`) SELECT k, w FROM x WHERE w > 0) `p` ON a.k = p.k",
		},
		{
			"column_aliases", "SELECT * FROM a JOIN pos p (c, d) ON a.k = p.c",
			"SELECT * FROM `s`.`a` JOIN (WITH x AS (SELECT k, w FROM `s`.`b`) SELECT k, w FROM x WHERE w > 0) `p`(`c`, `d`) ON a.k = p.c",
		},
		{
			"cte_of_the_query_too", "WITH y AS (SELECT k FROM a) SELECT * FROM y JOIN pos ON y.k = pos.k",
			"WITH y AS (SELECT k FROM `s`.`a`) SELECT * FROM y JOIN (WITH x AS (SELECT k, w FROM `s`.`b`) SELECT k, w FROM x WHERE w > 0) `pos` ON y.k = pos.k",
		},
		{
			"view_of_a_view", "SELECT * FROM a JOIN big ON a.k = big.kk",
			"SELECT * FROM `s`.`a` JOIN (SELECT k AS kk, w AS ww FROM (WITH x AS (SELECT k, w FROM `s`.`b`) SELECT k, w FROM x WHERE w > 0) `pos` WHERE w > 9) `big` ON a.k = big.kk",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "w.sql"), []byte(ddl+tc.query+";\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			proj, errs := parser.Load(context.Background(), []string{dir}, parser.LoadOptions{})
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			w, err := wl.New(proj, wl.Config{})
			if err != nil {
				t.Fatal(err)
			}
			q := proj.Queries[len(proj.Queries)-1]
			got, err := selectSQL(w.Resolved(q).Query, to)
			if err != nil || got != tc.want {
				t.Errorf("selectSQL(%q)\n got %q (%v)\nwant %q", tc.query, got, err, tc.want)
			}
		})
	}
}

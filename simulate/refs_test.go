package simulate

import (
	"testing"

	"github.com/bucketlint/bucketlint/parser/sql"
	"github.com/bucketlint/bucketlint/plan"
)

// simulateSQL simulates the one query of src over its tables.
func simulateSQL(t *testing.T, src string) *Result {
	t.Helper()
	p, err := sql.New()
	if err != nil {
		t.Fatal(err)
	}
	pf, errs := p.ParseFile("q.sql", []byte(src))
	if len(errs) > 0 || len(pf.Queries) != 1 {
		t.Fatalf("parse: %v (%d queries)", errs, len(pf.Queries))
	}
	tables := map[string]*plan.Table{}
	for _, tb := range pf.Tables {
		tables[tb.Name] = tb
	}
	res, err := Simulate(tables, pf.Queries[0], Options{SparkVersion: Version{3, 5, -1}})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// scanOutputs returns each scanned table's output columns, by table.
func scanOutputs(res *Result) map[string]string {
	out := map[string]string{}
	plan.WalkAll(res.Plan, func(n plan.Node) bool {
		if fs, ok := n.(*plan.FileScan); ok {
			out[fs.Table] = exprsText(fs.Output)
		}
		return true
	})
	return out
}

// TestColumnPruningFromTrees: a scan reads the columns the query's trees reference; words
// that are not columns (a DATE literal's keyword, a function or type name equal to a column
// name) read nothing.
func TestColumnPruningFromTrees(t *testing.T) {
	t.Parallel()
	res := simulateSQL(t, `
CREATE TABLE t (id BIGINT, date DATE, upper STRING, string STRING, k INT) USING parquet;
SELECT upper(CAST(k AS string)) FROM t WHERE id > 0 AND k < DATE '2024-01-01';`)
	if got := scanOutputs(res)["t"]; got != "id, k" {
		t.Errorf("scan of t reads %q, want id, k", got)
	}
}

// TestSelectItemsFromTrees: an alias without AS renames a column (it keeps its attribute).
func TestSelectItemsFromTrees(t *testing.T) {
	t.Parallel()
	res := simulateSQL(t, whereDDL+`
SELECT x.acct, count(*) AS n
FROM (SELECT account_id acct, txn_id txn FROM finance.transactions) x
GROUP BY x.acct;`)
	if res.Exchanges != 0 {
		t.Errorf("%d exchanges, want 0: the subquery's acct is the bucket column, renamed", res.Exchanges)
	}
}

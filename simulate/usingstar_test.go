package simulate

import (
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/parser/sql"
	"github.com/bucketlint/bucketlint/plan"
)

const usingDDL = `
CREATE TABLE finance.transactions (txn_id BIGINT, account_id BIGINT, amount DECIMAL(18,2), day DATE)
USING parquet PARTITIONED BY (day) CLUSTERED BY (account_id) INTO 16 BUCKETS;
CREATE TABLE finance.accounts (account_id BIGINT, status STRING, credit_limit DECIMAL(18,2))
USING parquet CLUSTERED BY (account_id) INTO 16 BUCKETS;
CREATE TABLE finance.daily_balances (account_id BIGINT, day DATE, txn_count BIGINT, net_amount DECIMAL(28,2), closing_balance DECIMAL(28,2))
USING parquet CLUSTERED BY (account_id) INTO 64 BUCKETS;
`

// TestStarOverUsingJoin: "*" over a USING or NATURAL join lists the join columns once, first,
// from the side Spark takes them from, then each side's other columns. The wanted columns
// (table.column, the table whose scan reads the column) are Spark 3.5.9's: the analyzed plan's
// top Project of spark.sql(query) over the same DDL (pyspark 3.5.9, local[1], in-memory
// catalog), its expression ids mapped to the tables they belong to.
func TestStarOverUsingJoin(t *testing.T) {
	t.Parallel()
	const (
		tx = "transactions."
		ac = "accounts."
		db = "daily_balances."
	)
	for _, c := range []struct {
		query string
		want  []string
	}{
		{
			"SELECT * FROM finance.transactions t JOIN finance.accounts a USING (account_id)",
			[]string{tx + "account_id", tx + "txn_id", tx + "amount", tx + "day", ac + "status", ac + "credit_limit"},
		},
		{
			"SELECT * FROM finance.transactions t LEFT JOIN finance.accounts a USING (account_id)",
			[]string{tx + "account_id", tx + "txn_id", tx + "amount", tx + "day", ac + "status", ac + "credit_limit"},
		},
		{
			"SELECT * FROM finance.transactions t RIGHT JOIN finance.accounts a USING (account_id)",
			[]string{ac + "account_id", tx + "txn_id", tx + "amount", tx + "day", ac + "status", ac + "credit_limit"},
		},
		{
			"SELECT * FROM finance.transactions t LEFT SEMI JOIN finance.accounts a USING (account_id)",
			[]string{tx + "account_id", tx + "txn_id", tx + "amount", tx + "day"},
		},
		{
			"SELECT * FROM finance.transactions t NATURAL JOIN finance.daily_balances b",
			[]string{tx + "account_id", tx + "day", tx + "txn_id", tx + "amount", db + "txn_count", db + "net_amount", db + "closing_balance"},
		},
		{
			"SELECT * FROM finance.transactions t JOIN finance.daily_balances b USING (day, account_id)",
			[]string{tx + "day", tx + "account_id", tx + "txn_id", tx + "amount", db + "txn_count", db + "net_amount", db + "closing_balance"},
		},
		{
			"SELECT * FROM finance.transactions t JOIN finance.accounts a USING (account_id) JOIN finance.daily_balances b USING (account_id)",
			[]string{
				tx + "account_id", tx + "txn_id", tx + "amount", tx + "day", ac + "status", ac + "credit_limit",
				db + "day", db + "txn_count", db + "net_amount", db + "closing_balance",
			},
		},
		{
			"SELECT * FROM finance.transactions t JOIN finance.accounts a ON t.account_id = a.account_id JOIN finance.daily_balances b USING (day)",
			[]string{
				tx + "day", tx + "txn_id", tx + "account_id", tx + "amount", ac + "account_id", ac + "status", ac + "credit_limit",
				db + "account_id", db + "txn_count", db + "net_amount", db + "closing_balance",
			},
		},
		{
			"SELECT *, a.account_id FROM finance.transactions t RIGHT JOIN finance.accounts a USING (account_id)",
			[]string{ac + "account_id", tx + "txn_id", tx + "amount", tx + "day", ac + "status", ac + "credit_limit", ac + "account_id"},
		},
		{
			// bucketlint verify's query 3 of fixtures/examples/transactions-accounts: f2's
			// grouping columns keep the ids of transactions' columns, in Spark as here.
			"SELECT * FROM (SELECT account_id, day FROM finance.transactions txns JOIN finance.accounts accounts USING (account_id) GROUP BY account_id, day) f2 LEFT JOIN finance.daily_balances previous USING (account_id)",
			[]string{tx + "account_id", tx + "day", db + "day", db + "txn_count", db + "net_amount", db + "closing_balance"},
		},
	} {
		if got := starOutput(t, c.query); strings.Join(got, " ") != strings.Join(c.want, " ") {
			t.Errorf("%s\n got %v\nwant %v", c.query, got, c.want)
		}
	}
}

// starOutput simulates query over usingDDL and returns the columns of the plan's top
// Project as table.column, the table whose scan outputs the column ("?." for one no scan
// outputs).
func starOutput(t *testing.T, query string) []string {
	t.Helper()
	p, err := sql.New()
	if err != nil {
		t.Fatal(err)
	}
	pf, _ := p.ParseFile("q.sql", []byte(usingDDL+query+";"))
	tables := map[string]*plan.Table{}
	for _, tb := range pf.Tables {
		tables[tb.Name] = tb
	}
	if len(pf.Queries) != 1 {
		t.Fatalf("%d queries parsed", len(pf.Queries))
	}
	res, err := Simulate(tables, pf.Queries[0], Options{SparkVersion: Version{3, 5, -1}})
	if err != nil {
		t.Fatal(err)
	}
	owner := map[string]string{}
	var top *plan.ProjectExec
	plan.WalkAll(res.Plan, func(n plan.Node) bool {
		switch x := n.(type) {
		case *plan.FileScan:
			for _, e := range x.Output {
				owner[e.Raw] = plan.NameTail(x.Table) + "."
			}
		case *plan.ProjectExec:
			if top == nil {
				top = x
			}
		}
		return true
	})
	if top == nil {
		t.Errorf("%s: no Project above the join", query)
		return nil
	}
	var out []string
	for _, e := range top.Exprs {
		name, _, _ := strings.Cut(e.Raw, "#")
		rel, ok := owner[e.Raw]
		if !ok {
			rel = "?."
		}
		out = append(out, rel+name)
	}
	return out
}

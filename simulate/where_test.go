package simulate

import (
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/parser/sql"
	"github.com/bucketlint/bucketlint/plan"
)

const whereDDL = `
CREATE TABLE finance.transactions (txn_id BIGINT, account_id BIGINT, amount DECIMAL(18,2), day DATE)
USING parquet PARTITIONED BY (day) CLUSTERED BY (account_id) INTO 16 BUCKETS;
CREATE TABLE finance.accounts (account_id BIGINT, status STRING, credit_limit DECIMAL(18,2))
USING parquet CLUSTERED BY (account_id) INTO 16 BUCKETS;
`

// whereFilters simulates query over whereDDL and returns, per scanned table, the condition of
// the Filter directly above its scan ("" when none) and its partition and data filters, and
// the conditions of the Filters that are not directly above a scan.
func whereFilters(t *testing.T, query string) (scanFilter map[string]string, part, data map[string][]string, others []string) {
	t.Helper()
	p, err := sql.New()
	if err != nil {
		t.Fatal(err)
	}
	pf, _ := p.ParseFile("q.sql", []byte(whereDDL+query))
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
	scanFilter, part, data = map[string]string{}, map[string][]string{}, map[string][]string{}
	plan.WalkAll(res.Plan, func(n plan.Node) bool {
		switch x := n.(type) {
		case *plan.FileScan:
			scanFilter[x.Table] += ""
			part[x.Table], data[x.Table] = plan.Texts(x.PartitionFilters), plan.Texts(x.DataFilters)
		case *plan.Filter:
			if fs, ok := x.Kids[0].(*plan.FileScan); ok {
				scanFilter[fs.Table] = x.Condition.Text()
			} else {
				others = append(others, x.Condition.Text())
			}
		}
		return true
	})
	return scanFilter, part, data, others
}

// TestWhereConjunctsReachTheirScans: every WHERE conjunct on one relation is in a Filter
// above that relation's scan (and in its data filters), conditions on partition columns are
// partition filters, and conditions spanning relations or on the null-supplying side of an
// outer join stay above the join.
func TestWhereConjunctsReachTheirScans(t *testing.T) {
	t.Parallel()
	// fixtures/examples/transactions-accounts/jobs/daily_balances.sql
	scan, part, data, others := whereFilters(t, `
SELECT t.account_id, t.day, count(*) AS txn_count, sum(t.amount) AS net_amount
FROM finance.transactions t
JOIN finance.accounts a ON t.account_id = a.account_id
WHERE t.day = DATE'2024-06-30'
  AND a.status <> 'CLOSED'
  AND t.amount > a.credit_limit
  AND t.amount >= 10
GROUP BY t.account_id, t.day;`)
	if got := scan["finance.accounts"]; got != "status <> 'CLOSED'" {
		t.Errorf("Filter above the accounts scan is %q, want status <> 'CLOSED'", got)
	}
	if got := data["finance.accounts"]; len(got) != 1 || got[0] != "status <> 'CLOSED'" {
		t.Errorf("accounts data filters %q", got)
	}
	if got := scan["finance.transactions"]; got != "amount >= 10" {
		t.Errorf("Filter above the transactions scan is %q, want amount >= 10", got)
	}
	if got := part["finance.transactions"]; len(got) != 1 || got[0] != "day = DATE'2024-06-30'" {
		t.Errorf("transactions partition filters %q, want [day = DATE'2024-06-30']", got)
	}
	if len(others) != 1 || others[0] != "t.amount > a.credit_limit" {
		t.Errorf("Filters above the join %q, want [t.amount > a.credit_limit]", others)
	}

	// A LEFT JOIN's right side is null-supplying: its WHERE conditions stay above the join
	// unless they turn it into an inner join; the left side's go to its scan.
	scan, _, _, others = whereFilters(t, `
SELECT t.account_id, a.status
FROM finance.transactions t
LEFT JOIN finance.accounts a ON t.account_id = a.account_id
WHERE a.status IS NULL AND t.amount < 0;`)
	if got := scan["finance.transactions"]; got != "amount < 0" {
		t.Errorf("LEFT JOIN: Filter above the transactions scan is %q, want amount < 0", got)
	}
	if got := scan["finance.accounts"]; got != "" {
		t.Errorf("LEFT JOIN: the null-supplying side's scan is filtered by %q", got)
	}
	if len(others) != 1 || !strings.Contains(others[0], "a.status IS NULL") {
		t.Errorf("LEFT JOIN: Filters above the join %q, want [a.status IS NULL]", others)
	}

	// Bare column names are placed by the tables' schemas; a key filter stays a data filter.
	scan, _, data, _ = whereFilters(t, `
SELECT count(*) FROM finance.accounts WHERE account_id = 7 AND status LIKE 'A%';`)
	if got := scan["finance.accounts"]; got != "account_id = 7 AND status LIKE 'A%'" {
		t.Errorf("single table: Filter above the scan is %q", got)
	}
	if got := data["finance.accounts"]; len(got) != 2 {
		t.Errorf("single table: data filters %q", got)
	}
}

// TestOnConjunctsReachTheirScans: conjuncts of an ON condition on one relation filter its
// scan where Spark pushes them (both sides of an inner join, the null-supplying side of an
// outer join) and stay in the join condition otherwise; BETWEEN … AND … is one conjunct.
func TestOnConjunctsReachTheirScans(t *testing.T) {
	t.Parallel()
	scan, part, _, others := whereFilters(t, `
SELECT t.txn_id, a.status
FROM finance.transactions t
JOIN finance.accounts a ON t.account_id = a.account_id AND a.status <> 'CLOSED' AND t.day BETWEEN DATE'2024-06-01' AND DATE'2024-06-30'
WHERE t.amount BETWEEN 1 AND 10;`)
	if got := scan["finance.accounts"]; got != "status <> 'CLOSED'" {
		t.Errorf("inner join: Filter above the accounts scan is %q", got)
	}
	if got := scan["finance.transactions"]; got != "amount BETWEEN 1 AND 10" {
		t.Errorf("inner join: Filter above the transactions scan is %q", got)
	}
	if got := part["finance.transactions"]; len(got) != 1 || got[0] != "day BETWEEN DATE'2024-06-01' AND DATE'2024-06-30'" {
		t.Errorf("inner join: transactions partition filters %q", got)
	}
	if len(others) != 0 {
		t.Errorf("inner join: Filters above the join %q", others)
	}

	scan, _, _, _ = whereFilters(t, `
SELECT t.txn_id, a.status
FROM finance.transactions t
LEFT JOIN finance.accounts a ON t.account_id = a.account_id AND a.status <> 'CLOSED' AND t.amount > 0;`)
	if got := scan["finance.accounts"]; got != "status <> 'CLOSED'" {
		t.Errorf("left join: Filter above the accounts scan is %q", got)
	}
	if got := scan["finance.transactions"]; got != "" {
		t.Errorf("left join: the preserved side's scan is filtered by %q, an ON condition", got)
	}
}

// TestConjunctsFromTrees: conjuncts are read from the WHERE tree, so a parenthesised group
// of conjuncts splits as Spark's splitConjunctivePredicates splits it, function names and
// type names are not mistaken for columns of a relation whose schema is unknown, and a
// subquery keeps its conjunct above the join.
func TestConjunctsFromTrees(t *testing.T) {
	t.Parallel()
	scan, _, _, others := whereFilters(t, `
SELECT t.txn_id
FROM finance.transactions t
JOIN (SELECT account_id FROM finance.accounts) a ON t.account_id = a.account_id
WHERE (t.amount > 1 AND upper(CAST(t.txn_id AS string)) = 'X')
  AND t.account_id IN (SELECT account_id FROM finance.accounts WHERE status = 'OPEN');`)
	if got := scan["finance.transactions"]; got != "amount > 1 AND upper(CAST(txn_id AS string)) = 'X'" {
		t.Errorf("Filter above the transactions scan is %q", got)
	}
	if len(others) != 1 || !strings.Contains(others[0], "IN (SELECT") {
		t.Errorf("Filters above the join %q, want the IN subquery", others)
	}
}

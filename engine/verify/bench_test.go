//go:build engine

package verify

import (
	"context"
	"testing"
)

const benchDDL = `CREATE TABLE finance.transactions (txn_id BIGINT, account_id BIGINT, amount DECIMAL(18,2), day DATE)
USING parquet CLUSTERED BY (account_id) INTO 64 BUCKETS;
CREATE TABLE finance.accounts (account_id INT, status STRING) USING parquet CLUSTERED BY (account_id) INTO 16 BUCKETS;
SELECT t.account_id, count(*) AS txn_count, sum(t.amount) AS net
FROM finance.transactions t JOIN finance.accounts a ON t.account_id = a.account_id
WHERE a.status <> 'CLOSED' GROUP BY t.account_id;
`

// BenchmarkVerify10M verifies the transactions ⋈ accounts advice on 10 million rows (9M
// transactions, 1M accounts): generating, writing both layouts, and running both plans.
// It reports the query times before and after as extra metrics.
func BenchmarkVerify10M(b *testing.B) {
	if testing.Short() {
		b.Skip("10 million rows")
	}
	tabs, w := workload(b, benchDDL)
	sc := FromAdvice(tabs, w, adviseFor(b, tabs, w))
	if len(sc) != 1 {
		b.Fatalf("%d scenarios", len(sc))
	}
	sc[0].Data = map[string]TableData{
		"finance.transactions": {Rows: 9_000_000, Columns: map[string]ColumnGen{"account_id": {Cardinality: 1_000_000}, "day": {Cardinality: 30}}},
		"finance.accounts":     {Rows: 1_000_000, Columns: map[string]ColumnGen{"status": {Cardinality: 3}}},
	}
	for b.Loop() {
		res, err := Run(context.Background(), sc, Options{Seed: 1, Sim: simOptions(b), TempRoot: b.TempDir()})
		if err != nil {
			b.Fatal(err)
		}
		r := res[0]
		if !r.Reproduced() {
			b.Fatalf("did not reproduce: %+v", r)
		}
		b.ReportMetric(float64(r.Before.Duration.Milliseconds()), "before-ms")
		b.ReportMetric(float64(r.After.Duration.Milliseconds()), "after-ms")
		b.ReportMetric(float64(r.Before.ShuffledRows), "shuffled-rows-before")
	}
}

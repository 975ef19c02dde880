package sql

import (
	"strings"
	"testing"
)

// BenchmarkParseDDL parses a file of bucketed CREATE TABLE statements and a join query.
func BenchmarkParseDDL(b *testing.B) {
	p, err := New()
	if err != nil {
		b.Fatal(err)
	}
	var sb strings.Builder
	for i := 0; i < 50; i++ {
		sb.WriteString(`CREATE TABLE IF NOT EXISTS sales.orders (
  id BIGINT COMMENT 'order id', cust_id INT, amt DECIMAL(10, 2), tags ARRAY<STRING>, dt STRING)
USING parquet PARTITIONED BY (dt) CLUSTERED BY (cust_id) SORTED BY (cust_id) INTO 16 BUCKETS
TBLPROPERTIES ('owner' = 'bi');
SELECT /*+ MERGE(o) */ o.cust_id, sum(o.amt) FROM sales.orders o JOIN sales.customers c
  ON o.cust_id = CAST(c.id AS INT) WHERE o.dt = '2024-01-01' GROUP BY o.cust_id;
`)
	}
	src := []byte(sb.String())
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, errs := p.ParseFile("bench.sql", src); len(errs) > 0 {
			b.Fatal(errs)
		}
	}
}

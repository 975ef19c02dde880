package sql

import (
	"fmt"
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/internal/cputime"
)

// loopCPU runs parse b.N times and reports, besides the wall-clock figures, the bytes parsed
// per CPU-second of the whole process (the collector's work included), which a loaded
// machine distorts far less than wall-clock time.
func loopCPU(b *testing.B, n int, parse func()) {
	b.Helper()
	b.SetBytes(int64(n))
	b.ReportAllocs()
	cpu0 := cputime.Process()
	for b.Loop() {
		parse()
	}
	if cpu := (cputime.Process() - cpu0).Seconds(); cpu > 0 {
		b.ReportMetric(float64(n)*float64(b.N)/cpu/1e6, "MB/cpu-s")
	}
}

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
	loopCPU(b, len(src), func() {
		if _, errs := p.ParseFile("bench.sql", src); len(errs) > 0 {
			b.Fatal(errs)
		}
	})
}

// benchShapes are adversarial inputs of about 1 MB each: one SELECT line of 100,000 items,
// a CREATE TABLE of 40,000 columns, a join query repeated, and nesting just below the limit.
func benchShapes() map[string][]byte {
	var wide, cols, joins, deep strings.Builder
	wide.WriteString("SELECT ")
	for i := range 100000 {
		if i > 0 {
			wide.WriteString(", ")
		}
		fmt.Fprintf(&wide, "c%d", i)
	}
	wide.WriteString(" FROM t")
	cols.WriteString("CREATE TABLE t (")
	for i := range 40000 {
		if i > 0 {
			cols.WriteString(", ")
		}
		fmt.Fprintf(&cols, "c%d INT", i)
	}
	cols.WriteString(") USING parquet CLUSTERED BY (c1) INTO 8 BUCKETS")
	for joins.Len() < 1<<20 {
		joins.WriteString("SELECT o.k, sum(o.v * 2) AS s FROM a.orders o JOIN a.customers c ON o.k = c.k AND o.d BETWEEN '2024-01-01' AND '2024-02-01' WHERE c.seg IN ('x', 'y') GROUP BY o.k;\n")
	}
	for deep.Len() < 1<<20 {
		deep.WriteString("SELECT " + strings.Repeat("(", maxNesting-1) + "a + 1" + strings.Repeat(")", maxNesting-1) + " FROM t;\n")
	}
	return map[string][]byte{
		"wide_select": []byte(wide.String()), "many_columns": []byte(cols.String()),
		"join_queries": []byte(joins.String()), "deep_nesting": []byte(deep.String()),
	}
}

// BenchmarkParseShapes parses each adversarial shape (SetBytes: MB/s is per core with -cpu 1).
func BenchmarkParseShapes(b *testing.B) {
	p, err := New()
	if err != nil {
		b.Fatal(err)
	}
	for name, src := range benchShapes() {
		b.Run(name, func(b *testing.B) {
			loopCPU(b, len(src), func() {
				if _, errs := p.ParseFile("bench.sql", src); len(errs) > 0 {
					b.Fatal(errs[0])
				}
			})
		})
	}
}

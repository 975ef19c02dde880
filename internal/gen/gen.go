// Package gen builds generated workloads for tests and benchmarks: tables and queries parsed
// from SQL written by a seeded random generator, the same on every run.
package gen

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/parser/sql"
	"github.com/bucketlint/bucketlint/plan"
)

// Workload builds 20 tables (some bucketed, sizes from KiB to TiB) and n queries: two- and
// three-way joins on random keys, aggregations, windows and unions.
func Workload(tb testing.TB, n int) (map[string]*plan.Table, []*plan.Query) {
	tb.Helper()
	p, err := sql.New()
	if err != nil {
		tb.Fatal(err)
	}
	f, errs := p.ParseFile("ddl.sql", []byte(WorkloadSQL(n)))
	if len(errs) > 0 {
		tb.Fatal(errs)
	}
	tables := map[string]*plan.Table{}
	for i, t := range f.Tables {
		t.SizeInBytes = int64(1) << (10 + 2*(i%16))
		tables[t.Name] = t
	}
	if len(f.Queries) != n {
		tb.Fatalf("generated %d queries, want %d", len(f.Queries), n)
	}
	return tables, f.Queries
}

// WorkloadSQL is the text Workload parses: the 20 CREATE TABLE statements, then n queries
// (about 115 bytes each), one a line.
func WorkloadSQL(n int) string {
	r := rand.New(rand.NewSource(1))
	var ddl strings.Builder
	cols := []string{"id", "k1", "k2", "k3", "v"}
	for i := 0; i < 20; i++ {
		fmt.Fprintf(&ddl, "CREATE TABLE t%d (id BIGINT, k1 INT, k2 INT, k3 STRING, v DOUBLE) USING parquet", i)
		if i%3 != 0 {
			fmt.Fprintf(&ddl, " CLUSTERED BY (%s) INTO %d BUCKETS", cols[r.Intn(3)], []int{4, 8, 16, 32, 64}[r.Intn(5)])
		}
		ddl.WriteString(";\n")
	}
	qs := &ddl
	for i := 0; i < n; i++ {
		a, b, c := r.Intn(20), r.Intn(20), r.Intn(20)
		k := cols[r.Intn(3)]
		switch i % 5 {
		case 0:
			fmt.Fprintf(qs, "SELECT * FROM t%d x JOIN t%d y ON x.%s = y.%s;\n", a, b, k, k)
		case 1:
			fmt.Fprintf(qs, "SELECT x.%s, count(*) FROM t%d x JOIN t%d y ON x.%s = y.%s AND x.k2 = y.k2 GROUP BY x.%s;\n", k, a, b, k, k, k)
		case 2:
			fmt.Fprintf(qs, "SELECT * FROM t%d x JOIN t%d y ON x.id = y.id JOIN t%d z ON y.id = z.id;\n", a, b, c)
		case 3:
			fmt.Fprintf(qs, "SELECT %s, sum(v) OVER (PARTITION BY %s ORDER BY v) FROM t%d;\n", k, k, a)
		default:
			fmt.Fprintf(qs, "SELECT %s, count(*) FROM (SELECT %s FROM t%d UNION ALL SELECT %s FROM t%d) u GROUP BY %s;\n", k, k, a, k, b, k)
		}
	}
	return ddl.String()
}

// A ChainShape says which earlier table each table of JoinChain joins to.
type ChainShape int

const (
	// ChainNext joins each table to the one before it: t0.id = t1.id, t1.id = t2.id, ….
	ChainNext ChainShape = iota
	// ChainFirst joins each table to the first: t0.id = t1.id, t0.id = t2.id, ….
	ChainFirst
)

// JoinChain builds n+1 tables t0…tn (each bucketed by id into 8 buckets when bucketed) and
// one query joining them all in a left-deep chain of n inner joins on id, linked as shape says.
func JoinChain(tb testing.TB, n int, bucketed bool, shape ChainShape) (map[string]*plan.Table, *plan.Query) {
	tb.Helper()
	var src strings.Builder
	for i := 0; i <= n; i++ {
		fmt.Fprintf(&src, "CREATE TABLE t%d (id BIGINT, v INT) USING parquet", i)
		if bucketed {
			src.WriteString(" CLUSTERED BY (id) INTO 8 BUCKETS")
		}
		src.WriteString(";\n")
	}
	src.WriteString("SELECT * FROM t0")
	for i := 1; i <= n; i++ {
		left := i - 1
		if shape == ChainFirst {
			left = 0
		}
		fmt.Fprintf(&src, "\n JOIN t%d ON t%d.id = t%d.id", i, left, i)
	}
	src.WriteString(";\n")
	p, err := sql.New()
	if err != nil {
		tb.Fatal(err)
	}
	f, errs := p.ParseFile("chain.sql", []byte(src.String()))
	if len(errs) > 0 {
		tb.Fatal(errs)
	}
	if len(f.Queries) != 1 {
		tb.Fatalf("generated %d queries, want 1", len(f.Queries))
	}
	tables := map[string]*plan.Table{}
	for _, t := range f.Tables {
		t.SizeInBytes = 1 << 30
		tables[t.Name] = t
	}
	return tables, f.Queries[0]
}

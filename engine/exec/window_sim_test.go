//go:build engine

package exec

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/engine/hash"
	"github.com/bucketlint/bucketlint/engine/store"
	"github.com/bucketlint/bucketlint/parser/sql"
	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
)

// A winItem is one window function of a simulated query and how the naive reference
// computes it: over rows of the relation the query reads (columns as the naive relation
// holds them), partitioned by keys, ordered by ord (-1: no ORDER BY).
type winItem struct {
	fn    string
	arg   int
	whole bool
}

// TestSimulatedWindowAggregates simulates SQL queries with windowed aggregates over bucketed
// tables, runs the predicted plans (bucketed: no Exchange; declared unbucketed: shuffled)
// and checks every window column against the naive reference. The data has NULL keys, order
// values and arguments, few order values (RANGE peers share a value), a skewed key, and
// buckets and shuffle partitions left empty by a key of three values and by a filter.
func TestSimulatedWindowAggregates(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cat := NewCatalog()
	rels := map[string]relation{}
	write := func(name string, g store.GenSpec) {
		data, err := store.Generate(g)
		if err != nil {
			t.Fatal(err)
		}
		tab, err := store.Write(context.Background(), dir+"/"+name, g.Schema(), data, bucketed(8, "account_id"), store.WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		cat.Add(name, tab)
		var cols []string
		for _, c := range g.Columns {
			cols = append(cols, c.Name)
		}
		rels[name] = relationOf(t, tab, cols)
	}
	// tx: a skewed key with NULLs; t has 6 values (ties); amount has NULLs.
	write("tx", store.GenSpec{Rows: 1000, Seed: 31, Columns: []store.GenColumn{
		{Name: "account_id", Type: typ(t, "bigint"), Cardinality: 80, Zipf: 1.6, NullFraction: 0.05},
		{Name: "t", Type: typ(t, "int"), Cardinality: 6, NullFraction: 0.1},
		{Name: "amount", Type: typ(t, "int"), Cardinality: 30, NullFraction: 0.2},
	}})
	// few: three keys in eight buckets, so most buckets are empty.
	write("few", store.GenSpec{Rows: 300, Seed: 32, Columns: []store.GenColumn{
		{Name: "account_id", Type: typ(t, "bigint"), Cardinality: 3, NullFraction: 0.05},
		{Name: "t", Type: typ(t, "int"), Cardinality: 4, NullFraction: 0.1},
		{Name: "amount", Type: typ(t, "double"), Cardinality: 9, NullFraction: 0.3},
	}})
	// acct: one row per key or so, joined to tx.
	write("acct", store.GenSpec{Rows: 90, Seed: 33, Columns: []store.GenColumn{
		{Name: "account_id", Type: typ(t, "bigint"), Cardinality: 80, NullFraction: 0.05},
		{Name: "credit", Type: typ(t, "int"), Cardinality: 12, NullFraction: 0.2},
	}})
	ddl := func(bucketedTables bool) string {
		var b strings.Builder
		for _, name := range []string{"tx", "few", "acct"} {
			tab, _ := cat.Lookup(name)
			b.WriteString("CREATE TABLE " + name + " (" + tab.Schema.String() + ") USING parquet")
			if bucketedTables {
				b.WriteString(" CLUSTERED BY (account_id) INTO 8 BUCKETS")
			}
			b.WriteString(";\n")
		}
		return b.String()
	}
	txJoin := naiveJoin("Inner", rels["tx"], rels["acct"], []int{0}, []int{0})
	for _, c := range []struct {
		name  string
		query string
		rel   relation
		// ord is the ORDER BY column of the running items, -1 for none; items follow the
		// select list's three leading columns (key, order column, argument).
		ord   int
		items []winItem
		// desc orders by ord descending, NULLs last (Spark's DESC default); nullsLast
		// orders ascending with NULLs last.
		desc, nullsLast bool
	}{
		{
			"whole_partition",
			"SELECT account_id, t, amount, sum(amount) OVER (PARTITION BY account_id) AS total, count(*) OVER (PARTITION BY account_id) n, " +
				"count(amount) OVER (PARTITION BY account_id) AS na, min(amount) OVER (PARTITION BY account_id) lo, " +
				"max(amount) OVER (PARTITION BY account_id) hi, avg(amount) OVER (PARTITION BY account_id) mean FROM tx",
			rels["tx"], -1,
			[]winItem{{"sum", 2, true}, {"count", -1, true}, {"count", 2, true}, {"min", 2, true}, {"max", 2, true}, {"avg", 2, true}},
			false, false,
		},
		{
			"running_range_with_ties",
			"SELECT account_id, t, amount, sum(amount) OVER (PARTITION BY account_id ORDER BY t), count(1) OVER (PARTITION BY account_id ORDER BY t) AS n, " +
				"min(amount) OVER (PARTITION BY account_id ORDER BY t) lo, max(amount) OVER (PARTITION BY account_id ORDER BY t) AS hi, " +
				"avg(amount) OVER (PARTITION BY account_id ORDER BY t) AS mean, rank() OVER (PARTITION BY account_id ORDER BY t) AS r, " +
				"dense_rank() OVER (PARTITION BY account_id ORDER BY t) dr, row_number() OVER (PARTITION BY account_id ORDER BY t) AS rn FROM tx",
			rels["tx"], 1,
			[]winItem{{"sum", 2, false}, {"count", -1, false}, {"min", 2, false}, {"max", 2, false}, {"avg", 2, false}, {"rank", -1, false}, {"dense_rank", -1, false}, {"row_number", -1, false}},
			false, false,
		},
		{
			"explicit_whole_frame_with_order",
			"SELECT account_id, t, amount, sum(amount) OVER (PARTITION BY account_id ORDER BY t ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS s, " +
				"max(amount) OVER (PARTITION BY account_id ORDER BY t RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS m FROM tx",
			rels["tx"], 1,
			[]winItem{{"sum", 2, true}, {"max", 2, false}},
			false, false,
		},
		{
			"descending_order_nulls_last",
			"SELECT account_id, t, amount, sum(amount) OVER (PARTITION BY account_id ORDER BY t DESC) AS s, min(amount) OVER (PARTITION BY account_id ORDER BY t DESC) AS lo, " +
				"rank() OVER (PARTITION BY account_id ORDER BY t DESC) AS r FROM tx",
			rels["tx"], 1,
			[]winItem{{"sum", 2, false}, {"min", 2, false}, {"rank", -1, false}},
			true, false,
		},
		{
			"ascending_order_nulls_last",
			"SELECT account_id, t, amount, count(amount) OVER (PARTITION BY account_id ORDER BY t NULLS LAST) AS n, dense_rank() OVER (PARTITION BY account_id ORDER BY t NULLS LAST) AS dr FROM tx",
			rels["tx"], 1,
			[]winItem{{"count", 2, false}, {"dense_rank", -1, false}},
			false, true,
		},
		{
			"empty_buckets_and_a_filter",
			"SELECT account_id, t, amount, avg(amount) OVER (PARTITION BY account_id ORDER BY t) AS a, sum(amount) OVER (PARTITION BY account_id) AS s FROM few WHERE t > 1",
			filterRows(rels["few"], func(r []cell) bool { return !r[1].null && r[1].i > 1 }), 1,
			[]winItem{{"avg", 2, false}, {"sum", 2, true}},
			false, false,
		},
		{
			"window_over_a_bucketed_join",
			"SELECT tx.account_id, tx.t, acct.credit, sum(acct.credit) OVER (PARTITION BY tx.account_id ORDER BY tx.t) AS s FROM tx JOIN acct ON tx.account_id = acct.account_id",
			relation{types: []hash.Type{txJoin.types[0], txJoin.types[1], txJoin.types[4]}, rows: pickCells(txJoin.rows, 0, 1, 4)},
			1,
			[]winItem{{"sum", 2, false}},
			false, false,
		},
	} {
		for _, bucketedTables := range []bool{true, false} {
			name := c.name + map[bool]string{true: "/bucketed", false: "/shuffled"}[bucketedTables]
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				root, exchanges := simulatePlan(t, ddl(bucketedTables)+c.query+";\n")
				if bucketedTables != (exchanges == 0) {
					t.Fatalf("simulate predicts %d exchanges", exchanges)
				}
				res := run(t, root, cat)
				if len(res.Schema) != 3+len(c.items) {
					t.Fatalf("schema %v, want %d columns", res.Schema, 3+len(c.items))
				}
				if res.Stats.Exchanges != exchanges {
					t.Fatalf("ran %d exchanges, simulate predicted %d", res.Stats.Exchanges, exchanges)
				}
				for i, it := range c.items {
					order := cellOrder(itemOrderColumn(it, c.ord), c.desc, c.nullsLast)
					want := projected(append(slices.Clone(c.rel.types), res.Schema[3+i].Type),
						naiveWindowBy(c.rel, []int{0}, order, it.fn, it.arg, it.whole), []int{0, 1, 3})
					got := resultProjected(res, []int{0, 1, 3 + i})
					if !slices.Equal(got, want) {
						t.Fatalf("%s (%s): %d rows, naive %d; first difference %s", res.Schema[3+i].Name, it.fn, len(got), len(want), firstDiff(got, want))
					}
				}
			})
		}
	}
}

// itemOrderColumn is the ORDER BY column item it is computed over: the query's (ord), or
// none (-1) for an aggregate over the whole partition; ranking functions always order.
func itemOrderColumn(it winItem, ord int) int {
	if it.whole && it.fn != "row_number" && it.fn != "rank" && it.fn != "dense_rank" {
		return -1
	}
	return ord
}

// cellOrder compares rows by column ord as a window's ORDER BY does: ascending NULLs first,
// descending NULLs last (desc) or ascending NULLs last (nullsLast); every row ties when ord
// is negative (no ORDER BY).
func cellOrder(ord int, desc, nullsLast bool) func(a, b []cell) int {
	return func(a, b []cell) int {
		switch {
		case ord < 0:
			return 0
		case desc:
			return -cmpCell(a[ord], b[ord])
		case nullsLast && a[ord].null != b[ord].null:
			return -cmpCell(a[ord], b[ord])
		}
		return cmpCell(a[ord], b[ord])
	}
}

// simulatePlan parses DDL and one query and returns the plan Spark 3.5 is predicted to run,
// with AQE and broadcasts off and 7 shuffle partitions, and its Exchange count.
func simulatePlan(t *testing.T, src string) (plan.Node, int) {
	t.Helper()
	p, err := sql.New()
	if err != nil {
		t.Fatal(err)
	}
	f, errs := p.ParseFile("q.sql", []byte(src))
	if len(errs) > 0 || len(f.Queries) != 1 {
		t.Fatalf("parse: %v", errs)
	}
	decl := map[string]*plan.Table{}
	for _, tb := range f.Tables {
		decl[tb.Name] = tb
	}
	v, _ := simulate.ParseVersion("3.5")
	res, err := simulate.Simulate(decl, f.Queries[0], simulate.Options{SparkVersion: v, Confs: map[string]string{
		"spark.sql.autoBroadcastJoinThreshold": "-1", "spark.sql.adaptive.enabled": "false", "spark.sql.shuffle.partitions": "7",
	}})
	if err != nil {
		t.Fatal(err)
	}
	return res.Plan, res.Exchanges
}

// pickCells keeps the given columns of rows.
func pickCells(rows [][]cell, cols ...int) [][]cell {
	out := make([][]cell, len(rows))
	for i, r := range rows {
		for _, c := range cols {
			out[i] = append(out[i], r[c])
		}
	}
	return out
}

// TestSimulatedWindowUnsupportedIsAClearError runs simulated window queries the engine does
// not evaluate: each must fail naming the operator and the expression, never return rows.
func TestSimulatedWindowUnsupportedIsAClearError(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 34, 60, 10, bucketed(4, "k"), store.Layout{})
	const ddl = "CREATE TABLE a (k BIGINT, a STRING, x INT) USING parquet CLUSTERED BY (k) INTO 4 BUCKETS;\n"
	for _, c := range []struct{ query, want string }{
		{"SELECT k, sum(x) OVER (PARTITION BY k ORDER BY x ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS s FROM a", "specifiedwindowframe(RowFrame, -2, currentrow$())"},
		{"SELECT k, sum(x) OVER (PARTITION BY k ORDER BY x ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS s FROM a", "only the whole window partition or RANGE"},
		{"SELECT k, avg(x) OVER (PARTITION BY k ORDER BY x RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) AS s FROM a", "only frames from UNBOUNDED PRECEDING"},
		{"SELECT k, lag(x) OVER (PARTITION BY k ORDER BY x) AS l FROM a", "unknown function"},
		{"SELECT k, count(DISTINCT x) OVER (PARTITION BY k) AS n FROM a", "DISTINCT"},
		{"SELECT k, sum(x + 1) OVER (PARTITION BY k) AS s FROM a", "sum(x + 1)"},
		{"SELECT k, sum(x) OVER (PARTITION BY k) / 2 AS half FROM a", "half"},
	} {
		root, _ := simulatePlan(t, ddl+c.query+";\n")
		_, err := Execute(context.Background(), root, f.cat, Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want it to mention %q", c.query, err, c.want)
		}
	}
}

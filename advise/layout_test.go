package advise

import (
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/parser/code"
	"github.com/bucketlint/bucketlint/parser/sql"
	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
)

// financeDDL is fixtures/examples/transactions-accounts, trimmed.
const financeDDL = `
CREATE TABLE finance.transactions (txn_id BIGINT COMMENT 'ledger transaction id', account_id BIGINT, amount DECIMAL(18,2), day DATE)
USING parquet PARTITIONED BY (day) CLUSTERED BY (account_id) SORTED BY (account_id) INTO 256 BUCKETS;
CREATE TABLE finance.accounts (account_id INT COMMENT 'primary key', status STRING COMMENT 'OPEN, FROZEN, CLOSED (can\'t post when CLOSED)')
USING parquet CLUSTERED BY (account_id) INTO 64 BUCKETS;
CREATE TABLE finance.ledger_entries (entry_id BIGINT, txn_id BIGINT, account_id BIGINT, debit DECIMAL(18,2), credit DECIMAL(18,2), day DATE)
USING parquet PARTITIONED BY (day) CLUSTERED BY (account_id) SORTED BY (account_id) INTO 256 BUCKETS;
CREATE TABLE finance.branches (branch_id INT, name STRING) USING parquet;
CREATE TABLE finance.postings (txn_id BIGINT, account_id BIGINT, branch_id INT, day DATE) USING parquet PARTITIONED BY (day);
CREATE TABLE finance.entries (txn_id BIGINT, account_id BIGINT, day DATE) USING parquet PARTITIONED BY (day);
`

const (
	dailyBalances = `SELECT t.account_id, count(*) FROM finance.transactions t JOIN finance.accounts a ON t.account_id = a.account_id WHERE t.day = DATE'2024-06-30' AND a.status <> 'CLOSED' GROUP BY t.account_id`
	reconcile     = `SELECT t.txn_id, l.entry_id FROM finance.transactions t JOIN finance.ledger_entries l ON l.account_id = t.account_id AND l.day = t.day AND l.txn_id = t.txn_id`
)

func financeFixture(tb testing.TB, sizes map[string]int64, queries ...string) (map[string]*plan.Table, []WeightedQuery) {
	tb.Helper()
	p, err := sql.New()
	if err != nil {
		tb.Fatal(err)
	}
	f, errs := p.ParseFile("ddl.sql", []byte(financeDDL))
	if len(errs) > 0 {
		tb.Fatal(errs)
	}
	tables := map[string]*plan.Table{}
	for _, t := range f.Tables {
		t.SizeInBytes = -1
		if n, ok := sizes[t.Name]; ok {
			t.SizeInBytes = n
		}
		tables[t.Name] = t
	}
	var wl []WeightedQuery
	for _, q := range queries {
		qf, errs := p.ParseFile("q.sql", []byte(q))
		if len(errs) > 0 {
			tb.Fatal(errs)
		}
		wl = append(wl, WeightedQuery{Query: qf.Queries[0], Weight: 1})
	}
	return tables, wl
}

// checkFixes re-simulates every fix the advice claims and fails when the layout still
// shuffles under it.
func checkFixes(t *testing.T, recs []Recommendation) {
	t.Helper()
	for _, r := range recs {
		for _, f := range r.Fixes {
			after := outcome(r, f.Query)
			if after == nil {
				t.Fatalf("%s: no simulation of query %d", r.Table, f.Query)
			}
			if bad := fixedSides(after.Plan, f); bad != "" {
				t.Errorf("%s claims %s but the advised layout still shuffles: %s\n%s", r.Table, f, bad, dump(after))
			}
		}
	}
}

func byTable(recs []Recommendation) map[string]Recommendation {
	m := map[string]Recommendation{}
	for _, r := range recs {
		m[r.Table] = r
	}
	return m
}

// TestAdviseSmallestChange: transactions (2 TB, 256 buckets, BIGINT) ⋈ accounts (40 GB, 64
// buckets, INT): only accounts is rewritten, into 256 buckets with a BIGINT key; with sizes
// given and without them.
func TestAdviseSmallestChange(t *testing.T) {
	for _, sizes := range []map[string]int64{
		{"finance.transactions": 2 << 40, "finance.accounts": 40 << 30},
		nil,
	} {
		tables, wl := financeFixture(t, sizes, dailyBalances)
		recs := Advise(tables, wl, Options{Spark: simulate.Options{}, PowerOfTwo: true, Partitions: map[string]int{"finance.transactions": 730}})
		checkFixes(t, recs)
		m := byTable(recs)
		tr, ac := m["finance.transactions"], m["finance.accounts"]
		if !tr.Keep || tr.Bucket == nil || tr.Bucket.NumBuckets != 256 || tr.Code.SQL != "" {
			t.Errorf("sizes %v: transactions should keep its 256 buckets: %+v", sizes, tr)
		}
		if ac.Keep || ac.Bucket == nil || ac.Bucket.NumBuckets != 256 || ac.Bucket.Columns[0] != "account_id" || ac.CastColumns["account_id"] != "bigint" {
			t.Errorf("sizes %v: accounts should be rewritten into 256 buckets on account_id BIGINT: %+v", sizes, ac)
		}
		if ac.ShufflesRemoved != 1 || len(ac.Fixes) != 1 {
			t.Errorf("sizes %v: want the join's shuffle removed: %+v", sizes, ac)
		}
		if !strings.Contains(ac.Reason, "coalesce") {
			t.Errorf("sizes %v: the reason should say why coalescing 64 and 256 is not enough: %s", sizes, ac.Reason)
		}
		if sizes != nil && !strings.Contains(ac.Reason, "160.0 MiB per bucket file") {
			t.Errorf("accounts at 256 buckets holds 160 MiB a bucket file: %s", ac.Reason)
		}
		if sizes == nil && (!strings.Contains(ac.Reason, "size of finance.accounts is unknown") || !strings.Contains(ac.Reason, "--size finance.accounts=")) {
			t.Errorf("unknown size not said: %s", ac.Reason)
		}
	}
}

// TestAdviseCoalescingAlone: counts 64 and 256 on the same key type need no rewrite: bucket
// coalescing alone removes the shuffle.
func TestAdviseCoalescingAlone(t *testing.T) {
	tables, wl := financeFixture(t, map[string]int64{"finance.transactions": 2 << 40, "finance.accounts": 40 << 30}, dailyBalances)
	acc := *tables["finance.accounts"]
	acc.Columns = append([]plan.Column(nil), acc.Columns...)
	acc.Columns[0].Type = "bigint"
	tables["finance.accounts"] = &acc
	for _, v := range []string{"3.5", "4.0"} {
		ver, _ := simulate.ParseVersion(v)
		recs := Advise(tables, wl, Options{Spark: simulate.Options{SparkVersion: ver}, PowerOfTwo: true})
		checkFixes(t, recs)
		m := byTable(recs)
		for _, n := range []string{"finance.transactions", "finance.accounts"} {
			r := m[n]
			if !r.Keep || r.Confs[simulate.ConfCoalesceBuckets] != "true" || !strings.Contains(r.Reason, "coalesceBucketsInJoin") || r.ShufflesRemoved != 1 {
				t.Errorf("Spark %s: %s should keep its layout with bucket coalescing: %+v", v, n, r)
			}
		}
	}
	// Adaptive execution before 3.5 skips coalescing: accounts is rewritten.
	ver, _ := simulate.ParseVersion("3.4")
	m := byTable(Advise(tables, wl, Options{Spark: simulate.Options{SparkVersion: ver}, PowerOfTwo: true}))
	if r := m["finance.accounts"]; r.Keep || r.Bucket.NumBuckets != 256 {
		t.Errorf("Spark 3.4 with adaptive execution: accounts should be rewritten into 256 buckets: %+v", r)
	}
}

// TestAdvisePartitionSizing: a partitioned table is sized per partition; an unknown size is
// said, not sized as 256 MiB per bucket.
func TestAdvisePartitionSizing(t *testing.T) {
	tables, wl := financeFixture(t, map[string]int64{"finance.postings": 730 << 30}, `SELECT p.account_id, count(*) FROM finance.postings p GROUP BY p.account_id`)
	recs := Advise(tables, wl, Options{PowerOfTwo: true, Partitions: map[string]int{"finance.postings": 730}})
	checkFixes(t, recs)
	r := byTable(recs)["finance.postings"]
	// 1 GiB per partition at 256 MiB a bucket: 4 buckets, not 2920.
	if r.Bucket == nil || r.Bucket.NumBuckets != 4 || !strings.Contains(r.Reason, "730 partitions") {
		t.Errorf("postings should get 4 buckets (1 GiB per partition): %+v", r)
	}
	recs = Advise(tables, wl, Options{PowerOfTwo: true})
	r = byTable(recs)["finance.postings"]
	if !strings.Contains(r.Reason, "unknown number of partitions") {
		t.Errorf("the unknown partition count should be said: %s", r.Reason)
	}
	tables, wl = financeFixture(t, nil, `SELECT account_id, count(*) FROM finance.entries GROUP BY account_id`)
	r = byTable(Advise(tables, wl, Options{ClusterCores: 48}))["finance.entries"]
	if strings.Contains(r.Reason, "per bucket target") || !strings.Contains(r.Reason, "unknown") || r.Bucket == nil || r.Bucket.NumBuckets != 48 {
		t.Errorf("unknown size: want the cluster's cores and the size said unknown: %+v", r)
	}
}

// TestAdviseNoPartitionBucketColumn: a partition column in the join keys is never a bucket
// column; the other keys are, with spark.sql.requireAllClusterKeysForCoPartition=false.
func TestAdviseNoPartitionBucketColumn(t *testing.T) {
	tables, wl := financeFixture(t, map[string]int64{"finance.postings": 500 << 30, "finance.entries": 400 << 30},
		`SELECT p.txn_id FROM finance.postings p JOIN finance.entries e ON p.account_id = e.account_id AND p.day = e.day`)
	recs := Advise(tables, wl, Options{PowerOfTwo: true})
	checkFixes(t, recs)
	for _, r := range recs {
		if r.Bucket == nil {
			t.Fatalf("%s: not bucketed: %s", r.Table, r.Reason)
		}
		for _, c := range r.Bucket.Columns {
			if c == "day" {
				t.Errorf("%s: partition column day recommended as a bucket column: %+v", r.Table, r.Bucket)
			}
		}
		if r.Confs[simulate.ConfRequireAllCoPartition] != "false" || !strings.Contains(r.Reason, "partition column") || r.ShufflesRemoved != 2 {
			t.Errorf("%s: want requireAllClusterKeysForCoPartition=false and the partition column explained: %+v", r.Table, r)
		}
	}
	// The recorded reconciliation: both already bucketed alike, the setting alone serves it.
	tables, wl = financeFixture(t, nil, reconcile)
	recs = Advise(tables, wl, Options{PowerOfTwo: true})
	checkFixes(t, recs)
	for _, r := range recs {
		if !r.Keep || r.Confs[simulate.ConfRequireAllCoPartition] != "false" || len(r.Fixes) != 1 {
			t.Errorf("%s: want the layout kept with requireAllClusterKeysForCoPartition=false: %+v", r.Table, r)
		}
	}
	// Before 3.3 no layout serves it.
	ver, _ := simulate.ParseVersion("3.2")
	for _, r := range Advise(tables, wl, Options{Spark: simulate.Options{SparkVersion: ver}}) {
		if len(r.Fixes) != 0 || !strings.Contains(r.Reason, "before Spark 3.3") {
			t.Errorf("Spark 3.2: %s: %+v", r.Table, r)
		}
	}
}

// TestAdviseBroadcastSmallSide: a side within BroadcastFactor × the threshold is advised to be
// broadcast, not bucketed.
func TestAdviseBroadcastSmallSide(t *testing.T) {
	tables, wl := financeFixture(t, map[string]int64{"finance.postings": 500 << 30, "finance.branches": 30 << 20},
		`SELECT p.txn_id, b.name FROM finance.postings p JOIN finance.branches b ON p.branch_id = b.branch_id`)
	recs := Advise(tables, wl, Options{PowerOfTwo: true})
	m := byTable(recs)
	b := m["finance.branches"]
	if b.Bucket != nil || !strings.Contains(b.Reason, "BROADCAST(finance.branches)") || !strings.Contains(b.Reason, "autoBroadcastJoinThreshold") {
		t.Errorf("branches should be broadcast: %+v", b)
	}
	if p, ok := m["finance.postings"]; ok && p.Bucket != nil {
		t.Errorf("postings should not be bucketed for a broadcastable join: %+v", p)
	}
}

// TestAdviseCodeParses parses every piece of generated code with bucketlint's own parsers:
// the SQL creates the table with the recommended spec and the original column comments, the
// CTAS too, and the PySpark and Scala are recognised as a bucketed saveAsTable of the spec.
func TestAdviseCodeParses(t *testing.T) {
	tables, wl := financeFixture(t, map[string]int64{"finance.transactions": 2 << 40, "finance.accounts": 40 << 30, "finance.postings": 500 << 30, "finance.entries": 400 << 30},
		dailyBalances, `SELECT p.txn_id FROM finance.postings p JOIN finance.entries e ON p.account_id = e.account_id AND p.day = e.day`)
	p, err := sql.New()
	if err != nil {
		t.Fatal(err)
	}
	rewritten := 0
	for _, r := range Advise(tables, wl, Options{PowerOfTwo: true}) {
		if r.Bucket == nil || r.Keep {
			continue
		}
		rewritten++
		checkSQLCode(t, p, r, tables[r.Table])
		checkDataFrameCode(t, r, tables[r.Table])
	}
	if rewritten < 3 {
		t.Errorf("want accounts, postings and entries rewritten, got %d", rewritten)
	}
}

// checkSQLCode parses a recommendation's SQL and CTAS: each creates the table with the
// recommended spec and orig's partition columns, then reads <table>_old; the SQL declares
// orig's columns with the advised types and orig's comments.
func checkSQLCode(t *testing.T, p *sql.Parser, r Recommendation, orig *plan.Table) {
	t.Helper()
	for name, src := range map[string]string{"sql": r.Code.SQL, "ctas": r.Code.CTAS} {
		f, errs := p.ParseFile(r.Table+"."+name+".sql", []byte(src))
		if len(errs) > 0 || len(f.Tables) != 1 {
			t.Fatalf("%s %s: %v, %d tables\n%s", r.Table, name, errs, len(f.Tables), src)
		}
		got := f.Tables[0]
		if got.Name != r.Table || got.Buckets() == nil || got.Buckets().String() != r.Bucket.String() || strings.Join(got.PartitionColumns, ",") != strings.Join(orig.PartitionColumns, ",") {
			t.Errorf("%s %s: created %s %v partitioned by %v, want %v\n%s", r.Table, name, got.Name, got.Buckets(), got.PartitionColumns, r.Bucket, src)
		}
		if len(f.Queries) != 1 {
			t.Errorf("%s %s: want one query reading %s_old, got %d\n%s", r.Table, name, r.Table, len(f.Queries), src)
		}
		if name != "sql" {
			continue
		}
		for _, c := range orig.Columns {
			gc, ok := got.Column(c.Name)
			want := strings.ToLower(c.Type)
			if ct, ok := r.CastColumns[strings.ToLower(c.Name)]; ok {
				want = ct
			}
			if !ok || gc.Comment != c.Comment || gc.Type != want {
				t.Errorf("%s: column %s = %+v, want type %s comment %q", r.Table, c.Name, gc, want, c.Comment)
			}
		}
	}
}

// checkDataFrameCode parses a recommendation's PySpark and Scala: each is one bucketed
// saveAsTable of the spec, partitioned as orig, after a repartition into the bucket count.
func checkDataFrameCode(t *testing.T, r Recommendation, orig *plan.Table) {
	t.Helper()
	for _, lang := range []struct{ file, src string }{{"layout.py", r.Code.PySpark}, {"Layout.scala", r.Code.Scala}} {
		cf, errs := code.Parse(lang.file, []byte(lang.src))
		if len(errs) > 0 || len(cf.Writes) != 1 {
			t.Fatalf("%s %s: %v, %d writes\n%s", r.Table, lang.file, errs, len(cf.Writes), lang.src)
		}
		w := cf.Writes[0]
		if w.Terminal != "saveAsTable" || w.Table != r.Table || w.Bucket == nil || w.Bucket.NumBuckets != r.Bucket.NumBuckets ||
			strings.Join(w.Bucket.Columns, ",") != strings.Join(r.Bucket.Columns, ",") || strings.Join(w.SortBy, ",") != strings.Join(r.Bucket.SortColumns, ",") ||
			strings.Join(w.PartitionBy, ",") != strings.Join(orig.PartitionColumns, ",") {
			t.Errorf("%s %s: write %s %s %+v sortBy %v partitionBy %v, want saveAsTable of %v\n%s", r.Table, lang.file, w.Terminal, w.Table, w.Bucket, w.SortBy, w.PartitionBy, r.Bucket, lang.src)
		}
		if w.Repartition == nil || w.Repartition.N != r.Bucket.NumBuckets || strings.Join(w.Repartition.Cols, ",") != strings.Join(r.Bucket.Columns, ",") {
			t.Errorf("%s %s: want repartition(%d, %v) before the write: %+v", r.Table, lang.file, r.Bucket.NumBuckets, r.Bucket.Columns, w.Repartition)
		}
	}
}

// TestAdviseHeavierJoinWins: orders is joined on customer_id (weight 10) and on order_id
// (weight 2): the heavier join gets the layout, both tables' bucket files within the bounds,
// and both tables of the lighter join say it still shuffles.
func TestAdviseHeavierJoinWins(t *testing.T) {
	tables, wl := adviseFixture(t)
	recs := Advise(tables, wl, Options{ClusterCores: 64, PowerOfTwo: true})
	checkFixes(t, recs)
	m := byTable(recs)
	o, c, l := m["orders"], m["customers"], m["lineitem"]
	if o.Bucket == nil || c.Bucket == nil || o.Bucket.NumBuckets != 128 || c.Bucket.NumBuckets != 128 || !strings.Contains(o.Reason, "lowered from 256") {
		t.Errorf("orders and customers: want 128 buckets (24 MiB and 320 MiB bucket files): %+v %+v", o, c)
	}
	if !strings.Contains(o.Reason, "its join with lineitem on (order_id) in query 2 (weight 2) still shuffles") {
		t.Errorf("orders should say its lighter join still shuffles: %s", o.Reason)
	}
	if l.Bucket != nil || !strings.Contains(l.Reason, "orders is bucketed on (customer_id) for a heavier join") {
		t.Errorf("lineitem should say why its join keeps its shuffle: %+v", l)
	}
}

// TestAdviseBroadcastOnlyBuildSide: a left outer join cannot broadcast its left side, however
// small; the small preserved side is not advised to be broadcast.
func TestAdviseBroadcastOnlyBuildSide(t *testing.T) {
	tables, wl := financeFixture(t, map[string]int64{"finance.postings": 500 << 30, "finance.branches": 30 << 20},
		`SELECT p.txn_id, b.name FROM finance.branches b LEFT JOIN finance.postings p ON p.branch_id = b.branch_id`)
	recs := Advise(tables, wl, Options{PowerOfTwo: true})
	checkFixes(t, recs)
	for _, r := range recs {
		if strings.Contains(r.Reason, "BROADCAST(") {
			t.Errorf("%s: a left outer join cannot broadcast its preserved side: %s", r.Table, r.Reason)
		}
	}
}

// TestAdviseAggregateKeepsLayout: an aggregation grouped by a superset of the bucket column
// keeps the layout; a partition column is never the grouping column bucketed on.
func TestAdviseAggregateKeepsLayout(t *testing.T) {
	tables, wl := financeFixture(t, map[string]int64{"finance.ledger_entries": 1 << 40, "finance.postings": 500 << 30},
		`SELECT account_id, gl_account, sum(debit) FROM finance.ledger_entries GROUP BY account_id, gl_account`,
		`SELECT day, account_id, count(*) FROM finance.postings GROUP BY day, account_id`)
	recs := Advise(tables, wl, Options{PowerOfTwo: true})
	checkFixes(t, recs)
	m := byTable(recs)
	if l := m["finance.ledger_entries"]; !l.Keep || l.Bucket.NumBuckets != 256 || len(l.Fixes) != 1 {
		t.Errorf("ledger_entries should keep its layout: %+v", l)
	}
	if p := m["finance.postings"]; p.Bucket == nil || strings.Join(p.Bucket.Columns, ",") != "account_id" {
		t.Errorf("postings should be bucketed on account_id, not the partition column day: %+v", p.Bucket)
	}
}

// TestAdviseUnservedJoinLeavesTableFree: a heavier join only on a partition column serves no
// layout, and does not stop a lighter join from laying the table out.
func TestAdviseUnservedJoinLeavesTableFree(t *testing.T) {
	tables, wl := financeFixture(t, map[string]int64{"finance.postings": 500 << 30, "finance.entries": 400 << 30},
		`SELECT p.txn_id FROM finance.postings p JOIN finance.entries e ON p.day = e.day -- weight: 5`,
		`SELECT p.txn_id FROM finance.postings p JOIN finance.entries e ON p.txn_id = e.txn_id`)
	wl[0].Weight = 5
	recs := Advise(tables, wl, Options{PowerOfTwo: true})
	checkFixes(t, recs)
	for _, r := range recs {
		if r.Bucket == nil || r.Bucket.Columns[0] != "txn_id" || len(r.Fixes) != 1 || !strings.Contains(r.Reason, "only on partition columns") {
			t.Errorf("%s: want bucketed on txn_id for the lighter join, the day join said to still shuffle: %+v", r.Table, r)
		}
	}
}

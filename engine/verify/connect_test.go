//go:build engine

package verify

import (
	"context"
	"errors"
	"strings"
	"testing"
)

const connectDDL = `CREATE TABLE shop.orders (order_id BIGINT, cust_id INT, amount BIGINT) USING parquet CLUSTERED BY (cust_id) INTO 6 BUCKETS;
CREATE TABLE shop.customers (cust_id INT, name STRING) USING parquet CLUSTERED BY (cust_id) INTO 8 BUCKETS;
SELECT o.cust_id, c.name, sum(o.amount) AS total
FROM shop.orders o JOIN shop.customers c ON o.cust_id = c.cust_id
GROUP BY o.cust_id, c.name;
`

func TestCountExchanges(t *testing.T) {
	plan := `== Physical Plan ==
AdaptiveSparkPlan isFinalPlan=false
+- SortMergeJoin [k#1], [k#2], Inner
   :- Sort [k#1 ASC NULLS FIRST], false, 0
   :  +- Exchange hashpartitioning(k#1, 8), ENSURE_REQUIREMENTS, [plan_id=10]
   +- BroadcastExchange HashedRelationBroadcastMode(List(input[0, int, true]),false)
      +- ReusedExchange [k#2], Exchange hashpartitioning(k#2, 8)`
	root, err := parseExplain(plan)
	if err != nil {
		t.Fatal(err)
	}
	if got := shuffleExchanges(root); len(got) != 1 || got[0] != "Exchange hashpartitioning(k, 8), ENSURE_REQUIREMENTS" {
		t.Errorf("shuffleExchanges = %q, want the one hash Exchange", got)
	}
}

func TestPlanCopies(t *testing.T) {
	sc := advised(t, connectDDL)
	if len(sc) == 0 {
		t.Fatal("no advice")
	}
	t.Run("copies_the_changed_table_only", func(t *testing.T) {
		p, err := planCopies("bucketlint_scratch_x", &sc[0], []string{"spark_catalog.shop.customers", "spark_catalog.shop.orders"}, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(p.creates) != 1 || len(p.layout) != 1 {
			t.Fatalf("creates %q layout %v", p.creates, p.layout)
		}
		want := "CREATE TABLE `bucketlint_scratch_x`.`orders` USING parquet CLUSTERED BY (`cust_id`) SORTED BY (`cust_id`) INTO 8 BUCKETS AS SELECT * FROM `shop`.`orders`"
		if p.creates[0] != want {
			t.Errorf("ctas\n got %s\nwant %s", p.creates[0], want)
		}
		if p.before != sc[0].Query.Text {
			t.Errorf("before query rewritten: %s", p.before)
		}
		if !strings.Contains(p.after, "FROM `bucketlint_scratch_x`.`orders` o JOIN shop.customers c") {
			t.Errorf("after query: %s", p.after)
		}
	})
	t.Run("samples_every_table_once", func(t *testing.T) {
		p, err := planCopies("s", &sc[0], []string{"shop.customers", "shop.orders"}, 10)
		if err != nil {
			t.Fatal(err)
		}
		want := []string{
			"CREATE TABLE `s_sample`.`customers` USING parquet CLUSTERED BY (`cust_id`) INTO 8 BUCKETS AS SELECT * FROM `shop`.`customers` TABLESAMPLE (10 PERCENT)",
			"CREATE TABLE `s_sample`.`orders` USING parquet CLUSTERED BY (`cust_id`) INTO 6 BUCKETS AS SELECT * FROM `shop`.`orders` TABLESAMPLE (10 PERCENT)",
			"CREATE TABLE `s`.`orders` USING parquet CLUSTERED BY (`cust_id`) SORTED BY (`cust_id`) INTO 8 BUCKETS AS SELECT * FROM `s_sample`.`orders`",
		}
		if strings.Join(p.creates, "\n") != strings.Join(want, "\n") {
			t.Errorf("creates\n%s\nwant\n%s", strings.Join(p.creates, "\n"), strings.Join(want, "\n"))
		}
		if !strings.Contains(p.before, "FROM `s_sample`.`orders` o JOIN `s_sample`.`customers` c") ||
			!strings.Contains(p.after, "FROM `s`.`orders` o JOIN `s_sample`.`customers` c") {
			t.Errorf("queries\n%s\n%s", p.before, p.after)
		}
	})
}

func TestCTASCastsChangedTypes(t *testing.T) {
	tabs, _ := workload(t, connectDDL)
	before := tabs["shop.orders"]
	after := *before
	after.Columns = append(after.Columns[:0:0], before.Columns...)
	after.Columns[1].Type = "bigint"
	got := ctasSQL("`s`.`orders`", "`shop`.`orders`", before, &after)
	want := "CREATE TABLE `s`.`orders` USING parquet CLUSTERED BY (`cust_id`) INTO 6 BUCKETS AS SELECT `order_id`, CAST(`cust_id` AS bigint) AS `cust_id`, `amount` FROM `shop`.`orders`"
	if got != want {
		t.Errorf("ctas\n got %s\nwant %s", got, want)
	}
}

// fakeSession answers like a Spark that shuffles every join on the user's tables and none
// on the scratch copies, and records the statements.
type fakeSession struct {
	stmts    []string
	fail     string // a statement prefix that fails
	failErr  error  // its error; "boom" when nil
	shuffles bool   // the copies shuffle too
	closed   bool
}

func (f *fakeSession) SQL(_ context.Context, q string) ([][]any, error) {
	f.stmts = append(f.stmts, q)
	if f.fail != "" && strings.HasPrefix(q, f.fail) && f.failErr != nil {
		return nil, f.failErr
	}
	if f.fail != "" && strings.HasPrefix(q, f.fail) || strings.HasPrefix(q, "SET spark.sql.cbo.enabled") {
		return nil, errors.New("boom")
	}
	if strings.HasPrefix(q, "SELECT count(*)") {
		return [][]any{{int64(3), int64(-7)}}, nil
	}
	return nil, nil
}

func (f *fakeSession) Explain(_ context.Context, q string) (string, error) {
	if strings.Contains(q, "bucketlint_scratch_") && !f.shuffles {
		return "== Physical Plan ==\nSortMergeJoin [cust_id#1], [cust_id#2], Inner\n:- FileScan parquet", nil
	}
	return "== Physical Plan ==\nSortMergeJoin [cust_id#1], [cust_id#2], Inner\n:- Exchange hashpartitioning(cust_id#1, 8), ENSURE_REQUIREMENTS", nil
}

func (f *fakeSession) Close() error { f.closed = true; return nil }

func TestRunConnect(t *testing.T) {
	sc := advised(t, connectDDL)
	t.Run("drops_what_it_created", func(t *testing.T) {
		f := &fakeSession{}
		res, err := RunConnect(t.Context(), sc[:1], ConnectOptions{Sim: simOptions(t), session: f, ParseExplain: parseExplain})
		if err != nil {
			t.Fatal(err)
		}
		r := res[0]
		if r.Error != "" || r.Engine != "spark-connect" || !r.Identical || r.Before.Exchanges != 1 || r.After.Exchanges != 0 || !r.Reproduced() {
			t.Fatalf("result %+v", r)
		}
		all := strings.Join(f.stmts, "\n")
		for _, want := range []string{
			"SET spark.sql.autoBroadcastJoinThreshold=-1", "CREATE DATABASE IF NOT EXISTS `bucketlint_scratch_",
			"CREATE TABLE `bucketlint_scratch_", "DROP TABLE IF EXISTS `bucketlint_scratch_", "DROP DATABASE IF EXISTS `bucketlint_scratch_",
		} {
			if !strings.Contains(all, want) {
				t.Errorf("no %q in\n%s", want, all)
			}
		}
		if !f.closed {
			t.Error("session not closed")
		}
		assertNoUserWrites(t, f.stmts)
	})
	t.Run("a_static_conf_is_a_note", func(t *testing.T) {
		f := &fakeSession{}
		sim := simOptions(t)
		sim.Confs = map[string]string{"spark.sql.cbo.enabled": "true", "spark.sql.shuffle.partitions": "7"}
		res, err := RunConnect(t.Context(), sc[:1], ConnectOptions{Sim: sim, session: f, ParseExplain: parseExplain})
		if err != nil {
			t.Fatal(err)
		}
		if n := res[0].Notes; len(n) != 1 || !strings.Contains(n[0], "spark.sql.cbo.enabled=true is not set") {
			t.Errorf("notes %q", n)
		}
		if !strings.Contains(strings.Join(f.stmts, "\n"), "SET spark.sql.shuffle.partitions=7") {
			t.Errorf("statements %q", f.stmts)
		}
	})
	t.Run("a_shuffle_left_fails_and_is_named", func(t *testing.T) {
		f := &fakeSession{shuffles: true}
		res, err := RunConnect(t.Context(), sc[:1], ConnectOptions{Sim: simOptions(t), session: f, ParseExplain: parseExplain})
		if err != nil {
			t.Fatal(err)
		}
		r := res[0]
		if r.Reproduced() || len(r.Notes) != 1 || !strings.Contains(r.Notes[0], "Exchange hashpartitioning(cust_id, 8)") {
			t.Fatalf("result %+v", r)
		}
	})
	t.Run("drops_on_error", func(t *testing.T) {
		f := &fakeSession{fail: "SELECT count(*)"}
		res, err := RunConnect(t.Context(), sc[:1], ConnectOptions{Sim: simOptions(t), session: f, ParseExplain: parseExplain})
		if err != nil {
			t.Fatal(err)
		}
		if res[0].Error == "" {
			t.Fatalf("no error in %+v", res[0])
		}
		last := f.stmts[len(f.stmts)-2:]
		if !strings.HasPrefix(last[0], "DROP TABLE IF EXISTS `bucketlint_scratch_") || !strings.HasPrefix(last[1], "DROP DATABASE IF EXISTS `bucketlint_scratch_") {
			t.Errorf("last statements %q", last)
		}
	})
}

// assertNoUserWrites fails when a statement creates, drops or writes anything outside the
// scratch databases.
func assertNoUserWrites(t *testing.T, stmts []string) {
	t.Helper()
	for _, s := range stmts {
		u := strings.ToUpper(s)
		for _, verb := range []string{"CREATE ", "DROP ", "INSERT ", "ALTER ", "TRUNCATE "} {
			if strings.HasPrefix(u, verb) && !strings.Contains(s, "`bucketlint_scratch_") {
				t.Errorf("writes outside the scratch database: %s", s)
			}
		}
	}
}

// TestRunConnectPlannerConfsOnly: of the workload's settings only Spark SQL planner settings
// are SET on the Connect session; the others are named in a note (issue 14).
func TestRunConnectPlannerConfsOnly(t *testing.T) {
	sc := advised(t, connectDDL)
	f := &fakeSession{}
	sim := simOptions(t)
	sim.Confs = map[string]string{
		"spark.sql.warehouse.dir": "/w", "spark.jars": "/tmp/x.jar", "spark.sql.extensions": "x.Ext",
		"spark.driver.extraJavaOptions": "-Dx", "spark.sql.shuffle.partitions": "7",
	}
	res, err := RunConnect(t.Context(), sc[:1], ConnectOptions{Sim: sim, session: f, ParseExplain: parseExplain})
	if err != nil {
		t.Fatal(err)
	}
	stmts := strings.Join(f.stmts, "\n")
	for _, k := range []string{"spark.sql.warehouse.dir", "spark.jars", "spark.sql.extensions", "spark.driver.extraJavaOptions"} {
		if strings.Contains(stmts, k) {
			t.Errorf("%s reached the session: %q", k, f.stmts)
		}
		if !strings.Contains(strings.Join(res[0].Notes, "\n"), k+" is not passed on") {
			t.Errorf("%s dropped without a note: %q", k, res[0].Notes)
		}
	}
	if !strings.Contains(stmts, "SET spark.sql.shuffle.partitions=7") {
		t.Errorf("statements %q", f.stmts)
	}
}

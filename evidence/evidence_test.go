package evidence

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRecordedCosts reads the recorded zstd logs (both Spark versions): the plain tables'
// join shuffles orders_p and customers_p on cust (one cost, both sides), and the plain
// aggregation shuffles orders_p on cust; the bucketed tables shuffle nothing.
func TestRecordedCosts(t *testing.T) {
	for _, series := range []string{"3.5", "4.3"} {
		t.Run(series, func(t *testing.T) {
			ev, err := Read(t.Context(), "../fixtures/eventlog/"+series+"/zstd")
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range ev.Costs() {
				if c.Bytes <= 0 || c.Records <= 0 || c.TimeNs <= 0 || c.Runs != 1 || c.Apps != 1 {
					t.Errorf("%s: figures %+v", c.Key(), c)
				}
				got = append(got, fmt.Sprintf("%s %s partner=%q", c.Key(), c.Consumer, c.Partner))
			}
			want := []string{
				`spark_catalog.default.customers_p (cust) join partner="spark_catalog.default.orders_p (cust)"`,
				`spark_catalog.default.orders_p (cust) aggregate partner=""`,
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("costs:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			if ev.Unpaired != 0 || ev.Apps != 1 {
				t.Errorf("unpaired %d, apps %d", ev.Unpaired, ev.Apps)
			}
		})
	}
}

// TestCastKeyIsTheColumn: a shuffle on cast(account_id as bigint), as Spark plans an int key
// joined to a bigint one, shuffles the table's account_id; a key computed from two columns
// is no table's column. The log is a minimal hand-made one, not Spark output.
func TestCastKeyIsTheColumn(t *testing.T) {
	scan := func(table, out string) string {
		return `{"nodeName":"Scan parquet ` + table + `","simpleString":"FileScan parquet ` + table + `[` + out +
			`] Batched: true, DataFilters: [], Format: Parquet, Location: InMemoryFileIndex(1 paths)[file:/w], PartitionFilters: [], PushedFilters: [], ReadSchema: struct<a:int>","children":[],"metadata":{},"metrics":[]}`
	}
	exchange := func(key string, acc int, child string) string {
		return fmt.Sprintf(`{"nodeName":"Exchange","simpleString":"Exchange hashpartitioning(%s, 4), ENSURE_REQUIREMENTS, [plan_id=%d]","children":[%s],"metadata":{},"metrics":[{"name":"shuffle bytes written","accumulatorId":%d,"metricType":"size"}]}`, key, acc, child, acc)
	}
	plan := `{"nodeName":"SortMergeJoin","simpleString":"SortMergeJoin [cast(account_id#1 as bigint)], [(account_id#2L + x#3L)], Inner","children":[` +
		`{"nodeName":"Sort","simpleString":"Sort [cast(account_id#1 as bigint) ASC NULLS FIRST], false, 0","children":[` + exchange("cast(account_id#1 as bigint)", 10, scan("spark_catalog.finance.accounts", "account_id#1")) + `],"metadata":{},"metrics":[]},` +
		`{"nodeName":"Sort","simpleString":"Sort [(account_id#2L + x#3L) ASC NULLS FIRST], false, 0","children":[` + exchange("(account_id#2L + x#3L)", 11, scan("spark_catalog.finance.transactions", "account_id#2L,x#3L")) + `],"metadata":{},"metrics":[]}` +
		`],"metadata":{},"metrics":[]}`
	log := `{"Event":"SparkListenerApplicationStart","App Name":"a","App ID":"app-1"}
{"Event":"org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart","executionId":1,"description":"d","physicalPlanDescription":"","sparkPlanInfo":` + plan + `,"time":1}
{"Event":"SparkListenerTaskEnd","Stage ID":0,"Stage Attempt ID":0,"Task End Reason":{"Reason":"Success"},"Task Info":{"Accumulables":[{"ID":10,"Update":"1000"},{"ID":11,"Update":"5000"}]}}
{"Event":"org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionEnd","executionId":1,"time":2}
`
	path := filepath.Join(t.TempDir(), "app-1")
	if err := os.WriteFile(path, []byte(log), 0o600); err != nil {
		t.Fatal(err)
	}
	ev, err := Read(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	if len(ev.Shuffles) != 2 {
		t.Fatalf("%d shuffles, want 2 (unpaired %d)", len(ev.Shuffles), ev.Unpaired)
	}
	a, b := ev.Shuffles[0], ev.Shuffles[1]
	if a.Table != "spark_catalog.finance.accounts" || strings.Join(a.Columns, ",") != "account_id" || a.Bytes != 1000 || a.Consumer != "join" {
		t.Errorf("cast side: %+v", a)
	}
	if b.Table != "" || b.Bytes != 5000 {
		t.Errorf("computed side: %+v", b)
	}
	if m, ok := ev.Measure(Side{Table: "finance.accounts", Columns: []string{"account_id"}}); !ok || m.Bytes != 1000 || m.Runs != 1 {
		t.Errorf("measure: %+v %v", m, ok)
	}
}

// TestNoLogHere: a directory without an event log directly inside (empty, or one level above
// the logs) is an error naming it, not an empty result that reads as "no shuffles".
func TestNoLogHere(t *testing.T) {
	empty := t.TempDir()
	for _, dir := range []string{empty, "../fixtures/eventlog/3.5"} {
		ev, err := Read(t.Context(), dir)
		if err == nil || !strings.Contains(err.Error(), "no Spark event log here") || ev != nil {
			t.Errorf("Read(%s) = %v, %v; want the no-log error", dir, ev, err)
		}
	}
}

package simulate

import (
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/parser/sql"
	"github.com/bucketlint/bucketlint/plan"
)

// TestCauseNames checks that every cause has its own stable name.
func TestCauseNames(t *testing.T) {
	seen := map[string]Cause{}
	for _, c := range Causes() {
		name := c.String()
		if name == "" || (name == "unknown" && c != CauseUnknown) {
			t.Errorf("cause %d has no name", c)
		}
		if d, ok := seen[name]; ok {
			t.Errorf("causes %d and %d share the name %q", d, c, name)
		}
		seen[name] = c
	}
	if got := Cause(255).String(); got != "unknown" {
		t.Errorf("Cause(255) = %q, want unknown", got)
	}
}

// causeDDL are the tables the cause cases join: a and b bucketed alike on k, c on k with
// fewer buckets, d not bucketed, e on (k, v), f on (v, k), g with a bigint key, h a Hive
// text table, x a Delta table.
const causeDDL = `
CREATE TABLE a (k INT, v INT, w INT) USING parquet CLUSTERED BY (k) INTO 8 BUCKETS;
CREATE TABLE b (k INT, v INT, w INT) USING parquet CLUSTERED BY (k) INTO 8 BUCKETS;
CREATE TABLE c (k INT, v INT, w INT) USING parquet CLUSTERED BY (k) INTO 4 BUCKETS;
CREATE TABLE d (k INT, v INT, w INT) USING parquet;
CREATE TABLE e (k INT, v INT, w INT) USING parquet CLUSTERED BY (k, v) INTO 8 BUCKETS;
CREATE TABLE f (k INT, v INT, w INT) USING parquet CLUSTERED BY (v, k) INTO 8 BUCKETS;
CREATE TABLE g (k BIGINT, v INT, w INT) USING parquet CLUSTERED BY (k) INTO 8 BUCKETS;
CREATE TABLE h (k INT, v INT, w INT) USING hive CLUSTERED BY (k) INTO 8 BUCKETS;
CREATE TABLE x (k INT, v INT, w INT) USING delta CLUSTERED BY (k) INTO 8 BUCKETS;
`

// TestDecisionCauses checks the typed cause of each decision of small queries: want lists
// "Node side Inserted cause" for every decision but the Sorts, in plan order.
func TestDecisionCauses(t *testing.T) {
	t.Parallel()
	p, err := sql.New()
	if err != nil {
		t.Fatal(err)
	}
	ddl, errs := p.ParseFile("ddl.sql", []byte(causeDDL))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	tables := map[string]*plan.Table{}
	for _, tb := range ddl.Tables {
		tables[tb.Name] = tb
	}
	noBroadcast := map[string]string{ConfBroadcastThreshold: "-1"}
	with := func(kv ...string) map[string]string {
		m := map[string]string{ConfBroadcastThreshold: "-1"}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	tests := []struct {
		name, version, query string
		confs                map[string]string
		want                 []string
	}{
		{
			"alike", "3.5", "SELECT * FROM a JOIN b ON a.k = b.k", noBroadcast,
			[]string{"SortMergeJoin left none satisfied", "SortMergeJoin right none satisfied"},
		},
		{
			"count mismatch, coalescing off", "3.5", "SELECT * FROM a JOIN c ON a.k = c.k", noBroadcast,
			[]string{"SortMergeJoin left none satisfied", "SortMergeJoin right Exchange coalesce-off"},
		},
		{
			"count mismatch, coalesced", "3.5", "SELECT * FROM a JOIN c ON a.k = c.k", with(ConfCoalesceBuckets, "true"),
			[]string{"SortMergeJoin left none coalesced", "SortMergeJoin left none satisfied", "SortMergeJoin right none satisfied"},
		},
		{
			"count mismatch, coalescing skipped", "3.2", "SELECT * FROM a JOIN c ON a.k = c.k", with(ConfCoalesceBuckets, "true"),
			[]string{"SortMergeJoin left none satisfied", "SortMergeJoin right Exchange coalesce-skipped"},
		},
		{
			"count mismatch, no coalescing in 3.0", "3.0.3", "SELECT * FROM a JOIN c ON a.k = c.k", noBroadcast,
			[]string{"SortMergeJoin left none satisfied", "SortMergeJoin right Exchange count-mismatch"},
		},
		{
			"count mismatch, floored by shuffle partitions", "3.0.1", "SELECT * FROM a JOIN c ON a.k = c.k", noBroadcast,
			[]string{"SortMergeJoin left Exchange shuffle-partitions", "SortMergeJoin right Exchange count-mismatch"},
		},
		{
			"one side unbucketed", "3.5", "SELECT * FROM a JOIN d ON a.k = d.k", noBroadcast,
			[]string{"SortMergeJoin left none satisfied", "SortMergeJoin right Exchange unbucketed"},
		},
		{
			"one side unbucketed before 3.3", "3.2", "SELECT * FROM a JOIN d ON a.k = d.k", noBroadcast,
			[]string{"SortMergeJoin left Exchange shuffle-partitions", "SortMergeJoin right Exchange unbucketed"},
		},
		{
			"key order", "3.5", "SELECT * FROM e JOIN f ON e.k = f.k AND e.v = f.v", noBroadcast,
			[]string{"SortMergeJoin left none satisfied", "SortMergeJoin right Exchange key-order"},
		},
		{
			"key cast", "3.5", "SELECT * FROM a JOIN g ON a.k = g.k", noBroadcast,
			[]string{"SortMergeJoin left Exchange key-cast", "SortMergeJoin right none satisfied"},
		},
		{
			"bucket keys subset", "3.5", "SELECT * FROM a JOIN b ON a.k = b.k AND a.v = b.v", noBroadcast,
			[]string{"SortMergeJoin left Exchange bucket-keys-subset", "SortMergeJoin right Exchange bucket-keys-subset"},
		},
		{
			"bucket keys superset", "3.5", "SELECT * FROM e JOIN a ON e.k = a.k", noBroadcast,
			[]string{"SortMergeJoin left Exchange bucket-keys-superset", "SortMergeJoin right none satisfied"},
		},
		{
			"bucket keys different", "3.5", "SELECT * FROM a JOIN b ON a.v = b.v", noBroadcast,
			[]string{"SortMergeJoin left Exchange bucket-keys-different", "SortMergeJoin right Exchange bucket-keys-different"},
		},
		{
			"bucketing disabled", "3.5", "SELECT * FROM a JOIN b ON a.k = b.k", with(ConfBucketingEnabled, "false"),
			[]string{"SortMergeJoin left Exchange bucketing-disabled", "SortMergeJoin right Exchange bucketing-disabled"},
		},
		{
			"hive table", "3.5", "SELECT * FROM a JOIN h ON a.k = h.k", noBroadcast,
			[]string{"SortMergeJoin left none satisfied", "SortMergeJoin right Exchange hive-table"},
		},
		{
			"delta table", "3.5", "SELECT * FROM a JOIN x ON a.k = x.k", noBroadcast,
			[]string{"SortMergeJoin left none satisfied", "SortMergeJoin right Exchange unsupported-format"},
		},
		{
			"unknown table", "3.5", "SELECT * FROM a JOIN nowhere n ON a.k = n.k", noBroadcast,
			[]string{"SortMergeJoin left none satisfied", "SortMergeJoin right Exchange unknown-table"},
		},
		{
			"bucket column not read", "3.5", "SELECT v, count(*) FROM a GROUP BY v", nil,
			[]string{"HashAggregate child Exchange bucket-column-not-read"},
		},
		{
			"aggregate output", "3.5", "SELECT * FROM (SELECT v, count(*) AS n FROM a GROUP BY v) s JOIN b ON s.v = b.k", noBroadcast,
			[]string{"HashAggregate child Exchange bucket-column-not-read", "SortMergeJoin left none satisfied", "SortMergeJoin right Exchange count-mismatch"},
		},
		{
			"union side", "3.5", "SELECT * FROM (SELECT k FROM a UNION ALL SELECT k FROM d) u JOIN b ON u.k = b.k", noBroadcast,
			[]string{"SortMergeJoin left Exchange derived-child", "SortMergeJoin right none satisfied"},
		},
		{
			"union", "3.5", "SELECT k, count(*) FROM (SELECT k FROM a UNION ALL SELECT k FROM b) u GROUP BY k", nil,
			[]string{"HashAggregate child Exchange derived-child"},
		},
		{
			"no grouping keys", "3.5", "SELECT count(*) FROM a", nil,
			[]string{"HashAggregate child Exchange single-partition"},
		},
		{
			"order by", "3.5", "SELECT * FROM a ORDER BY v", nil,
			[]string{"Sort child Exchange range-partitioning"},
		},
		{
			"broadcast hint", "3.5", "SELECT /*+ BROADCAST(d) */ * FROM a JOIN d ON a.k = d.k", noBroadcast,
			[]string{"BroadcastHashJoin right BroadcastExchange broadcast"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f, errs := p.ParseFile("q.sql", []byte(tc.query+";"))
			if len(errs) > 0 || len(f.Queries) != 1 {
				t.Fatalf("query: %v", errs)
			}
			v, err := ParseVersion(tc.version)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Simulate(tables, f.Queries[0], Options{SparkVersion: v, Confs: tc.confs})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, d := range res.Decisions {
				if d.Inserted == InsertedSort {
					if d.Cause != CauseOrdering {
						t.Errorf("a Sort of %s has cause %s", d.Node.Info().Name, d.Cause)
					}
					continue
				}
				if d.Inserted == InsertedExchange && !d.Cause.Shuffles() {
					t.Errorf("an Exchange under %s has cause %s, not a shuffle's", d.Node.Info().Name, d.Cause)
				}
				got = append(got, d.Node.Info().Name+" "+d.Side+" "+d.Inserted+" "+d.Cause.String())
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("decisions:\n%s\nwant:\n%s\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"), dump(res))
			}
		})
	}
}

package simulate

import (
	"testing"

	"github.com/bucketlint/bucketlint/plan"
)

// TestJoinExplain checks the explainer's primary cause and sentence for each layout of two
// joined tables.
func TestJoinExplain(t *testing.T) {
	t.Parallel()
	table := func(name, typ string, n int, hive bool, cols ...string) *plan.Table {
		t := &plan.Table{Name: name, Hive: hive, Columns: []plan.Column{{Name: "k", Type: typ}, {Name: "v", Type: "int"}}}
		if len(cols) > 0 {
			t.SetBuckets(&plan.BucketSpec{NumBuckets: n, Columns: cols})
		}
		return t
	}
	keys := func(cols ...string) []plan.ColumnRef {
		var out []plan.ColumnRef
		for _, c := range cols {
			out = append(out, plan.ColumnRef{Column: c, Text: c})
		}
		return out
	}
	side := func(t *plan.Table, ks []plan.ColumnRef) JoinSide {
		label := ""
		if t != nil {
			label = t.Name
		}
		return JoinSide{Label: label, Table: t, Keys: ks}
	}
	a8 := table("a", "int", 8, false, "k")
	tests := []struct {
		name        string
		left, right JoinSide
		enabled     bool
		want        Cause
		text        string
	}{
		{
			"disabled", side(a8, keys("k")), side(table("b", "int", 8, false, "k"), keys("k")), false, CauseBucketingDisabled,
			"spark.sql.sources.bucketing.enabled is false, so no scan is bucketed",
		},
		{
			"hive", side(a8, keys("k")), side(table("h", "int", 8, true, "k"), keys("k")), true, CauseHiveTable,
			"h is a Hive-serde table, read without its bucket spec",
		},
		{
			"unknown", side(nil, keys("k")), side(nil, keys("k")), true, CauseUnknownTable,
			"the tables' bucket specs are unknown (add their DDL)",
		},
		{
			"neither", side(table("a", "int", 0, false), keys("k")), side(table("b", "int", 0, false), keys("k")), true, CauseUnbucketed,
			"neither side is bucketed",
		},
		{
			"one side", side(a8, keys("k")), side(table("d", "int", 0, false), keys("k")), true, CauseUnbucketed,
			"only a is bucketed on the join keys; d is not bucketed",
		},
		{
			"subset", side(a8, keys("k", "v")), side(table("b", "int", 8, false, "k", "v"), keys("k", "v")), true, CauseBucketKeysSubset,
			"a is bucketed on (k) but joined on (k, v)",
		},
		{
			"superset", side(table("e", "int", 8, false, "k", "v"), keys("k")), side(a8, keys("k")), true, CauseBucketKeysSuperset,
			"e is bucketed on (k, v) but joined on (k)",
		},
		{
			"different", side(a8, keys("v")), side(table("b", "int", 8, false, "v"), keys("v")), true, CauseBucketKeysDifferent,
			"a is bucketed on (k) but joined on (v)",
		},
		{
			"types", side(a8, keys("k")), side(table("g", "bigint", 8, false, "k"), keys("k")), true, CauseKeyCast,
			"the join key types differ: a.k is int, g.k is bigint",
		},
		{
			"order", side(table("e", "int", 8, false, "k", "v"), keys("k", "v")), side(table("f", "int", 8, false, "v", "k"), keys("k", "v")), true, CauseKeyOrder,
			"e is bucketed on (k, v) and f on (v, k): the columns pair up in a different order",
		},
		{
			"counts", side(a8, keys("k")), side(table("c", "int", 4, false, "k"), keys("k")), true, CauseCountMismatch,
			"the bucket counts differ: a has 8, c has 4",
		},
		{
			"alike", side(a8, keys("k")), side(table("b", "int", 8, false, "k"), keys("k")), true, CauseUnknown,
			"both sides are bucketed alike, so the scan or the planner dropped the layout (see the scans' Bucketed field)",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			j := &Join{Left: tc.left, Right: tc.right, BucketingEnabled: tc.enabled}
			got := j.Explain(0)
			if got.Cause != tc.want || got.Text != tc.text {
				t.Errorf("Explain = %s %q, want %s %q", got.Cause, got.Text, tc.want, tc.text)
			}
		})
	}
}

// TestScanCause checks what printed scans say about their bucketing.
func TestScanCause(t *testing.T) {
	t.Parallel()
	tests := []struct {
		scan plan.Node
		want Cause
	}{
		{&plan.HiveTableScan{Table: "h"}, CauseHiveTable},
		{&plan.BatchScan{Table: "i"}, CauseDataSourceV2},
		{&plan.InMemoryTableScan{}, CauseCached},
		{&plan.FileScan{Format: "parquet"}, CauseReadByPath},
		{&plan.FileScan{Table: "a", BucketedCause: plan.NotBucketedByConfiguration}, CauseBucketingDisabled},
		{&plan.FileScan{Table: "a", BucketedCause: plan.NotBucketedByPlanner}, CauseScanDisabled},
		{&plan.FileScan{Table: "a", BucketedCause: plan.NotBucketedColumnsNotRead}, CauseBucketColumnNotRead},
		{&plan.FileScan{Table: "a", TotalBuckets: 8, SelectedBuckets: 8}, CauseUnknown},
	}
	for _, tc := range tests {
		if got := ScanCause(tc.scan); got != tc.want {
			t.Errorf("ScanCause(%T %+v) = %s, want %s", tc.scan, tc.scan, got, tc.want)
		}
	}
}

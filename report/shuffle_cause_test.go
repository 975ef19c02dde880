package report

import (
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/parser/explain"
	"github.com/bucketlint/bucketlint/simulate"
)

// TestShufflePrimaryCause checks the typed cause of printed shuffles: what the query asked
// for, what the consumer needs, what the scans say, else the explainer's cause for the join
// (unknown layouts without DDL).
func TestShufflePrimaryCause(t *testing.T) {
	t.Parallel()
	const join = "== Physical Plan ==\n*(5) SortMergeJoin [k#1], [k#2], Inner\n:- *(2) Sort [k#1 ASC NULLS FIRST], false, 0\n:  +- Exchange hashpartitioning(k#1, 200), ENSURE_REQUIREMENTS, [plan_id=1]\n:     +- %s\n+- *(4) Sort [k#2 ASC NULLS FIRST], false, 0\n   +- *(3) FileScan parquet default.b[k#2] Batched: true, Bucketed: true, DataFilters: [], Format: Parquet, SelectedBucketsCount: 8 out of 8\n"
	tests := []struct {
		name, plan string
		want       simulate.Cause
	}{
		{"unknown layouts", strings.Replace(join, "%s", "*(1) FileScan parquet default.a[k#1] Batched: true, Bucketed: true, DataFilters: [], Format: Parquet, SelectedBucketsCount: 4 out of 4", 1), simulate.CauseUnknownTable},
		{"bucketing disabled", strings.Replace(join, "%s", "*(1) FileScan parquet default.a[k#1] Batched: true, Bucketed: false (disabled by configuration), DataFilters: [], Format: Parquet", 1), simulate.CauseBucketingDisabled},
		{"bucket column not read", strings.Replace(join, "%s", "*(1) FileScan parquet default.a[k#1] Batched: true, Bucketed: false (bucket column(s) not read), DataFilters: [], Format: Parquet", 1), simulate.CauseBucketColumnNotRead},
		{"disabled by the planner is a symptom", strings.Replace(join, "%s", "*(1) FileScan parquet default.a[k#1] Batched: true, Bucketed: false (disabled by query planner), DataFilters: [], Format: Parquet", 1), simulate.CauseUnknownTable},
		{"read by path", strings.Replace(join, "%s", "*(1) FileScan parquet [k#1] Batched: true, DataFilters: [], Format: Parquet, Location: InMemoryFileIndex[file:/data/a]", 1), simulate.CauseReadByPath},
		{"hive table", strings.Replace(join, "%s", "Scan hive default.a [k#1], HiveTableRelation [`default`.`a`, org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe, Data Cols: [k#1], Partition Cols: []]", 1), simulate.CauseHiveTable},
		{"requested", "== Physical Plan ==\nExchange hashpartitioning(k#1, 8), REPARTITION_BY_COL, [plan_id=1]\n+- *(1) FileScan parquet default.a[k#1] Batched: true, DataFilters: [], Format: Parquet\n", simulate.CauseRequested},
		{"no grouping keys", "== Physical Plan ==\n*(2) HashAggregate(keys=[], functions=[count(1)])\n+- Exchange SinglePartition, ENSURE_REQUIREMENTS, [plan_id=1]\n   +- *(1) HashAggregate(keys=[], functions=[partial_count(1)])\n      +- *(1) FileScan parquet default.a[] Batched: true, DataFilters: [], Format: Parquet\n", simulate.CauseSinglePartition},
		{"order by", "== Physical Plan ==\n*(2) Sort [k#1 ASC NULLS FIRST], true, 0\n+- Exchange rangepartitioning(k#1 ASC NULLS FIRST, 200), ENSURE_REQUIREMENTS, [plan_id=1]\n   +- *(1) FileScan parquet default.a[k#1] Batched: true, DataFilters: [], Format: Parquet\n", simulate.CauseRangePartitioning},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			es, errs := explain.Parse("x.txt", []byte(tc.plan))
			if len(errs) > 0 || len(es) != 1 {
				t.Fatalf("parse: %v", errs)
			}
			shuffles := Shuffles(es[0].Physical())
			if len(shuffles) != 1 {
				t.Fatalf("%d shuffles, want 1", len(shuffles))
			}
			if got := shuffles[0].Cause; got != tc.want {
				t.Errorf("cause %s, want %s (%s)", got, tc.want, shuffles[0].Reason)
			}
		})
	}
}

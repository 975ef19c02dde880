//go:build engine

package exec

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/engine/store"
	"github.com/bucketlint/bucketlint/plan"
)

func TestBucketAndPartitionPruning(t *testing.T) {
	t.Parallel()
	g := store.GenSpec{Rows: 4000, Seed: 21, Columns: []store.GenColumn{
		{Name: "k", Type: typ(t, "bigint"), Cardinality: 100},
		{Name: "p", Type: typ(t, "int"), Cardinality: 3},
		{Name: "v", Type: typ(t, "string"), Cardinality: 10, NullFraction: 0.1},
	}}
	data, err := store.Generate(g)
	if err != nil {
		t.Fatal(err)
	}
	layout := store.Layout{Buckets: 8, BucketColumns: []string{"k"}, PartitionColumns: []string{"p"}}
	tab, err := store.Write(context.Background(), filepath.Join(t.TempDir(), "t"), g.Schema(), data, layout, store.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cat := NewCatalog()
	cat.Add("default.t", tab)
	scan := func(data, part []string) *plan.FileScan {
		s := fileScan("spark_catalog.default.t", true, "k", "p", "v")
		s.DataFilters, s.PartitionFilters = pxs(data...), pxs(part...)
		return s
	}
	filter := func(child plan.Node, cond string) plan.Node {
		return &plan.Filter{OpInfo: plan.OpInfo{Name: "Filter", Kids: []plan.Node{child}}, Condition: px(cond)}
	}
	const cond = "(((k#1L = 5) OR (k#1L = 17)) AND (p#2 = 1))"
	pruned := run(t, filter(scan([]string{"isnotnull(k#1L)", "k#1L IN (5,17)"}, []string{"isnotnull(p#2)", "(p#2 = 1)"}), cond), cat)
	full := run(t, filter(scan(nil, nil), cond), cat)
	if err := EqualRows(pruned, full); err != nil || full.NumRows() == 0 {
		t.Fatalf("pruned scan changes the result (%d rows): %v", full.NumRows(), err)
	}
	// The pruned scan reads only files of buckets 5 and 17 (mod 8) in p=1.
	var want int64
	var h store.Hasher
	ids := make([]int32, 2)
	lit := store.NewVec(typ(t, "bigint"), 2)
	lit.AppendInt(5)
	lit.AppendInt(17)
	h.Buckets(ids, []*store.Vec{lit}, 2, 8)
	for _, f := range tab.Files {
		if (f.Bucket == int(ids[0]) || f.Bucket == int(ids[1])) && f.Partition[0] == "1" {
			want += f.Rows
		}
	}
	var scanned int64
	for _, o := range pruned.Stats.Operators {
		if o.Name == "FileScan" {
			scanned = o.RowsOut
			if o.Partitions != 8 {
				t.Errorf("pruned bucketed scan has %d partitions, want 8 (empty buckets stay)", o.Partitions)
			}
		}
	}
	if scanned != want || scanned >= int64(g.Rows)/3 {
		t.Fatalf("pruned scan read %d rows, want %d", scanned, want)
	}
}

// partitionedByDay writes t(k bigint, v int, day date) partitioned by day and bucketed by k.
func partitionedByDay(t *testing.T) (*Catalog, *store.Table) {
	t.Helper()
	g := store.GenSpec{Rows: 3000, Seed: 5, Columns: []store.GenColumn{
		{Name: "k", Type: typ(t, "bigint"), Cardinality: 50},
		{Name: "v", Type: typ(t, "int"), Cardinality: 20},
		{Name: "day", Type: typ(t, "date"), Cardinality: 3},
	}}
	data, err := store.Generate(g)
	if err != nil {
		t.Fatal(err)
	}
	layout := store.Layout{Buckets: 4, BucketColumns: []string{"k"}, PartitionColumns: []string{"day"}}
	tab, err := store.Write(context.Background(), filepath.Join(t.TempDir(), "t"), g.Schema(), data, layout, store.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cat := NewCatalog()
	cat.Add("default.t", tab)
	return cat, tab
}

// TestPartitionFilterTypedLiteral: DATE '…' literals, literals on the left and partition
// columns the scan does not output prune exactly the partitions they name.
func TestPartitionFilterTypedLiteral(t *testing.T) {
	t.Parallel()
	cat, tab := partitionedByDay(t)
	day := tab.Files[0].Partition[0]
	var want int64
	for _, f := range tab.Files {
		if f.Partition[0] == day {
			want += f.Rows
		}
	}
	if want == 0 || want == int64(3000) {
		t.Fatalf("fixture: partition %s has %d of 3000 rows", day, want)
	}
	for _, filters := range [][]string{
		{"isnotnull(day#3)", "(day#3 = DATE '" + day + "')"},
		{"day = DATE'" + day + "'"},
		{"day = '" + day + "'"},
		{"DATE '" + day + "' = day#3"},
		{"day#3 IN (DATE '" + day + "', DATE '1970-01-01')"},
		{"(day#3 >= " + day + ") AND (day#3 <= " + day + ")"},
		{"day BETWEEN DATE '" + day + "' AND DATE '" + day + "'"},
	} {
		for _, out := range [][]string{{"k", "v", "day"}, {"k", "v"}} {
			s := fileScan("spark_catalog.default.t", true, out...)
			s.PartitionFilters = pxs(filters...)
			res := run(t, s, cat)
			if int64(res.NumRows()) != want {
				t.Errorf("partition filters %q, output %v: %d rows, want %d", filters, out, res.NumRows(), want)
			}
		}
	}
}

// TestUnparsedScanFilterIsAnError: a partition or data filter the engine cannot evaluate
// fails the query with the filter's text instead of being skipped (which would keep every
// partition, or claim a pruning that did not happen).
func TestUnparsedScanFilterIsAnError(t *testing.T) {
	t.Parallel()
	cat, _ := partitionedByDay(t)
	for _, tc := range []struct{ part, data []string }{
		{part: []string{"(day#3 = date_sub(current_date(), 1))"}},
		{part: []string{"cast(day#3 as string) LIKE '2024-%'"}},
		{part: []string{"(nosuch#9 = 1)"}},
		{data: []string{"StartsWith(cast(k#1L as string), 1)"}},
	} {
		s := fileScan("spark_catalog.default.t", true, "k", "v", "day")
		s.PartitionFilters, s.DataFilters = pxs(tc.part...), pxs(tc.data...)
		_, err := Execute(context.Background(), s, cat, Options{})
		text := append(tc.part, tc.data...)[0]
		if err == nil || !strings.Contains(err.Error(), text) {
			t.Errorf("filters %q: error %v, want one naming %q", text, err, text)
		}
	}
}

// TestHiveBucketedScanRefused checks that a bucketed scan of Hive-bucketed files (HiveHash,
// as Spark writes Hive-format tables) fails naming the table instead of pruning or joining
// them as Murmur3 buckets, and that an unbucketed scan of them, as Spark plans it, reads
// every row.
func TestHiveBucketedScanRefused(t *testing.T) {
	t.Parallel()
	g := store.GenSpec{Rows: 500, Seed: 3, Columns: []store.GenColumn{
		{Name: "k", Type: typ(t, "int"), Cardinality: 40},
		{Name: "v", Type: typ(t, "int"), Cardinality: 10},
	}}
	data, err := store.Generate(g)
	if err != nil {
		t.Fatal(err)
	}
	layout := store.Layout{Buckets: 4, BucketColumns: []string{"k"}, Bucketing: store.HiveBucketing}
	tab, err := store.Write(context.Background(), filepath.Join(t.TempDir(), "h"), g.Schema(), data, layout, store.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cat := NewCatalog()
	cat.Add("default.h", tab)
	s := fileScan("spark_catalog.default.h", true, "k", "v")
	s.DataFilters = pxs("isnotnull(k#1)", "(k#1 = 7)")
	_, err = Execute(context.Background(), s, cat, Options{})
	if err == nil || !strings.Contains(err.Error(), "spark_catalog.default.h as bucketed but its files use Hive's bucketing") {
		t.Fatalf("bucketed scan of Hive buckets: %v", err)
	}
	side := func() plan.Node { return sortNode(fileScan("spark_catalog.default.h", true, "k", "v"), "k") }
	join := joinNode(plan.SortMergeJoinStrategy, "Inner", "", []string{"k"}, []string{"k"}, side(), side())
	if _, err := Execute(context.Background(), join, cat, Options{}); err == nil || !strings.Contains(err.Error(), "Hive's bucketing") {
		t.Fatalf("bucket-local join of Hive buckets: %v", err)
	}
	plain := fileScan("spark_catalog.default.h", false, "k", "v")
	plain.DataFilters = pxs("isnotnull(k#1)", "(k#1 = 7)")
	if res := run(t, plain, cat); res.NumRows() != int64(g.Rows) {
		t.Fatalf("unbucketed scan read %d rows, want %d", res.NumRows(), g.Rows)
	}
}

package exec

import (
	"context"
	"path/filepath"
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
		s.DataFilters, s.PartitionFilters = data, part
		return s
	}
	filter := func(child plan.Node, cond string) plan.Node {
		return &plan.Filter{OpInfo: plan.OpInfo{Name: "Filter", Kids: []plan.Node{child}}, Condition: plan.Expr{Raw: cond}}
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

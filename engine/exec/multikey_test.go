//go:build engine

package exec

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/bucketlint/bucketlint/engine/store"
	"github.com/bucketlint/bucketlint/plan"
)

// TestMultiKeyJoinsAgainstNaive joins on (string, int) and on double keys, bucketed on both
// key columns, with NULLs in every key, against the nested-loop reference.
func TestMultiKeyJoinsAgainstNaive(t *testing.T) {
	t.Parallel()
	gen := func(seed uint64, rows int) store.GenSpec {
		return store.GenSpec{Rows: rows, Seed: seed, Columns: []store.GenColumn{
			{Name: "s", Type: typ(t, "string"), Cardinality: 12, NullFraction: 0.05},
			{Name: "i", Type: typ(t, "int"), Cardinality: 9, NullFraction: 0.05},
			{Name: "d", Type: typ(t, "double"), Cardinality: 40, NullFraction: 0.05, Zipf: 1.5},
		}}
	}
	dir := t.TempDir()
	cat := NewCatalog()
	var rels []relation
	for i, name := range []string{"l", "r"} {
		g := gen(uint64(30+i), 400+200*i)
		data, err := store.Generate(g)
		if err != nil {
			t.Fatal(err)
		}
		tab, err := store.Write(context.Background(), filepath.Join(dir, name), g.Schema(), data,
			store.Layout{Buckets: 6, BucketColumns: []string{"s", "i"}, Tasks: 2}, store.WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		cat.Add(name, tab)
		rels = append(rels, relationOf(t, tab, []string{"s", "i", "d"}))
	}
	for _, jt := range joinTypes {
		for _, keys := range [][]string{{"s", "i"}, {"d"}} {
			idx := []int{0, 1}
			if keys[0] == "d" {
				idx = []int{2}
			}
			want := naiveJoin(jt, rels[0], rels[1], idx, idx).canonical()
			plans := map[string]plan.Node{
				"shuffled_smj": joinNode(plan.SortMergeJoinStrategy, jt, "", keys, keys,
					sortNode(exchange(fileScan("l", false, "s", "i", "d"), 4, keys...), keys...),
					sortNode(exchange(fileScan("r", false, "s", "i", "d"), 4, keys...), keys...)),
				"shuffled_shj": joinNode(plan.ShuffledHashJoinStrategy, jt, "BuildLeft", keys, keys,
					exchange(fileScan("l", false, "s", "i", "d"), 5, keys...), exchange(fileScan("r", false, "s", "i", "d"), 5, keys...)),
			}
			if keys[0] == "s" {
				plans["bucket_local_smj"] = joinNode(plan.SortMergeJoinStrategy, jt, "", keys, keys,
					sortNode(fileScan("l", true, "s", "i", "d"), keys...), sortNode(fileScan("r", true, "s", "i", "d"), keys...))
			}
			for name, p := range plans {
				t.Run(fmt.Sprintf("%s/%v/%s", jt, keys, name), func(t *testing.T) {
					got := run(t, p, cat).CanonicalRows()
					if !slices.Equal(got, want) {
						t.Fatalf("%d rows, naive %d; first difference %s", len(got), len(want), firstDiff(got, want))
					}
				})
			}
		}
	}
}

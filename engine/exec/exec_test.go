//go:build engine

package exec

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/engine/hash"
	"github.com/bucketlint/bucketlint/engine/store"
	"github.com/bucketlint/bucketlint/plan"
)

func typ(tb testing.TB, s string) hash.Type {
	tb.Helper()
	ty, err := hash.ParseType(s)
	if err != nil {
		tb.Fatal(err)
	}
	return ty
}

// fixture writes tables a(k bigint, a string, x int) and b(k bigint, y double, z string)
// with NULLs, duplicate and Zipf-skewed keys, in the given layouts, and returns a catalog.
type fixture struct {
	cat  *Catalog
	a, b *store.Table
}

func newFixture(tb testing.TB, seed uint64, rowsA, rowsB int, la, lb store.Layout) *fixture {
	tb.Helper()
	ga := store.GenSpec{Rows: rowsA, Seed: seed, Columns: []store.GenColumn{
		{Name: "k", Type: typ(tb, "bigint"), Cardinality: 60, Zipf: 1.3, NullFraction: 0.05},
		{Name: "a", Type: typ(tb, "string"), Cardinality: 7, NullFraction: 0.1},
		{Name: "x", Type: typ(tb, "int"), Cardinality: 20, NullFraction: 0.1},
	}}
	gb := store.GenSpec{Rows: rowsB, Seed: seed + 100, Columns: []store.GenColumn{
		{Name: "k", Type: typ(tb, "bigint"), Cardinality: 80, NullFraction: 0.05},
		{Name: "y", Type: typ(tb, "double"), Cardinality: 30, NullFraction: 0.1},
		{Name: "z", Type: typ(tb, "string"), Cardinality: 5},
	}}
	f := &fixture{cat: NewCatalog()}
	dir := tb.TempDir()
	for _, x := range []struct {
		name string
		g    store.GenSpec
		l    store.Layout
		dst  **store.Table
	}{{"a", ga, la, &f.a}, {"b", gb, lb, &f.b}} {
		data, err := store.Generate(x.g)
		if err != nil {
			tb.Fatal(err)
		}
		tab, err := store.Write(context.Background(), filepath.Join(dir, x.name), x.g.Schema(), data, x.l, store.WriteOptions{})
		if err != nil {
			tb.Fatal(err)
		}
		*x.dst = tab
		f.cat.Add(x.name, tab)
	}
	return f
}

func run(tb testing.TB, root plan.Node, cat *Catalog) *Result {
	tb.Helper()
	res, err := Execute(context.Background(), root, cat, Options{})
	if err != nil {
		tb.Fatal(err)
	}
	return res
}

func bucketed(n int, cols ...string) store.Layout {
	return store.Layout{Buckets: n, BucketColumns: cols}
}

var joinTypes = []string{"Inner", "LeftOuter", "RightOuter", "FullOuter", "LeftSemi", "LeftAnti"}

func TestJoinsAgainstNaive(t *testing.T) {
	t.Parallel()
	for seed := uint64(1); seed <= 3; seed++ {
		f := newFixture(t, seed, 700, 500, bucketed(8, "k"), bucketed(8, "k"))
		l := relationOf(t, f.a, []string{"k", "a", "x"})
		r := relationOf(t, f.b, []string{"k", "y", "z"})
		sa, sb := fileScan("a", true, "k", "a", "x"), fileScan("b", true, "k", "y", "z")
		ua, ub := fileScan("a", false, "k", "a", "x"), fileScan("b", false, "k", "y", "z")
		for _, jt := range joinTypes {
			want := naiveJoin(jt, l, r, []int{0}, []int{0}).canonical()
			plans := map[string]plan.Node{
				"bucket_local_smj": joinNode(plan.SortMergeJoinStrategy, jt, "", []string{"k"}, []string{"k"}, sortNode(sa, "k"), sortNode(sb, "k")),
				"shuffled_smj": joinNode(plan.SortMergeJoinStrategy, jt, "", []string{"k"}, []string{"k"},
					sortNode(exchange(ua, 5, "k"), "k"), sortNode(exchange(ub, 5, "k"), "k")),
				"one_side_shuffled": joinNode(plan.SortMergeJoinStrategy, jt, "", []string{"k"}, []string{"k"}, sa, exchange(ub, 8, "k")),
				"shj_build_left":    joinNode(plan.ShuffledHashJoinStrategy, jt, "BuildLeft", []string{"k"}, []string{"k"}, sa, sb),
				"shj_build_right":   joinNode(plan.ShuffledHashJoinStrategy, jt, "BuildRight", []string{"k"}, []string{"k"}, exchange(ua, 3, "k"), exchange(ub, 3, "k")),
			}
			if jt != "RightOuter" && jt != "FullOuter" {
				plans["bhj_build_right"] = joinNode(plan.BroadcastHashJoinStrategy, jt, "BuildRight", []string{"k"}, []string{"k"}, ua, broadcast(ub))
			}
			if jt == "Inner" || jt == "RightOuter" {
				plans["bhj_build_left"] = joinNode(plan.BroadcastHashJoinStrategy, jt, "BuildLeft", []string{"k"}, []string{"k"}, broadcast(ua), ub)
			}
			for name, p := range plans {
				t.Run(fmt.Sprintf("seed%d/%s/%s", seed, jt, name), func(t *testing.T) {
					got := run(t, p, f.cat).CanonicalRows()
					if !slices.Equal(got, want) {
						t.Fatalf("%d rows, naive %d; first difference %s", len(got), len(want), firstDiff(got, want))
					}
				})
			}
		}
	}
}

func TestBucketLocalJoinEqualsShuffledJoin(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 9, 3000, 2000, bucketed(16, "k"), bucketed(16, "k"))
	local := run(t, joinNode(plan.SortMergeJoinStrategy, "Inner", "", []string{"k"}, []string{"k"},
		fileScan("a", true, "k", "a", "x"), fileScan("b", true, "k", "y", "z")), f.cat)
	shuffled := run(t, joinNode(plan.SortMergeJoinStrategy, "Inner", "", []string{"k"}, []string{"k"},
		exchange(fileScan("a", false, "k", "a", "x"), 16, "k"), exchange(fileScan("b", false, "k", "y", "z"), 16, "k")), f.cat)
	if err := EqualRows(local, shuffled); err != nil {
		t.Fatal(err)
	}
	if local.Checksum() != shuffled.Checksum() || local.NumRows() == 0 {
		t.Fatalf("checksums %s and %s", local.Checksum(), shuffled.Checksum())
	}
	if local.Stats.Exchanges != 0 || shuffled.Stats.Exchanges != 2 || shuffled.Stats.ShuffledRows != 5000 || shuffled.Stats.ShuffledBytes <= 0 {
		t.Fatalf("stats local %+v shuffled %+v", local.Stats, shuffled.Stats)
	}
}

func TestWrongLayoutGivesWrongResults(t *testing.T) {
	t.Parallel()
	// b is bucketed on z, not k, but the plan reads both as bucketed on k: bucket i of a meets
	// rows of b that belong elsewhere, and the bucket-local join loses rows.
	f := newFixture(t, 4, 2000, 2000, bucketed(8, "k"), bucketed(8, "z"))
	local := run(t, joinNode(plan.SortMergeJoinStrategy, "Inner", "", []string{"k"}, []string{"k"},
		fileScan("a", true, "k", "a", "x"), fileScan("b", true, "k", "y", "z")), f.cat)
	shuffled := run(t, joinNode(plan.SortMergeJoinStrategy, "Inner", "", []string{"k"}, []string{"k"},
		exchange(fileScan("a", false, "k", "a", "x"), 8, "k"), exchange(fileScan("b", false, "k", "y", "z"), 8, "k")), f.cat)
	if err := EqualRows(local, shuffled); err == nil {
		t.Fatal("a join over a wrong layout returned the right rows")
	}
	if local.Checksum() == shuffled.Checksum() {
		t.Fatal("checksums agree for different results")
	}
}

func TestExchangePartitionsAreBuckets(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 5, 1500, 10, store.Layout{}, store.Layout{})
	res := run(t, exchange(fileScan("a", false, "k", "a", "x"), 7, "k"), f.cat)
	if res.Stats.Exchanges != 1 || res.Stats.ShuffledRows != 1500 {
		t.Fatalf("stats %+v", res.Stats)
	}
	var h store.Hasher
	for _, b := range res.Rows {
		ids := make([]int32, b.Len)
		h.Buckets(ids, b.Cols[:1], b.Len, 7)
		for _, id := range ids[1:] {
			if id != ids[0] {
				t.Fatalf("partition mixes buckets %d and %d", ids[0], id)
			}
		}
	}
}

func TestAggregatesAgainstNaive(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 6, 2500, 10, bucketed(4, "k"), store.Layout{})
	rel := relationOf(t, f.a, []string{"k", "a", "x"})
	fns := []string{"count", "count", "sum", "min", "max", "avg", "min"}
	args := []int{-1, 2, 2, 1, 2, 2, 2}
	texts := []string{"count(1)", "count(x)", "sum(x)", "min(a)", "max(x)", "avg(x)", "min(x)"}
	types := []hash.Type{typ(t, "bigint"), typ(t, "bigint"), typ(t, "bigint"), typ(t, "string"), typ(t, "int"), typ(t, "double"), typ(t, "int")}
	agg := func(mode plan.AggregateMode, prefix string, child plan.Node, keys ...string) *plan.HashAggregate {
		return hashAgg(mode, prefix, keys, texts, child)
	}
	scanA := fileScan("a", false, "k", "a", "x")
	cases := map[string]struct {
		root plan.Node
		keys []int
	}{
		"two_phase_shuffled":           {agg(plan.FinalAggregate, "", exchange(agg(plan.PartialAggregate, "partial_", scanA, "a"), 6, "a"), "a"), []int{1}},
		"bucketed_no_shuffle":          {agg(plan.FinalAggregate, "", agg(plan.PartialAggregate, "partial_", fileScan("a", true, "k", "a", "x"), "k"), "k"), []int{0}},
		"bucketed_no_shuffle_two_keys": {agg(plan.FinalAggregate, "", agg(plan.PartialAggregate, "partial_", fileScan("a", true, "k", "a", "x"), "k", "a"), "a", "k"), []int{1, 0}},
		"complete":                     {agg(plan.CompleteAggregate, "", exchange(scanA, 3, "k", "a"), "k", "a"), []int{0, 1}},
		"global": {agg(plan.FinalAggregate, "", &plan.Exchange{
			OpInfo:       plan.OpInfo{Name: "Exchange", Kids: []plan.Node{agg(plan.PartialAggregate, "partial_", scanA)}},
			Partitioning: plan.Partitioning{Kind: plan.SinglePartition},
		}), nil},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			want := naiveGroup(rel, c.keys, fns, args, types).canonical()
			got := run(t, c.root, f.cat).CanonicalRows()
			if !slices.Equal(got, want) {
				t.Fatalf("%d groups, naive %d; first difference %s", len(got), len(want), firstDiff(got, want))
			}
		})
	}
}

func TestFiltersAgainstNaive(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 7, 1200, 10, store.Layout{}, store.Layout{})
	rel := relationOf(t, f.a, []string{"k", "a", "x"})
	cases := map[string]func(r []cell) bool{
		"(isnotnull(x#3) AND (x#3 > 5))":          func(r []cell) bool { return !r[2].null && r[2].i > 5 },
		"a IN ('v1', 'v2')":                       func(r []cell) bool { return !r[1].null && (r[1].s == "v1" || r[1].s == "v2") },
		"NOT (x = 3)":                             func(r []cell) bool { return !r[2].null && r[2].i != 3 },
		"((x < 10) OR isnull(a))":                 func(r []cell) bool { return (!r[2].null && r[2].i < 10) || r[1].null },
		"((k >= 2) AND (k <= 5)) AND (a != 'v3')": func(r []cell) bool { return !r[0].null && r[0].i >= 2 && r[0].i <= 5 && !r[1].null && r[1].s != "v3" },
		"(x <=> k)":                               func(r []cell) bool { return (r[2].null && r[0].null) || (!r[2].null && !r[0].null && r[2].i == r[0].i) },
		"NOT x IN (1, 2, null)":                   func([]cell) bool { return false },
		"isnull(x) OR x IN (4, 5)":                func(r []cell) bool { return r[2].null || r[2].i == 4 || r[2].i == 5 },
	}
	for cond, keep := range cases {
		t.Run(cond, func(t *testing.T) {
			t.Parallel()
			root := &plan.Filter{
				OpInfo:    plan.OpInfo{Name: "Filter", Kids: []plan.Node{fileScan("a", false, "k", "a", "x")}},
				Condition: px(cond),
			}
			got := run(t, root, f.cat).CanonicalRows()
			want := filterRows(rel, keep).canonical()
			if !slices.Equal(got, want) {
				t.Fatalf("%d rows, naive %d; first difference %s", len(got), len(want), firstDiff(got, want))
			}
		})
	}
}

func TestUnsupportedExpressionIsAClearError(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 8, 10, 10, store.Layout{}, store.Layout{})
	root := &plan.Filter{
		OpInfo:    plan.OpInfo{Name: "Filter", Kids: []plan.Node{fileScan("a", false, "k", "a", "x")}},
		Condition: px("((x + 1) > 3)"),
	}
	_, err := Execute(context.Background(), root, f.cat, Options{})
	if err == nil || !strings.Contains(err.Error(), "Filter") || !strings.Contains(err.Error(), "+") {
		t.Fatalf("err = %v", err)
	}
}

func TestMemoryBudgetIsAnError(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 10, 20000, 20000, store.Layout{}, store.Layout{})
	root := joinNode(plan.ShuffledHashJoinStrategy, "Inner", "BuildRight", []string{"k"}, []string{"k"},
		exchange(fileScan("a", false, "k", "a", "x"), 2, "k"), exchange(fileScan("b", false, "k", "y", "z"), 2, "k"))
	_, err := Execute(context.Background(), root, f.cat, Options{MemoryBudget: 64 << 10})
	if !errors.Is(err, ErrMemoryBudget) {
		t.Fatalf("err = %v, want ErrMemoryBudget", err)
	}
}

func TestSortOrdersPartitions(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 11, 900, 10, bucketed(3, "k"), store.Layout{})
	root := &plan.Sort{
		OpInfo: plan.OpInfo{Name: "Sort", Kids: []plan.Node{fileScan("a", true, "k", "a", "x")}},
		Orders: []plan.SortOrder{{Expr: attr("a"), Desc: true}, {Expr: attr("x"), NullsFirst: true}},
	}
	res := run(t, root, f.cat)
	for _, b := range res.Rows {
		for i := 1; i < b.Len; i++ {
			a0, a1 := b.Cols[1], b.Cols[1]
			d := 0
			switch {
			case a0.IsNull(i-1) && !a1.IsNull(i):
				t.Fatalf("NULL a before a value with NULLS LAST at row %d", i)
			case !a0.IsNull(i-1) && !a1.IsNull(i):
				d = -store.Compare(a0, i-1, a1, i)
			}
			if d > 0 || (d == 0 && a0.IsNull(i-1) == a1.IsNull(i) && store.Compare(b.Cols[2], i-1, b.Cols[2], i) > 0) {
				t.Fatalf("rows %d and %d out of order", i-1, i)
			}
		}
	}
	if res.NumRows() != 900 {
		t.Fatalf("%d rows", res.NumRows())
	}
}

func TestUnionAndProject(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 12, 300, 200, store.Layout{}, store.Layout{})
	proj := func(child plan.Node, exprs ...string) *plan.ProjectExec {
		p := &plan.ProjectExec{OpInfo: plan.OpInfo{Name: "Project", Kids: []plan.Node{child}}}
		for _, e := range exprs {
			ex := px(e)
			if !strings.Contains(e, " AS ") {
				ex = attr(e)
			}
			p.Exprs = append(p.Exprs, ex)
		}
		return p
	}
	root := &plan.Union{OpInfo: plan.OpInfo{Name: "Union", Kids: []plan.Node{
		proj(fileScan("a", false, "k", "a", "x"), "k", "a#2 AS s#9"),
		proj(fileScan("b", false, "k", "y", "z"), "k", "z"),
	}}}
	res := run(t, root, f.cat)
	if res.NumRows() != 500 || len(res.Schema) != 2 || res.Schema[1].Name != "s" {
		t.Fatalf("%d rows, schema %v", res.NumRows(), res.Schema)
	}
	l := relationOf(t, f.a, []string{"k", "a"})
	r := relationOf(t, f.b, []string{"k", "z"})
	want := relation{types: l.types, rows: append(l.rows, r.rows...)}.canonical()
	if got := res.CanonicalRows(); !slices.Equal(got, want) {
		t.Fatalf("first difference %s", firstDiff(got, want))
	}
}

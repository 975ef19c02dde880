//go:build engine

package exec

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/bucketlint/bucketlint/engine/store"
	"github.com/bucketlint/bucketlint/plan"
)

// codedVec returns a vector of n rows drawn from dict (NULL where the draw is len(dict)),
// with the dictionary codes a Parquet reader gives it; dict may repeat a value under two
// codes, which the reader allows.
func codedVec(tb testing.TB, r *rand.Rand, ty string, dict []string, n int) *store.Vec {
	tb.Helper()
	v := store.NewVec(typ(tb, ty), n)
	for range n {
		c := r.IntN(len(dict) + 1)
		if c == len(dict) {
			v.AppendNull()
		} else if err := store.AppendParsed(v, dict[c]); err != nil {
			tb.Fatal(err)
		}
		v.Codes = append(v.Codes, int32(c))
	}
	v.DictLen = len(dict)
	return v
}

// TestGroupCodedAgrees: grouping a coded key column (bigint and string, with NULLs, with and
// without a value repeated under two codes) numbers the groups exactly as grouping the same
// values without codes, batch after batch.
func TestGroupCodedAgrees(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(7, 7))
	for _, c := range []struct {
		ty  string
		dup bool
	}{{"bigint", true}, {"string", true}, {"bigint", false}, {"string", false}} {
		ty := c.ty
		var dict []string
		for i := range 40 {
			dict = append(dict, fmt.Sprint(i*7919%1000))
		}
		if c.dup {
			dict = append(dict, dict[3]) // the same value under two codes
		}
		col := schema{{Name: "k", Type: typ(t, ty)}}
		coded, plain := newGroupTable(col), newGroupTable(col)
		for b := range 5 {
			v := codedVec(t, r, ty, dict, 300+b*50)
			if !v.HasCodes() {
				t.Fatal("no codes")
			}
			w := store.NewVec(v.Type, v.Len())
			w.AppendRows(v, nil)
			n := v.Len()
			g1, g2 := make([]int32, n), make([]int32, n)
			coded.assign([]*store.Vec{v}, n, g1)
			plain.assign([]*store.Vec{w}, n, g2)
			for i := range n {
				if g1[i] != g2[i] {
					t.Fatalf("%s batch %d row %d: group %d, want %d", ty, b, i, g1[i], g2[i])
				}
			}
		}
		if coded.groups() != plain.groups() {
			t.Fatalf("%s: %d groups, want %d", ty, coded.groups(), plain.groups())
		}
	}
}

// codedTables opens the tables of engine/testdata/coded (see engine/store's
// TestCodedFixtures): the same rows (k bigint, s string, v bigint) stored dictionary-encoded
// ("_dict", which the reader gives codes) and not ("_plain"), for a probe side p of 5,000 rows
// (with NULL keys when nulls is set) and a build side b of 400.
func codedTables(t *testing.T, nulls bool) *Catalog {
	t.Helper()
	sc, err := store.ParseSchema("k bigint, s string, v bigint")
	if err != nil {
		t.Fatal(err)
	}
	probe := "p_nonulls"
	if nulls {
		probe = "p_nulls"
	}
	cat := NewCatalog()
	for _, kind := range []string{"dict", "plain"} {
		for name, dir := range map[string]string{"p": probe, "b": "b_nulls"} {
			tab, err := store.Open(filepath.Join("../testdata/coded", dir+"_"+kind), sc, store.Layout{})
			if err != nil {
				t.Fatal(err)
			}
			cat.Add(name+"_"+kind, tab)
		}
	}
	return cat
}

// TestCodedJoinsAndAggregatesAgree runs joins of every type (the probe side scanned with
// dictionary codes on a bigint and on a string key) and aggregations grouped by a coded key
// over the same rows stored with and without dictionary encoding: the same results.
func TestCodedJoinsAndAggregatesAgree(t *testing.T) {
	t.Parallel()
	for _, nulls := range []bool{true, false} {
		checkCodedAgree(t, codedTables(t, nulls))
	}
}

func checkCodedAgree(t *testing.T, probe *Catalog) {
	t.Helper()
	run := func(kind string, root plan.Node) *Result {
		t.Helper()
		res, err := Execute(context.Background(), root, probe, Options{Parallelism: 1})
		if err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		return res
	}
	for _, key := range []string{"k", "s"} {
		for _, jt := range []string{"Inner", "LeftOuter", "LeftSemi", "LeftAnti"} {
			plans := map[string]plan.Node{}
			for _, kind := range []string{"dict", "plain"} {
				l := fileScan("p_"+kind, false, "k", "s", "v")
				r := broadcast(fileScan("b_"+kind, false, "k", "s", "v"))
				plans[kind] = joinNode(plan.BroadcastHashJoinStrategy, jt, "BuildRight", []string{key}, []string{key}, l, r)
			}
			if err := EqualRows(run("dict", plans["dict"]), run("plain", plans["plain"])); err != nil {
				t.Errorf("%s join on %s: %v", jt, key, err)
			}
		}
		plans := map[string]plan.Node{}
		for _, kind := range []string{"dict", "plain"} {
			a := &plan.HashAggregate{OpInfo: plan.OpInfo{Name: "HashAggregate", Kids: []plan.Node{fileScan("p_"+kind, false, "k", "s", "v")}}}
			a.Mode, a.Keys = plan.PartialAggregate, attrs(key)
			a.Functions = []plan.Expr{px("partial_count(1)"), px("partial_sum(v)")}
			plans[kind] = a
		}
		if err := EqualRows(run("dict", plans["dict"]), run("plain", plans["plain"])); err != nil {
			t.Errorf("aggregation on %s: %v", key, err)
		}
	}
}

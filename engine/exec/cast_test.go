//go:build engine

package exec

import (
	"slices"
	"testing"

	"github.com/bucketlint/bucketlint/engine/store"
	"github.com/bucketlint/bucketlint/plan"
)

func castExpr(col, to string) plan.Expr {
	raw := "cast(" + col + "#3 as " + to + ")"
	return px(raw)
}

// TestCastKeyJoinMeetsBucketedSide joins a.x (int) with b.k (bigint, bucketed into 8): Spark
// shuffles a on cast(x as bigint) into 8 partitions and reads b bucket by bucket. The cast
// key must hash as a bigint (hashLong), or rows land in the wrong partitions and the join
// loses them.
func TestCastKeyJoinMeetsBucketedSide(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 13, 900, 700, store.Layout{}, bucketed(8, "k"))
	l := relationOf(t, f.a, []string{"k", "a", "x"})
	r := relationOf(t, f.b, []string{"k", "y", "z"})
	want := naiveJoin("Inner", l, r, []int{2}, []int{0}).canonical()
	cx := castExpr("x", "bigint")
	ex := exchange(fileScan("a", false, "k", "a", "x"), 8)
	ex.Partitioning.Keys = []plan.Expr{cx}
	left := &plan.Sort{OpInfo: plan.OpInfo{Name: "Sort", Kids: []plan.Node{ex}}, Orders: []plan.SortOrder{{Expr: cx, NullsFirst: true}}}
	j := joinNode(plan.SortMergeJoinStrategy, "Inner", "", nil, []string{"k"}, left, sortNode(fileScan("b", true, "k", "y", "z"), "k")).(*plan.SortMergeJoin)
	j.LeftKeys = []plan.Expr{cx}
	got := run(t, j, f.cat)
	if rows := got.CanonicalRows(); !slices.Equal(rows, want) || len(want) == 0 {
		t.Fatalf("%d rows, naive %d; first difference %s", len(rows), len(want), firstDiff(rows, want))
	}
	// Hashing the int as an int instead misplaces rows: the same plan without the cast loses some.
	ex.Partitioning.Keys = attrs("x")
	if bad := run(t, j, f.cat).CanonicalRows(); slices.Equal(bad, want) {
		t.Fatal("an int-hashed shuffle met the bigint buckets without losing rows")
	}
}

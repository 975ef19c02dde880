//go:build engine

package exec

import (
	"context"
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/plan"
)

// TestQualifiedNames: column references written with a table qualifier, as a query writes
// them (ta.x, sum(ta.x), a.k), resolve as the unqualified column when exactly one column has
// that name, and are an error naming the reference when several have (the two sides of a
// join).
func TestQualifiedNames(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 11, 1500, 300, bucketed(4, "k"), bucketed(4, "k"))
	build := func(q func(string) string) plan.Node {
		j := joinNode(plan.SortMergeJoinStrategy, "Inner", "", []string{q("ta.k")}, []string{q("tb.k")},
			sortNode(fileScan("a", true, "k", "a", "x"), q("ta.k")), sortNode(fileScan("b", true, "k", "y", "z"), q("tb.k")))
		cond := q("(ta.x > 3) AND (tb.z <> 'ta.x') AND isnotnull(ta.a)")
		fl := &plan.Filter{OpInfo: plan.OpInfo{Name: "Filter", Kids: []plan.Node{j}}, Condition: px(cond)}
		agg := func(mode plan.AggregateMode, prefix string, child plan.Node) *plan.HashAggregate {
			return hashAgg(mode, prefix, []string{q("tb.z")}, []string{"count(1)", q("sum(ta.x)"), q("max(tb.y)")}, child)
		}
		return agg(plan.FinalAggregate, "", exchange(agg(plan.PartialAggregate, "partial_", fl), 3, q("tb.z")))
	}
	bare := func(s string) string { return strings.NewReplacer("ta.", "", "tb.", "").Replace(s) }
	keep := func(s string) string { return s }
	want := run(t, build(bare), f.cat)
	got := run(t, build(keep), f.cat)
	if err := EqualRows(got, want); err != nil || want.NumRows() == 0 {
		t.Fatalf("qualified names change the result (%d rows): %v", want.NumRows(), err)
	}

	// ta.k above the join matches the k of both sides.
	j := joinNode(plan.BroadcastHashJoinStrategy, "Inner", "right", []string{"k"}, []string{"k"},
		fileScan("a", false, "k", "a", "x"), broadcast(fileScan("b", false, "k", "y", "z")))
	fl := &plan.Filter{OpInfo: plan.OpInfo{Name: "Filter", Kids: []plan.Node{j}}, Condition: px("(ta.k > 3)")}
	if _, err := Execute(context.Background(), fl, f.cat, Options{}); err == nil || !strings.Contains(err.Error(), "ta.k") || !strings.Contains(err.Error(), "ambiguous") {
		t.Fatalf("ambiguous qualified name: error %v", err)
	}
}

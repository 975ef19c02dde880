package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// A PlanComparison is a predicted physical plan set against the one Spark printed: join
// strategies, the Exchanges and Sorts on every join side with partition counts, total
// Exchanges and Sorts, and bucketed scans.
type PlanComparison struct {
	// Predicted summarises the predicted plan.
	Predicted PlanShape
	// Diffs are the differences, one sentence each: "exchanges: predicted 1, Spark 2".
	Diffs []string
}

// A PlanShape is what a comparison looks at in one plan.
type PlanShape struct {
	// Exchanges counts the shuffle Exchanges (not broadcasts, not reused ones).
	Exchanges int
	Sorts     int
	// Bucketed counts the file scans read as bucketed.
	Bucketed int
	// Partitions are the Exchanges' partition counts, in tree order.
	Partitions []int
	// Joins are, per join in tree order, its strategy and what sits on each side:
	// "SortMergeJoin left [Exchange(200) Sort] right [Sort]".
	Joins []string
}

// ComparePlans compares a predicted plan with the plan Spark printed in e: the initial plan
// of an adaptive plan (the one the planner made before any stage ran), else its effective
// plan, else the physical plan.
func ComparePlans(e *plan.Explain, predicted plan.Node) *PlanComparison {
	actual := e.Physical()
	if a, ok := actual.(*plan.AdaptiveSparkPlan); ok {
		if ini := a.Sub("Initial Plan"); ini != nil {
			actual = ini
		} else if eff := a.Effective(); eff != nil {
			actual = eff
		}
	}
	want, got := shapeOf(actual), shapeOf(predicted)
	c := &PlanComparison{Predicted: got}
	if want.Exchanges != got.Exchanges {
		c.Diffs = append(c.Diffs, fmt.Sprintf("exchanges: predicted %d, Spark %d", got.Exchanges, want.Exchanges))
	}
	if want.Sorts != got.Sorts {
		c.Diffs = append(c.Diffs, fmt.Sprintf("sorts: predicted %d, Spark %d", got.Sorts, want.Sorts))
	}
	if want.Bucketed != got.Bucketed {
		c.Diffs = append(c.Diffs, fmt.Sprintf("bucketed scans: predicted %d, Spark %d", got.Bucketed, want.Bucketed))
	}
	if fmt.Sprint(want.Partitions) != fmt.Sprint(got.Partitions) {
		c.Diffs = append(c.Diffs, fmt.Sprintf("shuffle partition counts: predicted %v, Spark %v", got.Partitions, want.Partitions))
	}
	for i := 0; i < max(len(want.Joins), len(got.Joins)); i++ {
		var w, g string
		if i < len(want.Joins) {
			w = want.Joins[i]
		}
		if i < len(got.Joins) {
			g = got.Joins[i]
		}
		if w != g {
			c.Diffs = append(c.Diffs, fmt.Sprintf("join %d: predicted %s, Spark %s", i+1, orNoJoin(g), orNoJoin(w)))
		}
	}
	return c
}

// WriteComparison writes a comparison under a heading naming the explain file: every
// difference, or that the prediction matches.
func WriteComparison(w io.Writer, file string, c *PlanComparison) error {
	var b strings.Builder
	fmt.Fprintf(&b, "\n== Compared with %s ==\n", file)
	if len(c.Diffs) == 0 {
		got := c.Predicted
		fmt.Fprintf(&b, "the prediction matches: %d exchanges, %d sorts, %d bucketed scans, joins %v\n", got.Exchanges, got.Sorts, got.Bucketed, got.Joins)
	}
	for _, d := range c.Diffs {
		b.WriteString(d + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func orNoJoin(s string) string {
	if s == "" {
		return "no join"
	}
	return s
}

// shapeOf summarises a plan for comparison: shuffle Exchanges, Sorts, bucketed scans, the
// shuffles' partition counts, and per join its strategy and what is inserted on each side.
func shapeOf(root plan.Node) PlanShape {
	var s PlanShape
	plan.Walk(root, func(n plan.Node) bool {
		switch x := n.(type) {
		case *plan.Exchange:
			s.Exchanges++
			s.Partitions = append(s.Partitions, x.Partitioning.NumPartitions)
		case *plan.Sort:
			s.Sorts++
		case *plan.FileScan:
			if isBucketedScan(x) {
				s.Bucketed++
			}
		}
		if j, ok := plan.JoinOf(n); ok && len(n.Children()) == 2 {
			s.Joins = append(s.Joins, fmt.Sprintf("%s left %s right %s", j.Strategy, sideOps(n.Children()[0]), sideOps(n.Children()[1])))
		}
		return true
	})
	return s
}

// sideOps lists the Exchanges, Sorts and broadcasts on one side of a join, down to the next
// join: "[Exchange(200) Sort]".
func sideOps(n plan.Node) string {
	var parts []string
	var rec func(n plan.Node)
	rec = func(n plan.Node) {
		switch x := n.(type) {
		case *plan.Exchange:
			parts = append(parts, "Exchange("+strconv.Itoa(x.Partitioning.NumPartitions)+")")
		case *plan.Sort:
			parts = append(parts, "Sort")
		case *plan.BroadcastExchange:
			parts = append(parts, "BroadcastExchange")
		}
		if _, ok := plan.JoinOf(n); ok {
			return
		}
		for _, k := range n.Children() {
			rec(k)
		}
	}
	rec(n)
	if len(parts) == 0 {
		return "[]"
	}
	return "[" + strings.Join(parts, " ") + "]"
}

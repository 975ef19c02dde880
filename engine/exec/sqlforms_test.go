//go:build engine

package exec

import (
	"testing"

	"github.com/bucketlint/bucketlint/engine/store"
	"github.com/bucketlint/bucketlint/plan"
)

// TestSQLFormsOfConditions: the SQL forms of conditions a predicted plan carries as the query
// wrote them (IS [NOT] NULL, [NOT] BETWEEN, NOT IN) select the same rows as the forms Spark
// prints.
func TestSQLFormsOfConditions(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 13, 2000, 10, store.Layout{}, store.Layout{})
	filter := func(cond string) plan.Node {
		return &plan.Filter{OpInfo: plan.OpInfo{Name: "Filter", Kids: []plan.Node{fileScan("a", false, "k", "a", "x")}}, Condition: px(cond)}
	}
	for sqlForm, printed := range map[string]string{
		"x IS NOT NULL":                "isnotnull(x#3)",
		"a IS NULL":                    "isnull(a#2)",
		"x BETWEEN 3 AND 7":            "((x#3 >= 3) AND (x#3 <= 7))",
		"x NOT BETWEEN 3 AND 7":        "NOT ((x#3 >= 3) AND (x#3 <= 7))",
		"x NOT IN (1, 2, 3) AND k > 4": "(NOT x#3 IN (1,2,3) AND (k#1L > 4))",
		"NOT (x IS NULL) OR k = 1":     "(isnotnull(x#3) OR (k#1L = 1))",
	} {
		got, want := run(t, filter(sqlForm), f.cat), run(t, filter(printed), f.cat)
		if err := EqualRows(got, want); err != nil || want.NumRows() == 0 {
			t.Errorf("%s vs %s (%d rows): %v", sqlForm, printed, want.NumRows(), err)
		}
	}
}

//go:build engine

package exec

import (
	"testing"

	"github.com/bucketlint/bucketlint/engine/store"
	"github.com/bucketlint/bucketlint/parser/explain"
)

// FuzzPredicate checks that any condition text, read into a tree by parser/explain, compiles
// or fails cleanly, and that a compiled condition evaluates without panicking.
func FuzzPredicate(f *testing.F) {
	for _, s := range []string{
		"(isnotnull(x#3) AND (x#3 > 5))", "a IN ('v1', 'v2')", "NOT (x = 3)", "((x < 10) OR isnull(a))",
		"(x <=> k)", "NOT x IN (1, 2, null)", "(a = 'it''s')", "((k >= 2) AND (k <= 5)) AND (a != 'v3')", "((k#1L >= 2) AND (a#2 != v3))", "x BETWEEN 1 AND 3", "x NOT IN (1, 2)", "(", "'", "x IN (",
	} {
		f.Add(s)
	}
	cols := schema{{Name: "k", Type: typ(f, "bigint")}, {Name: "a", Type: typ(f, "string")}, {Name: "x", Type: typ(f, "int")}, {Name: "d", Type: typ(f, "double")}}
	b := store.NewBatch(cols.types(), 3)
	for i := range 3 {
		b.Cols[0].AppendInt(int64(i))
		b.Cols[1].AppendString("v1")
		b.Cols[2].AppendNull()
		b.Cols[3].AppendFloat(float64(i) / 2)
	}
	b.Len = 3
	f.Fuzz(func(t *testing.T, s string) {
		p, err := compilePredicate(explain.ParseExpr(s).Tree(), cols)
		if err != nil {
			return
		}
		if got := p.eval(b); len(got) != 3 {
			t.Fatalf("eval returned %d values", len(got))
		}
	})
}

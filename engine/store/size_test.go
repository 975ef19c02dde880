//go:build engine

package store

import "testing"

// TestEstimateBytes checks the estimate against what Generate really holds, for fixed-width
// and string columns with NULLs.
func TestEstimateBytes(t *testing.T) {
	g := GenSpec{Rows: 200_000, Seed: 5, Columns: []GenColumn{
		{Name: "k", Type: mustType(t, "bigint")},
		{Name: "s", Type: mustType(t, "string"), NullFraction: 0.1},
		{Name: "d", Type: mustType(t, "date"), Cardinality: 30},
	}}
	est, err := g.EstimateBytes()
	if err != nil {
		t.Fatal(err)
	}
	b, err := Generate(g)
	if err != nil {
		t.Fatal(err)
	}
	held := b.MemBytes()
	if est < held*8/10 || est > held*12/10 {
		t.Fatalf("estimate %d bytes, Generate holds %d", est, held)
	}
}

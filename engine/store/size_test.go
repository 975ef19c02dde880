package store

import "testing"

func TestFormatBytes(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 1023: "1023 B", 1024: "1.0 KiB", 10_000_000: "9.5 MiB", 3 << 30: "3.0 GiB"} {
		if got := FormatBytes(n); got != want {
			t.Errorf("FormatBytes(%d) = %q, want %q", n, got, want)
		}
	}
}

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

package sql

import "testing"

func TestWeight(t *testing.T) {
	t.Parallel()
	p, err := New()
	if err != nil {
		t.Fatal(err)
	}
	for src, want := range map[string]float64{
		"-- weight: 3\nSELECT 1 FROM t":                         3,
		"SELECT 1 FROM t -- Weight = 2.5":                       2.5,
		"/* weight:4 */ SELECT 1 FROM t":                        4,
		"SELECT '-- weight: 9' FROM t":                          0,
		"-- the weight: 3 is not at the start\nSELECT 1 FROM t": 0,
		"-- weight: 0\nSELECT 1 FROM t":                         0,
		"-- weight: x\nSELECT 1 FROM t":                         0,
		"SELECT 1 FROM t":                                       0,
	} {
		f, errs := p.ParseFile("q.sql", []byte(src))
		if len(errs) > 0 || len(f.Queries) != 1 {
			t.Fatalf("%q: %v", src, errs)
		}
		if got := f.Queries[0].Weight; got != want {
			t.Errorf("%q: weight %v, want %v", src, got, want)
		}
	}
}

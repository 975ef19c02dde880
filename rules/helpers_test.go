package rules

import (
	"testing"

	"github.com/bucketlint/bucketlint/parser/code"
	"github.com/bucketlint/bucketlint/plan"
)

func cols(names ...string) []plan.ColumnRef {
	out := make([]plan.ColumnRef, len(names))
	for i, n := range names {
		out[i] = plan.ColumnRef{Text: n, Column: n}
	}
	return out
}

func TestMatchKeys(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		bucket []string
		keys   []plan.ColumnRef
		want   keyMatch
	}{
		{"no bucket spec", nil, cols("a"), notBucketed},
		{"same column", []string{"a"}, cols("a"), exactKeys},
		{"same set in another order", []string{"a", "b"}, cols("b", "a"), exactKeys},
		{"case differs", []string{"A"}, cols("a"), exactKeys},
		{"duplicate join key", []string{"a"}, cols("a", "a"), exactKeys},
		{"bucket columns a subset of the keys", []string{"a"}, cols("a", "b"), subsetKeys},
		{"bucket columns a superset of the keys", []string{"a", "b"}, cols("a"), supersetKeys},
		{"disjoint", []string{"region"}, cols("id"), differentKeys},
		{"expression key", []string{"a"}, []plan.ColumnRef{{Text: "a + 1"}}, differentKeys},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := matchKeys(tc.bucket, tc.keys); got != tc.want {
				t.Errorf("matchKeys(%v, %v) = %v, want %v", tc.bucket, tc.keys, got, tc.want)
			}
		})
	}
}

func TestIdLike(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]bool{
		"id": true, "customer_id": true, "userId": true, "session_uuid": true, "order_key": true,
		"dt": false, "date": false, "valid": false, "region": false, "paid": false,
	} {
		if got := idLike(name); got != want {
			t.Errorf("idLike(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestRecommendedBuckets(t *testing.T) {
	t.Parallel()
	th := Thresholds{}.WithDefaults()
	for _, tc := range []struct {
		name  string
		size  int64
		cores int
		max   int
		want  int
	}{
		{"tiny table", 1 << 20, 0, 100000, 1},
		{"1 GiB", 1 << 30, 0, 100000, 4},
		{"rounded up to a power of two", 5 << 30, 0, 100000, 32},
		{"at least the cores", 64 << 30, 512, 100000, 512},
		{"cores ignored when buckets would be tiny", 1 << 30, 512, 100000, 4},
		{"capped", 1 << 50, 0, 1000, 1000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			th := th
			th.ClusterCores = tc.cores
			if got := recommendedBuckets(tc.size, th, tc.max); got != tc.want {
				t.Errorf("recommendedBuckets(%d) = %d, want %d", tc.size, got, tc.want)
			}
		})
	}
}

func TestLookup(t *testing.T) {
	t.Parallel()
	a, b, c := &plan.Table{Name: "default.a"}, &plan.Table{Name: "sales.orders"}, &plan.Table{Name: "x.orders"}
	tables := map[string]*plan.Table{"default.a": a, "sales.orders": b}
	for _, tc := range []struct {
		name string
		want *plan.Table
	}{
		{"spark_catalog.default.a", a}, {"a", a}, {"A", a}, {"sales.orders", b}, {"orders", b}, {"nope", nil},
	} {
		if got := lookup(tables, tc.name); got != tc.want {
			t.Errorf("lookup(%q) = %v, want %v", tc.name, got, tc.want)
		}
	}
	tables["x.orders"] = c
	if got := lookup(tables, "orders"); got != nil {
		t.Errorf("lookup of an ambiguous last name part = %v, want nil", got)
	}
}

func TestFindingSpans(t *testing.T) {
	t.Parallel()
	src := `spark.conf.set("spark.sql.sources.bucketing.enabled", "false")` + "\n"
	f, _ := code.Parse("f.py", []byte(src))
	if len(f.Confs) != 1 {
		t.Fatalf("confs %v", f.Confs)
	}
	p := &Pass{}
	if got := p.settingSpan(f.Confs[0]); got.Start.Col != 16 || got.End.Col != 62 {
		t.Errorf("settingSpan ends at column %d, want 62 (after the value's quote)", got.End.Col)
	}
	keys := []plan.ColumnRef{
		{Text: `"user_id"`, Pos: plan.Pos{File: "f.py", Line: 3, Col: 10}},
		{Text: `"event_id"`, Pos: plan.Pos{File: "f.py", Line: 3, Col: 21}},
	}
	if got := keysSpan(keys); got.Start.Col != 10 || got.End.Col != 31 {
		t.Errorf("keysSpan = %v-%v, want columns 10-31", got.Start, got.End)
	}
}

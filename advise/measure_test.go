package advise

import (
	"sort"
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/parser/sql"
	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
)

// measures is a Measure look-up from a table of measured shuffles, "join lineitem,orders"
// (tables in name order) or "aggregate t(b)" to bytes.
func measures(m map[string]int64) func(Shuffled) (Measure, bool) {
	return func(s Shuffled) (Measure, bool) {
		names := append([]string(nil), s.Tables...)
		sort.Strings(names)
		k := s.What + " " + strings.Join(names, ",")
		if s.What == "aggregate" {
			k += "(" + strings.Join(s.Keys[0], ",") + ")"
		}
		b, ok := m[k]
		return Measure{Bytes: b, Runs: 3}, ok
	}
}

// TestMeasuredBytesOrderJoins: orders joins customers (weight 10, 43 GiB) and lineitem
// (weight 2, 130 GiB); by the guesses the customers join is served first and orders keeps
// its customer_id bucketing; when the event logs measured the lineitem join's shuffles at
// 5 TB and the customers join's at 1 GB, orders is bucketed on order_id, its advice ranked
// first with the measured bytes it removes, and the fixes say which were measured.
func TestMeasuredBytesOrderJoins(t *testing.T) {
	tables, wl := adviseFixture(t)
	opt := Options{Spark: simulate.Options{SparkVersion: simulate.Version{Major: 3, Minor: 5}}, ClusterCores: 64, PowerOfTwo: true}
	guessed := byTable(Advise(tables, wl, opt))
	if r := guessed["orders"]; r.Bucket == nil || r.Bucket.Columns[0] != "customer_id" || r.Evidence || r.MeasuredBytes != 0 {
		t.Fatalf("by the guesses, orders: %+v", r)
	}
	opt.Measure = measures(map[string]int64{"join lineitem,orders": 5e12, "join customers,orders": 1e9})
	recs := Advise(tables, wl, opt)
	got := byTable(recs)
	r := got["orders"]
	if r.Bucket == nil || r.Bucket.Columns[0] != "order_id" || !r.Evidence || r.MeasuredBytes != 5e12 {
		t.Fatalf("by the measured bytes, orders: %+v", r)
	}
	if recs[0].MeasuredBytes != 5e12 {
		t.Errorf("first recommendation %s removes %d measured bytes, want the 5 TB join first", recs[0].Table, recs[0].MeasuredBytes)
	}
	for _, rec := range recs {
		if !rec.Evidence {
			t.Errorf("%s: not marked as weighed by event logs", rec.Table)
		}
		for _, f := range rec.Fixes {
			measured := f.What == "join" && (strings.Join(f.Tables, ",") == "orders,lineitem" || strings.Join(f.Tables, ",") == "lineitem,orders")
			if (f.Measured != nil) != measured {
				t.Errorf("%s: %s measured %+v", rec.Table, f, f.Measured)
			}
		}
	}
}

// TestMeasuredBytesChooseGrouping: t is grouped by a (weight 5) and by b (weight 1); by the
// guesses it is bucketed on a, by the event logs (b's aggregation shuffled 1 TB, a's 1 GB) on
// b, and the reason gives the measured bytes instead of the weight.
func TestMeasuredBytesChooseGrouping(t *testing.T) {
	p, err := sql.New()
	if err != nil {
		t.Fatal(err)
	}
	f, errs := p.ParseFile("ddl.sql", []byte("CREATE TABLE t (a INT, b INT, v DOUBLE) USING parquet;"))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	tables := map[string]*plan.Table{"t": f.Tables[0]}
	f.Tables[0].SizeInBytes = 100 << 30
	var wl []WeightedQuery
	for _, q := range []struct {
		sql string
		w   float64
	}{{"SELECT a, sum(v) FROM t GROUP BY a", 5}, {"SELECT b, sum(v) FROM t GROUP BY b", 1}} {
		qf, errs := p.ParseFile("q.sql", []byte(q.sql))
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		wl = append(wl, WeightedQuery{Query: qf.Queries[0], Weight: q.w})
	}
	opt := Options{Spark: simulate.Options{SparkVersion: simulate.Version{Major: 3, Minor: 5}}}
	if r := byTable(Advise(tables, wl, opt))["t"]; r.Bucket == nil || r.Bucket.Columns[0] != "a" || !strings.Contains(r.Reason, "weight 5") {
		t.Fatalf("by the guesses: %+v", r)
	}
	opt.Measure = measures(map[string]int64{"aggregate t(b)": 1 << 40, "aggregate t(a)": 1 << 30})
	r := byTable(Advise(tables, wl, opt))["t"]
	if r.Bucket == nil || r.Bucket.Columns[0] != "b" || r.MeasuredBytes != 1<<40 || !strings.Contains(r.Reason, "measured: its shuffles wrote 1.0 TiB in the event logs") {
		t.Fatalf("by the measured bytes: %+v", r)
	}
}

package sql

import (
	"reflect"
	"testing"

	"github.com/bucketlint/bucketlint/plan"
)

// TestWindowSpecs checks the parts of OVER clauses a simulator prints Spark's window
// expressions from: arguments, the select item the call is, and explicit frames.
func TestWindowSpecs(t *testing.T) {
	t.Parallel()
	p, err := New()
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		fn       string
		args     []string
		distinct bool
		item     int
		frame    *plan.WindowFrame
	}
	for _, c := range []struct {
		name, sql string
		want      []want
	}{
		{
			"default_frames", "SELECT k, sum(amount) OVER (PARTITION BY k) AS total, row_number() OVER (PARTITION BY k ORDER BY t) FROM t",
			[]want{{"sum", []string{"amount"}, false, 2, nil}, {"row_number", nil, false, 3, nil}},
		},
		{
			"count_star_and_distinct", "SELECT count(*) OVER (PARTITION BY k), count(DISTINCT v) OVER (PARTITION BY k) c FROM t",
			[]want{{"count", []string{"*"}, false, 1, nil}, {"count", []string{"v"}, true, 2, nil}},
		},
		{
			"nested_call_is_no_item", "SELECT sum(v) OVER (PARTITION BY k) / 2 AS half, 1 + rank() OVER (ORDER BY v) FROM t",
			[]want{{"sum", []string{"v"}, false, 0, nil}, {"rank", nil, false, 0, nil}},
		},
		{
			"rows_between", "SELECT sum(v) OVER (PARTITION BY k ORDER BY t ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) s FROM t",
			[]want{{"sum", []string{"v"}, false, 1, &plan.WindowFrame{Rows: true, Start: "2 PRECEDING", End: "CURRENT ROW"}}},
		},
		{
			"range_whole", "SELECT avg(v) over (partition by k order by t range between unbounded preceding and unbounded following) FROM t",
			[]want{{"avg", []string{"v"}, false, 1, &plan.WindowFrame{Start: "UNBOUNDED PRECEDING", End: "UNBOUNDED FOLLOWING"}}},
		},
		{
			"single_bound", "SELECT max(v) OVER (ORDER BY t ROWS UNBOUNDED PRECEDING) FROM t",
			[]want{{"max", []string{"v"}, false, 1, &plan.WindowFrame{Rows: true, Start: "UNBOUNDED PRECEDING", End: "CURRENT ROW"}}},
		},
		{
			"named_window", "SELECT lag(v, 2) OVER w FROM t WINDOW w AS (PARTITION BY k ORDER BY t)",
			[]want{{"lag", []string{"v", "2"}, false, 1, nil}},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f, errs := p.ParseFile("q.sql", []byte(c.sql+";\n"))
			if len(errs) > 0 || len(f.Queries) != 1 {
				t.Fatalf("parse: %v", errs)
			}
			ws := f.Queries[0].Root.Select.Windows
			if len(ws) != len(c.want) {
				t.Fatalf("%d windows, want %d", len(ws), len(c.want))
			}
			for i, w := range ws {
				frame := w.Frame
				if frame != nil {
					// The bounds' trees are checked by TestFrameBounds.
					f := *frame
					f.StartX, f.EndX = nil, nil
					frame = &f
				}
				got := want{w.Function, w.Args, w.Distinct, w.Item, frame}
				if !reflect.DeepEqual(got, c.want[i]) {
					t.Errorf("window %d = %+v (frame %+v), want %+v (frame %+v)", i, got, got.frame, c.want[i], c.want[i].frame)
				}
			}
		})
	}
}

// TestFrameBounds checks a frame bound's tree as Spark prints it in a SpecifiedWindowFrame.
func TestFrameBounds(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"UNBOUNDED PRECEDING": "unboundedpreceding$()", "CURRENT ROW": "currentrow$()",
		"UNBOUNDED FOLLOWING": "unboundedfollowing$()", "2 PRECEDING": "-2", "3 FOLLOWING": "3",
		"INTERVAL '1' DAY PRECEDING": "-(interval '1' day)",
	} {
		if got := boundX(in).Raw; got != want {
			t.Errorf("boundX(%q) = %q, want %q", in, got, want)
		}
	}
}

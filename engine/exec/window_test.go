//go:build engine

package exec

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/engine/hash"
	"github.com/bucketlint/bucketlint/engine/store"
	"github.com/bucketlint/bucketlint/parser/sql"
	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
)

// naiveWindow evaluates one window function row by row: for each row it scans the whole
// relation for the rows of its window partition (equal keys, NULLs equal) and the rows of
// its frame. Rows are ordered by the single order key ord (ascending, NULLs first) when ord
// is not -1. It returns the relation's rows each extended with the function's value, with
// row_number assigned in the order of a stable sort (tied rows differ only in columns the
// callers leave out of the comparison).
func naiveWindow(rel relation, keys []int, ord int, fn string, arg int, whole bool) [][]cell {
	order := func(a, b []cell) int {
		if ord < 0 {
			return 0
		}
		return cmpCell(a[ord], b[ord])
	}
	return naiveWindowBy(rel, keys, order, fn, arg, whole)
}

// naiveWindowBy is naiveWindow with rows ordered by order (0 for peers).
func naiveWindowBy(rel relation, keys []int, order func(a, b []cell) int, fn string, arg int, whole bool) [][]cell {
	same := func(a, b []cell, cols []int) bool {
		for _, c := range cols {
			if a[c].null != b[c].null || (!a[c].null && cmpCell(a[c], b[c]) != 0) {
				return false
			}
		}
		return true
	}
	sorted := slices.Clone(rel.rows)
	slices.SortStableFunc(sorted, order)
	var out [][]cell
	for _, row := range sorted {
		var part, frame [][]cell
		rn := int64(0)
		rank, dense := int64(1), int64(1)
		var seenLess [][]cell
		for _, o := range sorted {
			if !same(row, o, keys) {
				continue
			}
			part = append(part, o)
			c := order(o, row)
			if whole || c <= 0 {
				frame = append(frame, o)
			}
			if c < 0 {
				rank++
				if !slices.ContainsFunc(seenLess, func(s []cell) bool { return order(s, o) == 0 }) {
					seenLess = append(seenLess, o)
					dense++
				}
			}
		}
		for _, o := range part {
			if c := order(o, row); c < 0 || (c == 0 && &o[0] != &row[0]) {
				rn++
			} else if &o[0] == &row[0] {
				rn++
				break
			}
		}
		var v cell
		switch fn {
		case "row_number":
			v = cell{i: rn}
		case "rank":
			v = cell{i: rank}
		case "dense_rank":
			v = cell{i: dense}
		default:
			v = naiveAgg(fn, frame, arg, rel.types)
		}
		out = append(out, append(slices.Clone(row), v))
	}
	return out
}

// projected renders the given columns of rows as canonical text, sorted.
func projected(types []hash.Type, rows [][]cell, cols []int) []string {
	r := relation{}
	for _, c := range cols {
		r.types = append(r.types, types[c])
	}
	for _, row := range rows {
		var p []cell
		for _, c := range cols {
			p = append(p, row[c])
		}
		r.rows = append(r.rows, p)
	}
	return r.canonical()
}

func resultProjected(res *Result, cols []int) []string {
	var out []string
	var buf []byte
	for _, b := range res.Rows {
		vecs := make([]*store.Vec, len(cols))
		for i, c := range cols {
			vecs[i] = b.Cols[c]
		}
		for r := range b.Len {
			buf = AppendCanonical(buf[:0], vecs, r)
			out = append(out, string(buf))
		}
	}
	slices.Sort(out)
	return out
}

func windowNode(child plan.Node, keys []string, order string, exprs ...string) *plan.Window {
	w := &plan.Window{OpInfo: plan.OpInfo{Name: "Window", Kids: []plan.Node{child}}, PartitionKeys: attrs(keys...)}
	if order != "" {
		w.Orders = []plan.SortOrder{{Expr: attr(order), NullsFirst: true}}
	}
	for _, e := range exprs {
		w.Exprs = append(w.Exprs, px(e))
	}
	return w
}

const (
	frameRowsRunning = "specifiedwindowframe(RowFrame, unboundedpreceding$(), currentrow$())"
	frameRangeRun    = "specifiedwindowframe(RangeFrame, unboundedpreceding$(), currentrow$())"
	frameRowsWhole   = "specifiedwindowframe(RowFrame, unboundedpreceding$(), unboundedfollowing$())"
	frameRangeWhole  = "specifiedwindowframe(RangeFrame, unboundedpreceding$(), unboundedfollowing$())"
)

// windowExprText writes the window expression text (an explain's) of function fn written
// text, partitioned by keys and, when ordered, ordered by x, with the frame Spark gives it
// (the whole partition when whole), named w plus the letter of i.
func windowExprText(fn, text string, whole bool, keys []string, ordered bool, i int) string {
	var spec []string
	for _, k := range keys {
		spec = append(spec, k+"#1")
	}
	frame := frameRowsWhole
	switch {
	case ordered && whole:
		frame = frameRangeWhole
	case ordered && (fn == "row_number" || fn == "rank" || fn == "dense_rank"):
		frame = frameRowsRunning
	case ordered:
		frame = frameRangeRun
	}
	if ordered {
		spec = append(spec, "x#3 ASC NULLS FIRST")
	}
	spec = append(spec, frame)
	return text + " windowspecdefinition(" + strings.Join(spec, ", ") + ") AS w" + string(rune('a'+i)) + "#9"
}

func TestWindowAgainstNaive(t *testing.T) {
	t.Parallel()
	// a(k bigint, a string, x int): NULL and duplicate keys and values, 4 buckets by k.
	f := newFixture(t, 21, 1500, 10, bucketed(4, "k"), store.Layout{})
	rel := relationOf(t, f.a, []string{"k", "a", "x"})
	type fnCase struct {
		fn    string
		arg   int
		text  string
		whole bool
	}
	ordered := []fnCase{
		{"row_number", -1, "row_number()", false},
		{"rank", -1, "rank(x#3)", false},
		{"dense_rank", -1, "dense_rank(x#3)", false},
		{"count", -1, "count(1)", false},
		{"count", 2, "count(x#3)", false},
		{"count", 1, "count(a#2)", false},
		{"sum", 2, "sum(x#3)", false},
		{"min", 2, "min(x#3)", false},
		{"max", 1, "max(a#2)", false},
		{"min", 1, "min(a#2)", false},
		{"avg", 2, "avg(x#3)", false},
		{"sum", 2, "sum(x#3)", true},
		{"max", 2, "max(x#3)", true},
		{"count", 1, "count(a#2)", true},
		{"avg", 2, "avg(x#3)", true},
	}
	unordered := []fnCase{
		{"count", -1, "count(1)", true},
		{"sum", 2, "sum(x#3)", true},
		{"min", 1, "min(a#2)", true},
		{"max", 2, "max(x#3)", true},
		{"avg", 2, "avg(x#3)", true},
		{"count", 2, "count(x#3)", true},
	}
	exprText := func(c fnCase, keys []string, ordered bool, i int) string {
		return windowExprText(c.fn, c.text, c.whole, keys, ordered, i)
	}
	sortBy := func(child plan.Node, keys []string, ordered bool) plan.Node {
		if ordered {
			keys = append(slices.Clone(keys), "x")
		}
		return sortNode(child, keys...)
	}
	children := map[string]func(keys []string, ordered bool) plan.Node{
		"bucketed": func(keys []string, ordered bool) plan.Node {
			return sortBy(fileScan("a", true, "k", "a", "x"), keys, ordered)
		},
		"shuffled": func(keys []string, ordered bool) plan.Node {
			return sortBy(exchange(fileScan("a", false, "k", "a", "x"), 5, keys...), keys, ordered)
		},
	}
	for cname, child := range children {
		for _, ord := range []bool{true, false} {
			cases := unordered
			order := ""
			if ord {
				cases, order = ordered, "x"
			}
			var texts []string
			for i, c := range cases {
				texts = append(texts, exprText(c, []string{"k"}, ord, i))
			}
			name := cname + map[bool]string{true: "_ordered", false: "_whole"}[ord]
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				res := run(t, windowNode(child([]string{"k"}, ord), []string{"k"}, order, texts...), f.cat)
				if len(res.Schema) != 3+len(cases) {
					t.Fatalf("schema %v", res.Schema)
				}
				ordCol := -1
				if ord {
					ordCol = 2
				}
				for i, c := range cases {
					want := projected(append(slices.Clone(rel.types), res.Schema[3+i].Type),
						naiveWindow(rel, []int{0}, ordCol, c.fn, c.arg, c.whole), []int{0, 2, 3})
					got := resultProjected(res, []int{0, 2, 3 + i})
					if !slices.Equal(got, want) {
						t.Fatalf("%s: %d rows, naive %d; first difference %s", texts[i], len(got), len(want), firstDiff(got, want))
					}
				}
				// Every input row comes out once, unchanged.
				if got, want := resultProjected(res, []int{0, 1, 2}), projected(rel.types, rel.rows, []int{0, 1, 2}); !slices.Equal(got, want) {
					t.Fatalf("input rows changed: %s", firstDiff(got, want))
				}
			})
		}
	}
	t.Run("no_partition_keys", func(t *testing.T) {
		t.Parallel()
		gather := &plan.Exchange{
			OpInfo:       plan.OpInfo{Name: "Exchange", Kids: []plan.Node{fileScan("a", false, "k", "a", "x")}},
			Partitioning: plan.Partitioning{Kind: plan.SinglePartition},
		}
		c := fnCase{"rank", -1, "rank(x#3)", false}
		root := windowNode(sortNode(gather, "x"), nil, "x", exprText(c, nil, true, 0))
		res := run(t, root, f.cat)
		want := projected(append(slices.Clone(rel.types), res.Schema[3].Type), naiveWindow(rel, nil, 2, "rank", -1, false), []int{2, 3})
		if got := resultProjected(res, []int{2, 3}); !slices.Equal(got, want) {
			t.Fatalf("first difference %s", firstDiff(got, want))
		}
	})
}

func TestWindowUnsupportedIsAClearError(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 22, 50, 10, bucketed(4, "k"), store.Layout{})
	for _, e := range []string{
		"sum(x#3) windowspecdefinition(k#1, x#3 ASC NULLS FIRST, specifiedwindowframe(RowFrame, -1, 1)) AS s#9L",
		"sum(x#3) windowspecdefinition(k#1, x#3 ASC NULLS FIRST, specifiedwindowframe(RowFrame, unboundedpreceding$(), currentrow$())) AS s#9L",
		"lag(x#3, 1, null) windowspecdefinition(k#1, x#3 ASC NULLS FIRST, specifiedwindowframe(RowFrame, -1, -1)) AS l#9",
		"sum",
		"sum((x#3 + 1)) windowspecdefinition(k#1, x#3 ASC NULLS FIRST, specifiedwindowframe(RangeFrame, unboundedpreceding$(), currentrow$())) AS s#9L",
	} {
		root := windowNode(sortNode(fileScan("a", true, "k", "a", "x"), "k", "x"), []string{"k"}, "x", e)
		_, err := Execute(context.Background(), root, f.cat, Options{})
		if err == nil || !strings.Contains(err.Error(), "Window") || !strings.Contains(err.Error(), e) {
			t.Fatalf("%s: err = %v", e, err)
		}
	}
}

// TestSimulatedWindowPlan runs the plan simulate predicts for a row_number query over
// a table bucketed by the window's partition key (no Exchange, a Sort under the Window).
func TestSimulatedWindowPlan(t *testing.T) {
	t.Parallel()
	g := store.GenSpec{Rows: 1200, Seed: 23, Columns: []store.GenColumn{
		{Name: "k", Type: typ(t, "bigint"), Cardinality: 40, Zipf: 1.2, NullFraction: 0.05},
		{Name: "v", Type: typ(t, "int"), Cardinality: 15, NullFraction: 0.1},
	}}
	data, err := store.Generate(g)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := store.Write(context.Background(), t.TempDir(), g.Schema(), data, bucketed(8, "k"), store.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cat := NewCatalog()
	cat.Add("t", tab)
	p, err := sql.New()
	if err != nil {
		t.Fatal(err)
	}
	src := "CREATE TABLE t (k bigint, v int) USING parquet CLUSTERED BY (k) INTO 8 BUCKETS;\n" +
		"SELECT k, v, row_number() OVER (PARTITION BY k ORDER BY v) FROM t;\n"
	f, errs := p.ParseFile("q.sql", []byte(src))
	if len(errs) > 0 || len(f.Queries) != 1 {
		t.Fatalf("parse: %v", errs)
	}
	decl := map[string]*plan.Table{}
	for _, tb := range f.Tables {
		decl[tb.Name] = tb
	}
	v, _ := simulate.ParseVersion("3.5")
	sim, err := simulate.Simulate(decl, f.Queries[0], simulate.Options{SparkVersion: v})
	if err != nil {
		t.Fatal(err)
	}
	if sim.Exchanges != 0 {
		t.Fatalf("simulate predicts %d exchanges", sim.Exchanges)
	}
	res := run(t, sim.Plan, cat)
	rel := relationOf(t, tab, []string{"k", "v"})
	want := projected(append(slices.Clone(rel.types), typ(t, "int")), naiveWindow(rel, []int{0}, 1, "row_number", -1, false), []int{0, 1, 2})
	if got := res.CanonicalRows(); !slices.Equal(got, want) {
		t.Fatalf("%d rows, naive %d; first difference %s", len(got), len(want), firstDiff(got, want))
	}
}

// TestWindowParsesSparkForms reads window expressions as Spark 3.5 prints them (taken from
// fixtures/spark/3.5/aggregates/window_*).
func TestWindowParsesSparkForms(t *testing.T) {
	t.Parallel()
	in := schema{
		{Name: "a", ID: "29", Type: typ(t, "int")},
		{Name: "s", ID: "25", Type: typ(t, "bigint")},
		{Name: "v", ID: "28", Type: typ(t, "decimal(10,2)")},
	}
	for _, c := range []struct {
		raw     string
		ordered bool
		op      string
		whole   bool
		out     string
	}{
		{"rank(s#25L) windowspecdefinition(a#29, s#25L ASC NULLS FIRST, specifiedwindowframe(RowFrame, unboundedpreceding$(), currentrow$())) AS r#26", true, "rank", false, "int"},
		{"row_number() windowspecdefinition(v#28 ASC NULLS FIRST, a#29 ASC NULLS FIRST, specifiedwindowframe(RowFrame, unboundedpreceding$(), currentrow$())) AS rn#25", true, "row_number", false, "int"},
		{"sum(v#28) windowspecdefinition(a#29, specifiedwindowframe(RowFrame, unboundedpreceding$(), unboundedfollowing$())) AS s#25L", false, "sum", true, "decimal(20,2)"},
		{"avg(s#25L) windowspecdefinition(a#29, s#25L DESC NULLS LAST, specifiedwindowframe(RangeFrame, unboundedpreceding$(), currentrow$())) AS m#30", true, "avg", false, "double"},
	} {
		f, err := compileWinFunc(px(c.raw).Tree(), in, c.ordered)
		if err != nil {
			t.Fatalf("%s: %v", c.raw, err)
		}
		if f.op != c.op || f.whole != c.whole || f.out.Type != typ(t, c.out) {
			t.Fatalf("%s: got %+v", c.raw, f)
		}
	}
}

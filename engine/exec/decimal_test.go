//go:build engine

package exec

import (
	"context"
	"fmt"
	"math/big"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/engine/hash"
	"github.com/bucketlint/bucketlint/engine/store"
	"github.com/bucketlint/bucketlint/plan"
)

// decimalFixture writes da(k decimal(20,2), amt decimal(38,6), n decimal(9,2)) and
// db(k decimal(20,2), m decimal(28,4)), both bucketed on k, and returns the catalog and
// da's rows as text.
func decimalFixture(t *testing.T) (*Catalog, [][]string) {
	t.Helper()
	col := func(name, ty string, card int, nulls float64) store.GenColumn {
		return store.GenColumn{Name: name, Type: typ(t, ty), Cardinality: card, NullFraction: nulls}
	}
	specs := []struct {
		name string
		g    store.GenSpec
	}{
		{"da", store.GenSpec{Rows: 3000, Seed: 5, Columns: []store.GenColumn{
			col("k", "decimal(20,2)", 150, 0.03), col("amt", "decimal(38,6)", 900, 0.1), col("n", "decimal(9,2)", 40, 0.05),
		}}},
		{"db", store.GenSpec{Rows: 2000, Seed: 6, Columns: []store.GenColumn{
			col("k", "decimal(20,2)", 200, 0.03), col("m", "decimal(28,4)", 500, 0.1),
		}}},
	}
	cat := NewCatalog()
	var rows [][]string
	for _, s := range specs {
		data, err := store.Generate(s.g)
		if err != nil {
			t.Fatal(err)
		}
		layout := store.Layout{Buckets: 6, BucketColumns: []string{"k"}}
		tab, err := store.Write(context.Background(), filepath.Join(t.TempDir(), s.name), s.g.Schema(), data, layout, store.WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		cat.Add(s.name, tab)
		if s.name == "da" {
			for r := range data.Len {
				var row []string
				for _, c := range data.Cols {
					row = append(row, string(store.AppendText(nil, c, r)))
				}
				rows = append(rows, row)
			}
		}
	}
	return cat, rows
}

// hashAgg is a HashAggregate in mode over child, grouping by keys and computing fns (as
// Spark prints them, without the mode's prefix).
func hashAgg(mode plan.AggregateMode, prefix string, keys []string, fns []string, child plan.Node) *plan.HashAggregate {
	a := &plan.HashAggregate{OpInfo: plan.OpInfo{Name: "HashAggregate", Kids: []plan.Node{child}}}
	a.Mode, a.Keys = mode, attrs(keys...)
	for _, f := range fns {
		a.Functions = append(a.Functions, px(prefix+f))
	}
	return a
}

// unscaledOf parses decimal text into its unscaled value at scale.
func unscaledOf(t *testing.T, s string, scale int) *big.Int {
	t.Helper()
	v, err := hash.ParseValue(hash.DecimalType(38, scale), s)
	if err != nil {
		t.Fatal(err)
	}
	return v.Unscaled()
}

// TestWideDecimalAggregate groups da by its decimal(20,2) key bucket by bucket and through
// an Exchange, and checks count, sum, min, max and avg of decimal(38,6) and sum and avg of
// decimal(9,2) against big-number arithmetic, with Spark's result types.
func TestWideDecimalAggregate(t *testing.T) {
	t.Parallel()
	cat, rows := decimalFixture(t)
	fns := []string{"count(1)", "sum(amt)", "min(amt)", "max(amt)", "avg(amt)", "sum(n)", "avg(n)"}
	local := hashAgg(plan.FinalAggregate, "", []string{"k"}, fns,
		hashAgg(plan.PartialAggregate, "partial_", []string{"k"}, fns, fileScan("da", true, "k", "amt", "n")))
	shuffled := hashAgg(plan.FinalAggregate, "", []string{"k"}, fns,
		exchange(hashAgg(plan.PartialAggregate, "partial_", []string{"k"}, fns, fileScan("da", false, "k", "amt", "n")), 5, "k"))
	res := run(t, local, cat)
	wantTypes := []string{"decimal(20,2)", "bigint", "decimal(38,6)", "decimal(38,6)", "decimal(38,6)", "decimal(38,10)", "decimal(19,2)", "decimal(13,6)"}
	for i, c := range res.Schema {
		if c.Type.String() != wantTypes[i] {
			t.Errorf("column %d (%s) has type %s, want %s", i, c.Name, c.Type, wantTypes[i])
		}
	}
	if err := EqualRows(res, run(t, shuffled, cat)); err != nil {
		t.Fatalf("bucket-local and shuffled aggregates differ: %v", err)
	}
	type acc struct {
		count          int64
		sum, min, max  *big.Int
		nSum           *big.Int
		amtRows, nRows int64
	}
	groups := map[string]*acc{}
	for _, r := range rows {
		g := groups[r[0]]
		if g == nil {
			g = &acc{nSum: new(big.Int), sum: new(big.Int)}
			groups[r[0]] = g
		}
		g.count++
		if r[1] != hash.NullText {
			x := unscaledOf(t, r[1], 6)
			g.sum.Add(g.sum, x)
			if g.min == nil || x.Cmp(g.min) < 0 {
				g.min = x
			}
			if g.max == nil || x.Cmp(g.max) > 0 {
				g.max = x
			}
			g.amtRows++
		}
		if r[2] != hash.NullText {
			g.nSum.Add(g.nSum, unscaledOf(t, r[2], 2))
			g.nRows++
		}
	}
	text := func(v *big.Int, scale int) string {
		if v == nil {
			return hash.NullText
		}
		x, _ := hash.Int128FromBig(v)
		return string(x.AppendDecimal(nil, scale))
	}
	// avg is the exact mean rounded half up to scale+4.
	avg := func(sum *big.Int, n int64, scale int) string {
		if n == 0 {
			return hash.NullText
		}
		q := new(big.Int).Mul(sum, pow10Big(4))
		divRoundHalfUp(q, q, big.NewInt(n))
		return text(q, scale+4)
	}
	var want []string
	for k, g := range groups {
		sum, nSum := g.sum, g.nSum
		if g.amtRows == 0 {
			sum = nil
		}
		if g.nRows == 0 {
			nSum = nil
		}
		want = append(want, strings.Join([]string{
			k, fmt.Sprint(g.count), text(sum, 6), text(g.min, 6), text(g.max, 6),
			avg(g.sum, g.amtRows, 6), text(nSum, 2), avg(g.nSum, g.nRows, 2),
		}, "\x1f"))
	}
	slices.Sort(want)
	if got := res.CanonicalRows(); !slices.Equal(got, want) {
		t.Fatalf("%d groups, want %d; first difference %s", len(got), len(want), firstDiff(got, want))
	}
}

// TestWideDecimalJoinFilterSort joins on the decimal(20,2) bucket key (sort-merge and
// shuffled hash, bucket-local and shuffled, and da with itself), filters with decimal
// literals and sorts by a decimal(38,6) column.
func TestWideDecimalJoinFilterSort(t *testing.T) {
	t.Parallel()
	cat, rows := decimalFixture(t)
	checkDecimalKeyJoins(t, cat)
	checkDecimalSelfJoin(t, cat, rows)
	checkDecimalFilters(t, cat, rows)
	checkDecimalSort(t, cat)
}

// checkDecimalKeyJoins joins on the decimal(20,2) bucket key, da with db and with itself:
// bucket-local and shuffled sort-merge joins and a shuffled hash join agree.
func checkDecimalKeyJoins(t *testing.T, cat *Catalog) {
	t.Helper()
	smj := func(sh bool, l, r string, lc, rc []string) plan.Node {
		scan := func(tab string, cols []string) plan.Node {
			if sh {
				return sortNode(exchange(fileScan(tab, false, cols...), 4, "k"), "k")
			}
			return sortNode(fileScan(tab, true, cols...), "k")
		}
		return joinNode(plan.SortMergeJoinStrategy, "Inner", "", []string{"k"}, []string{"k"}, scan(l, lc), scan(r, rc))
	}
	for _, c := range []struct{ l, r string }{{"da", "db"}, {"da", "da"}} {
		rc := []string{"k", "m"}
		if c.r == "da" {
			rc = []string{"k", "amt"}
		}
		local := run(t, smj(false, c.l, c.r, []string{"k", "amt"}, rc), cat)
		if local.Stats.Exchanges != 0 || local.NumRows() == 0 {
			t.Fatalf("%s join %s: %d exchanges, %d rows", c.l, c.r, local.Stats.Exchanges, local.NumRows())
		}
		if err := EqualRows(local, run(t, smj(true, c.l, c.r, []string{"k", "amt"}, rc), cat)); err != nil {
			t.Fatalf("%s join %s: bucket-local and shuffled differ: %v", c.l, c.r, err)
		}
		hj := joinNode(plan.ShuffledHashJoinStrategy, "Inner", "right", []string{"k"}, []string{"k"},
			fileScan(c.l, true, "k", "amt"), fileScan(c.r, true, rc...))
		if err := EqualRows(local, run(t, hj, cat)); err != nil {
			t.Fatalf("%s join %s: sort-merge and hash joins differ: %v", c.l, c.r, err)
		}
	}
}

// checkDecimalSelfJoin self-joins da on the decimal(38,6) column through Exchanges on it.
func checkDecimalSelfJoin(t *testing.T, cat *Catalog, rows [][]string) {
	t.Helper()
	self := joinNode(plan.SortMergeJoinStrategy, "Inner", "", []string{"amt"}, []string{"amt"},
		sortNode(exchange(fileScan("da", false, "amt"), 4, "amt"), "amt"), sortNode(exchange(fileScan("da", false, "amt"), 4, "amt"), "amt"))
	counts := map[string]int64{}
	for _, r := range rows {
		if r[1] != hash.NullText {
			counts[r[1]]++
		}
	}
	var pairs int64
	for _, n := range counts {
		pairs += n * n
	}
	if got := run(t, self, cat).NumRows(); got != pairs {
		t.Fatalf("self join on amt: %d rows, want %d", got, pairs)
	}
}

// checkDecimalFilters filters da with decimal literals on either side of a comparison and
// on the bucket key.
func checkDecimalFilters(t *testing.T, cat *Catalog, rows [][]string) {
	t.Helper()
	threshold := unscaledOf(t, "100000000000000.5", 6)
	for _, cond := range []string{"(amt#2 > 100000000000000.5)", "(100000000000000.5 < amt#2)"} {
		f := &plan.Filter{OpInfo: plan.OpInfo{Name: "Filter", Kids: []plan.Node{fileScan("da", false, "k", "amt", "n")}}, Condition: px(cond)}
		var want int64
		for _, r := range rows {
			if r[1] != hash.NullText && unscaledOf(t, r[1], 6).Cmp(threshold) > 0 {
				want++
			}
		}
		if got := run(t, f, cat).NumRows(); got != want || want == 0 {
			t.Fatalf("%s: %d rows, want %d", cond, got, want)
		}
	}
	key := rows[0][0]
	f := &plan.Filter{
		OpInfo:    plan.OpInfo{Name: "Filter", Kids: []plan.Node{fileScan("da", false, "k", "amt")}},
		Condition: px("(k = " + key + "BD)"),
	}
	var want int64
	for _, r := range rows {
		if r[0] == key {
			want++
		}
	}
	if got := run(t, f, cat).NumRows(); got != want {
		t.Fatalf("k = %s: %d rows, want %d", key, got, want)
	}
}

// checkDecimalSort sorts da by the decimal(38,6) column: NULLs first, then ascending.
func checkDecimalSort(t *testing.T, cat *Catalog) {
	t.Helper()
	sorted := run(t, sortNode(exchange(fileScan("da", false, "amt"), 1, "amt"), "amt"), cat)
	var prev *big.Int
	for _, b := range sorted.Rows {
		for r := range b.Len {
			if b.Cols[0].IsNull(r) {
				if prev != nil {
					t.Fatal("NULL after a value in ascending NULLS FIRST order")
				}
				continue
			}
			x := b.Cols[0].Wide[r].Big()
			if prev != nil && prev.Cmp(x) > 0 {
				t.Fatalf("sort: %s before %s", prev, x)
			}
			prev = x
		}
	}
}

// TestDecimalSumOverflowIsNull checks Spark's non-ANSI overflow: a decimal(38,0) sum that
// leaves 38 digits is NULL, whether it overflows in one aggregate or only when the partial
// sums merge, and avg over it is NULL too; a group that stays in range is exact.
func TestDecimalSumOverflowIsNull(t *testing.T) {
	t.Parallel()
	ty := typ(t, "decimal(38,0)")
	schema := store.Schema{{Name: "g", Type: typ(t, "int")}, {Name: "v", Type: ty}}
	data := store.NewBatch(schema.Types(), 0)
	big37 := strings.Repeat("9", 37) // 10^37 - 1: ten of them overflow 38 digits
	for i := range 40 {
		g := i % 2
		v := big37
		if g == 1 && i%4 == 3 {
			v = "-" + big37 // group 1 alternates signs and stays in range
		}
		data.Cols[0].AppendInt(int64(g))
		if err := store.AppendParsed(data.Cols[1], v); err != nil {
			t.Fatal(err)
		}
		data.Len++
	}
	tab, err := store.Write(context.Background(), filepath.Join(t.TempDir(), "o"), schema, data, store.Layout{Tasks: 4}, store.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cat := NewCatalog()
	cat.Add("o", tab)
	fns := []string{"sum(v)", "avg(v)"}
	for _, parts := range []int{1, 3} {
		child := exchange(hashAgg(plan.PartialAggregate, "partial_", []string{"g"}, fns, fileScan("o", false, "g", "v")), parts, "g")
		got := run(t, hashAgg(plan.FinalAggregate, "", []string{"g"}, fns, child), cat).CanonicalRows()
		want := []string{"0\x1f\\N\x1f\\N", "1\x1f0\x1f0.0000"}
		if !slices.Equal(got, want) {
			t.Fatalf("%d partitions: %q, want %q", parts, got, want)
		}
	}
	// Within one partition the sum overflows as it goes, before any merge.
	whole := hashAgg(plan.FinalAggregate, "", []string{"g"}, fns,
		exchange(fileScan("o", false, "g", "v"), 1, "g"))
	whole.Mode = plan.CompleteAggregate
	if got := run(t, whole, cat).CanonicalRows(); !slices.Equal(got, []string{"0\x1f\\N\x1f\\N", "1\x1f0\x1f0.0000"}) {
		t.Fatalf("complete aggregate: %q", got)
	}
}

// TestDecimalScaleMismatchIsAnError checks that decimals of other scales or widths are not
// compared by their unscaled values: Spark casts them to a common type first, which the
// engine does not evaluate, so the plan is refused.
func TestDecimalScaleMismatchIsAnError(t *testing.T) {
	t.Parallel()
	cat, _ := decimalFixture(t)
	join := joinNode(plan.ShuffledHashJoinStrategy, "Inner", "right", []string{"amt"}, []string{"m"},
		exchange(fileScan("da", false, "k", "amt"), 4, "amt"), exchange(fileScan("db", false, "k", "m"), 4, "m"))
	if _, err := Execute(context.Background(), join, cat, Options{}); err == nil || !strings.Contains(err.Error(), "need a cast") {
		t.Errorf("join of decimal(38,6) and decimal(28,4): %v", err)
	}
	const cond = "(amt#2 > n#3)"
	f := &plan.Filter{OpInfo: plan.OpInfo{Name: "Filter", Kids: []plan.Node{fileScan("da", false, "k", "amt", "n")}}, Condition: px(cond)}
	if _, err := Execute(context.Background(), f, cat, Options{}); err == nil || !strings.Contains(err.Error(), "needs a cast") {
		t.Errorf("comparison of decimal(38,6) and decimal(9,2): %v", err)
	}
}

// TestDecimalCastKeys joins on widening casts to decimals, as Spark plans keys of different
// types: cast(n as decimal(20,2)) (a narrow decimal widened to a wide one), cast(i as
// decimal(20,2)) (an int) and cast(n as decimal(38,6)) (a new scale). The cast keys hash
// as the wider decimal: shuffled into 4 partitions, they meet the rows of a table bucketed
// into 4 buckets on a decimal(20,2) column.
func TestDecimalCastKeys(t *testing.T) {
	t.Parallel()
	cat, lb, rb := castKeysFixture(t)
	// want counts the pairs whose values are equal as numbers.
	want := func(lc, rc int) int64 { return equalPairs(lb.Cols[lc], lb.Len, rb.Cols[rc], rb.Len) }
	castKey := func(col, to string) plan.Expr {
		raw := "cast(" + col + " as " + to + ")"
		return px(raw)
	}
	for _, c := range []struct {
		lcol, rcol, to string
		lc, rc         int
	}{{"n", "k", "decimal(20,2)", 0, 0}, {"i", "k", "decimal(20,2)", 1, 0}, {"n", "w", "decimal(38,6)", 0, 1}} {
		lex := &plan.Exchange{
			OpInfo:       plan.OpInfo{Name: "Exchange", Kids: []plan.Node{fileScan("l", false, "n", "i")}},
			Partitioning: plan.Partitioning{Kind: plan.HashPartitioning, Keys: []plan.Expr{castKey(c.lcol, c.to)}, NumPartitions: 4},
		}
		right := plan.Node(fileScan("r", true, "k", "w"))
		if c.rcol == "w" {
			right = exchange(fileScan("r", false, "k", "w"), 4, "w")
		}
		for _, strategy := range []plan.JoinStrategy{plan.ShuffledHashJoinStrategy, plan.SortMergeJoinStrategy} {
			j := plan.Join{Strategy: strategy, Type: "Inner", LeftKeys: []plan.Expr{castKey(c.lcol, c.to)}, RightKeys: attrs(c.rcol), BuildSide: "right"}
			info := plan.OpInfo{Name: string(strategy), Kids: []plan.Node{lex, right}}
			var root plan.Node = &plan.ShuffledHashJoin{OpInfo: info, Join: j}
			if strategy == plan.SortMergeJoinStrategy {
				root = &plan.SortMergeJoin{OpInfo: info, Join: j}
			}
			res, err := Execute(context.Background(), root, cat, Options{})
			if err != nil {
				t.Fatalf("%s join on cast(%s as %s) = %s: %v", strategy, c.lcol, c.to, c.rcol, err)
			}
			if w := want(c.lc, c.rc); res.NumRows() != w || w == 0 {
				t.Errorf("%s join on cast(%s as %s) = %s: %d rows, want %d", strategy, c.lcol, c.to, c.rcol, res.NumRows(), w)
			}
		}
	}
}

// castKeysFixture writes TestDecimalCastKeys' tables: l (n decimal(9,2), i int; 300 rows in
// 3 tasks, some NULL) and r (k decimal(20,2), w decimal(38,6); 200 rows bucketed into 4 on
// k), returning the catalog and the rows written.
func castKeysFixture(t *testing.T) (cat *Catalog, lb, rb *store.Batch) {
	t.Helper()
	ls := store.Schema{{Name: "n", Type: typ(t, "decimal(9,2)")}, {Name: "i", Type: typ(t, "int")}}
	rs := store.Schema{{Name: "k", Type: typ(t, "decimal(20,2)")}, {Name: "w", Type: typ(t, "decimal(38,6)")}}
	lb, rb = store.NewBatch(ls.Types(), 0), store.NewBatch(rs.Types(), 0)
	for i := range 300 {
		n := fmt.Sprintf("%d.%02d", i%50-25, i%3*50)
		for c, s := range []string{n, fmt.Sprint(i%40 - 20)} {
			if i%17 == 0 {
				s = hash.NullText
			}
			if err := store.AppendParsed(lb.Cols[c], s); err != nil {
				t.Fatal(err)
			}
		}
		lb.Len++
	}
	for i := range 200 {
		k := fmt.Sprintf("%d.%02d", i%60-30, i%2*50)
		if i%3 == 0 {
			k = fmt.Sprint(i%40 - 20) // whole values, which the int key meets
		}
		for c, s := range []string{k, k} {
			if err := store.AppendParsed(rb.Cols[c], s); err != nil {
				t.Fatal(err)
			}
		}
		rb.Len++
	}
	cat = NewCatalog()
	for _, x := range []struct {
		name   string
		s      store.Schema
		b      *store.Batch
		layout store.Layout
	}{{"l", ls, lb, store.Layout{Tasks: 3}}, {"r", rs, rb, store.Layout{Buckets: 4, BucketColumns: []string{"k"}}}} {
		tab, err := store.Write(context.Background(), filepath.Join(t.TempDir(), x.name), x.s, x.b, x.layout, store.WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		cat.Add(x.name, tab)
	}
	return cat, lb, rb
}

// equalPairs counts the pairs of non-NULL values of a (rows na) and b (rows nb) that are
// equal as numbers.
func equalPairs(a *store.Vec, na int, b *store.Vec, nb int) int64 {
	var n int64
	for i := range na {
		for j := range nb {
			if a.IsNull(i) || b.IsNull(j) {
				continue
			}
			x, _ := new(big.Rat).SetString(string(store.AppendText(nil, a, i)))
			y, _ := new(big.Rat).SetString(string(store.AppendText(nil, b, j)))
			if x.Cmp(y) == 0 {
				n++
			}
		}
	}
	return n
}

// BenchmarkWideDecimalAggregate groups 2M rows bucket by bucket (16 buckets, 100,000
// groups) with count, sum and max of the value: a decimal(20,0) key with decimal(38,10)
// values against a bigint key with decimal(18,2) values. The result is the multiset of
// groups, read through their count.
func BenchmarkWideDecimalAggregate(b *testing.B) {
	const rows = 2 << 20
	for _, c := range []struct{ name, key, val string }{
		{"narrow", "bigint", "decimal(18,2)"}, {"wide", "decimal(20,0)", "decimal(38,10)"},
	} {
		b.Run(c.name, func(b *testing.B) {
			g := store.GenSpec{Rows: rows, Seed: 3, Columns: []store.GenColumn{
				{Name: "k", Type: typ(b, c.key), Cardinality: 100000},
				{Name: "v", Type: typ(b, c.val), Cardinality: 500000, NullFraction: 0.05},
			}}
			data, err := store.Generate(g)
			if err != nil {
				b.Fatal(err)
			}
			tab, err := store.Write(context.Background(), filepath.Join(b.TempDir(), "t"), g.Schema(), data,
				store.Layout{Buckets: 16, BucketColumns: []string{"k"}}, store.WriteOptions{})
			if err != nil {
				b.Fatal(err)
			}
			cat := NewCatalog()
			cat.Add("t", tab)
			fns := []string{"count(1)", "sum(v)", "max(v)"}
			root := hashAgg(plan.FinalAggregate, "", []string{"k"}, fns,
				hashAgg(plan.PartialAggregate, "partial_", []string{"k"}, fns, fileScan("t", true, "k", "v")))
			b.ResetTimer()
			for range b.N {
				res, err := Execute(context.Background(), root, cat, Options{Parallelism: 1})
				if err != nil || res.NumRows() != 100000 {
					b.Fatalf("%v, %d groups", err, res.NumRows())
				}
			}
			b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}

//go:build engine

package exec

import (
	"math/big"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/engine/hash"
	"github.com/bucketlint/bucketlint/engine/store"
)

// TestSimulatedWindowDecimals runs simulated sum and avg windows over decimals of 8, 12 and
// 24 digits (Spark's double path for avg, its exact path, and 128-bit sums) and checks each
// value against sums and averages computed exactly here: sum(decimal(p,s)) is
// decimal(min(38, p+10), s), avg is decimal(p+4, s+4) rounded half up.
func TestSimulatedWindowDecimals(t *testing.T) {
	t.Parallel()
	g := store.GenSpec{Rows: 800, Seed: 35, Columns: []store.GenColumn{
		{Name: "k", Type: typ(t, "bigint"), Cardinality: 12, Zipf: 1.4, NullFraction: 0.05},
		{Name: "t", Type: typ(t, "int"), Cardinality: 5, NullFraction: 0.1},
		{Name: "n", Type: typ(t, "decimal(8,2)"), Cardinality: 500, NullFraction: 0.2},
		{Name: "m", Type: typ(t, "decimal(12,2)"), Cardinality: 900, NullFraction: 0.2},
		{Name: "w", Type: typ(t, "decimal(24,2)"), Cardinality: 300, NullFraction: 0.2},
	}}
	data, err := store.Generate(g)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := store.Write(t.Context(), t.TempDir(), g.Schema(), data, bucketed(4, "k"), store.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cat := NewCatalog()
	cat.Add("d", tab)
	in, err := tab.ReadAll([]int{0, 1, 2, 3, 4}, store.Pruning{})
	if err != nil {
		t.Fatal(err)
	}
	const ddl = "CREATE TABLE d (k BIGINT, t INT, n DECIMAL(8,2), m DECIMAL(12,2), w DECIMAL(24,2)) USING parquet CLUSTERED BY (k) INTO 4 BUCKETS;\n"
	for _, over := range []string{"PARTITION BY k", "PARTITION BY k ORDER BY t"} {
		q := "SELECT k, t, sum(n) OVER (" + over + ") AS sn, avg(n) OVER (" + over + ") AS an, sum(m) OVER (" + over + ") AS sm, " +
			"avg(m) OVER (" + over + ") AS am, sum(w) OVER (" + over + ") AS sw, avg(w) OVER (" + over + ") AS aw FROM d"
		root, _ := simulatePlan(t, ddl+q+";\n")
		res := run(t, root, cat)
		wantTypes := []string{"decimal(18,2)", "decimal(12,6)", "decimal(22,2)", "decimal(16,6)", "decimal(34,2)", "decimal(28,6)"}
		for i, w := range wantTypes {
			if got := res.Schema[2+i].Type; got != typ(t, w) {
				t.Fatalf("%s: column %s is %s, want %s", over, res.Schema[2+i].Name, got, w)
			}
		}
		ordered := over != "PARTITION BY k"
		var got, want []string
		for _, b := range res.Rows {
			for r := range b.Len {
				got = append(got, decimalRow(b.Cols, r))
			}
		}
		for r := range in.Len {
			want = append(want, naiveDecimalWindowRow(in, r, ordered))
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("%s: %d rows, want %d; first difference %s", over, len(got), len(want), firstDiff(got, want))
		}
	}
}

// naiveDecimalWindowRow computes row r's k, t and unscaled sum and avg (scale +4, rounded
// half up) of n, m and w over the rows of in with the same k (and, when ordered, a t not
// greater), exactly.
func naiveDecimalWindowRow(in *store.Batch, r int, ordered bool) string {
	row := []string{cellText(in.Cols[0], r), cellText(in.Cols[1], r)}
	for _, c := range []int{2, 3, 4} {
		sum, n := big.NewInt(0), int64(0)
		for o := range in.Len {
			if store.Compare(in.Cols[0], o, in.Cols[0], r) != 0 || (ordered && store.Compare(in.Cols[1], o, in.Cols[1], r) > 0) {
				continue
			}
			if v := in.Cols[c]; !v.IsNull(o) {
				sum.Add(sum, v.Decimal128(o).Big())
				n++
			}
		}
		if n == 0 {
			row = append(row, "NULL", "NULL")
			continue
		}
		avg := new(big.Rat).SetFrac(new(big.Int).Mul(sum, big.NewInt(10_000)), big.NewInt(n))
		row = append(row, sum.String(), ratRoundHalfUp(avg).String())
	}
	return strings.Join(row, "|")
}

// decimalRow renders k, t and the unscaled window values of row r.
func decimalRow(cols []*store.Vec, r int) string {
	row := []string{cellText(cols[0], r), cellText(cols[1], r)}
	for _, v := range cols[2:] {
		if v.IsNull(r) {
			row = append(row, "NULL")
			continue
		}
		row = append(row, v.Decimal128(r).Big().String())
	}
	return strings.Join(row, "|")
}

func cellText(v *store.Vec, r int) string {
	if v.IsNull(r) {
		return "NULL"
	}
	return strconv.FormatInt(v.Ints[r], 10)
}

// TestWindowDecimalSumOverflowIsNull checks that a decimal window sum that leaves its
// precision is NULL from then on, as Spark's Sum without ANSI mode.
func TestWindowDecimalSumOverflowIsNull(t *testing.T) {
	t.Parallel()
	arg := store.NewBatch([]hash.Type{typ(t, "decimal(1,0)")}, 4).Cols[0]
	for _, x := range []int64{9, 9, -9, -9} {
		arg.AppendInt(x)
	}
	f := winFunc{op: "sum", dec: true, limit: hash.Pow10Int128(2), argType: typ(t, "decimal(1,0)")}
	var acc winAcc
	acc.best = -1
	dst := store.NewBatch([]hash.Type{typ(t, "decimal(2,0)")}, 4).Cols[0]
	for r := range 4 {
		acc.count++
		f.addDecimal(&acc, arg, r)
		f.emitDecimal(&acc, dst)
	}
	// 9, 18, then 9 and 0 if the overflow were forgotten: Spark keeps NULL.
	if dst.IsNull(0) || dst.Ints[0] != 9 || dst.IsNull(1) || dst.Ints[1] != 18 {
		t.Fatalf("first sums %v", dst.Ints)
	}
	f.limit = hash.Pow10Int128(1)
	acc = winAcc{best: -1}
	dst = store.NewBatch([]hash.Type{typ(t, "decimal(2,0)")}, 4).Cols[0]
	for r := range 4 {
		acc.count++
		f.addDecimal(&acc, arg, r)
		f.emitDecimal(&acc, dst)
	}
	if dst.IsNull(0) || !dst.IsNull(1) || !dst.IsNull(2) || !dst.IsNull(3) {
		t.Fatalf("after an overflow the sum must stay NULL: nulls %v ints %v", []bool{dst.IsNull(0), dst.IsNull(1), dst.IsNull(2), dst.IsNull(3)}, dst.Ints)
	}
}

// ratRoundHalfUp rounds q to an integer, halves away from zero.
func ratRoundHalfUp(q *big.Rat) *big.Int {
	den := q.Denom()
	n, m := new(big.Int).QuoRem(new(big.Int).Abs(q.Num()), den, new(big.Int))
	if m.Lsh(m, 1).Cmp(den) >= 0 {
		n.Add(n, big.NewInt(1))
	}
	if q.Sign() < 0 {
		n.Neg(n)
	}
	return n
}

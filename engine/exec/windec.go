package exec

import (
	"math"
	"math/big"
	"strconv"

	"github.com/bucketlint/bucketlint/engine/hash"
	"github.com/bucketlint/bucketlint/engine/store"
)

// addDecimal adds row r's decimal to a window sum, as Spark's Sum and Average over
// decimal(p,s) do with spark.sql.ansi.enabled=false (3.0–4.x): the buffer is
// decimal(min(38, p+10), s) and becomes NULL for good once a sum overflows it.
func (f *winFunc) addDecimal(acc *winAcc, arg *store.Vec, r int) {
	if acc.over {
		return
	}
	s, over := acc.wide.Add(arg.Decimal128(r))
	acc.wide, acc.over = s, over || !s.FitsDigits(f.limit)
}

// emitDecimal appends a decimal window sum, or the average decimalAvg computes from it.
func (f *winFunc) emitDecimal(acc *winAcc, dst *store.Vec) {
	if acc.count == 0 || acc.over {
		dst.AppendNull()
		return
	}
	v := acc.wide
	if f.op == "avg" {
		var ok bool
		if v, ok = f.decimalAvg(acc); !ok {
			dst.AppendNull()
			return
		}
	}
	if dst.Kind == store.KindInt128 {
		dst.AppendWide(v)
	} else {
		dst.AppendInt(int64(v.Lo))
	}
}

// decimalAvg is avg over decimal(p,s) as Spark returns it: decimal(p+4, s+4) bounded to 38
// digits, false (NULL) when the value does not fit. For p+4 <= 15 Spark's DecimalAggregates
// rule averages the unscaled values as a double, divides it by 10^s and casts the double to
// the decimal, rounding half up from its shortest decimal representation; otherwise Average
// divides the decimal sum by the count exactly, rounding half up.
func (f *winFunc) decimalAvg(acc *winAcc) (hash.Int128, bool) {
	res := f.out.Type
	p, s := f.argType.Precision, f.argType.Scale
	q := new(big.Rat)
	if p+4 <= 15 {
		sum, _ := new(big.Float).SetInt(acc.wide.Big()).Float64()
		x := sum / float64(acc.count) / math.Pow(10, float64(s))
		if _, ok := q.SetString(strconv.FormatFloat(x, 'g', -1, 64)); !ok {
			return hash.Int128{}, false
		}
	} else {
		q.SetFrac(acc.wide.Big(), new(big.Int).Mul(big.NewInt(acc.count), winPow10(s)))
	}
	q.Mul(q, new(big.Rat).SetInt(winPow10(res.Scale)))
	v, ok := hash.Int128FromBig(winRoundHalfUp(q))
	if !ok || !v.FitsDigits(hash.Pow10Int128(res.Precision)) {
		return hash.Int128{}, false
	}
	return v, true
}

// winRoundHalfUp rounds q to an integer, halves away from zero (java.math.RoundingMode.HALF_UP).
func winRoundHalfUp(q *big.Rat) *big.Int {
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

func winPow10(n int) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil) }

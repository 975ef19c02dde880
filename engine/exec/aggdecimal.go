//go:build engine

package exec

import (
	"math"
	"math/big"
	"strconv"

	"github.com/bucketlint/bucketlint/engine/hash"
	"github.com/bucketlint/bucketlint/engine/store"
)

// avgDivScale is the scale at which java.math.BigDecimal.divide computes Spark's decimal
// quotient (Decimal./ divides at DecimalType.MAX_SCALE + 1 digits, rounding half up).
const avgDivScale = hash.MaxDecimalPrecision + 1

// emitDecimalAvg appends avg of a decimal per group, as Spark's Average evaluates it
// (3.4–4.x, spark.sql.ansi.enabled=false; recorded against 3.5 and 4.x): NULL without values
// or when the sum overflowed; else DecimalDivideWithOverflowCheck(sum, cast(count as
// decimal(20,0))) to the result type decimal(p+4, s+4): the quotient at avgDivScale digits,
// rounded half up to the result's scale, NULL when it does not fit the result's precision.
func (f *aggFunc) emitDecimalAvg(dst *store.Vec, n int) {
	sumT, res := f.sumOf(), f.resultType()
	if res.Precision <= maxDoubleDigits {
		f.emitDoubleAvg(dst, n, sumT.Scale, res)
		return
	}
	up := pow10Big(avgDivScale - sumT.Scale)
	down := pow10Big(avgDivScale - res.Scale)
	resLimit := pow10Big(res.Precision)
	var num, den, q big.Int
	for g := range n {
		if f.ints[g] == 0 || f.over[g] {
			dst.AppendNull()
			continue
		}
		num.Mul(f.wide[g].Big(), up)
		den.SetInt64(f.ints[g])
		divRoundHalfUp(&q, &num, &den)
		divRoundHalfUp(&q, &q, down)
		x, ok := hash.Int128FromBig(&q)
		if !ok || absCmp(&q, resLimit) >= 0 {
			dst.AppendNull()
			continue
		}
		if dst.Kind == store.KindInt128 {
			dst.AppendWide(x)
		} else {
			dst.AppendInt(int64(x.Lo))
		}
	}
}

// maxDoubleDigits is Spark's DecimalAggregates.MAX_DOUBLE_DIGITS: avg of decimal(p,s) with
// p+4 <= 15 is computed as a double.
const maxDoubleDigits = 15

// emitDoubleAvg appends avg of a narrow decimal as Spark's DecimalAggregates rule computes
// it: cast(avg(UnscaledValue(x)) / 10^s as decimal(p+4, s+4)), the average a double, the
// cast taking the double's shortest decimal digits (scala.BigDecimal(d)) rounded half up.
func (f *aggFunc) emitDoubleAvg(dst *store.Vec, n, scale int, res hash.Type) {
	div := math.Pow10(scale)
	var buf []byte
	for g := range n {
		if f.ints[g] == 0 || f.over[g] {
			dst.AppendNull()
			continue
		}
		// The sum of unscaled values of at most 11 digits stays in the low word.
		d := float64(int64(f.wide[g].Lo)) / float64(f.ints[g]) / div
		buf = strconv.AppendFloat(buf[:0], d, 'e', -1, 64)
		v, err := hash.ParseValue(res, string(buf))
		if err != nil { // a mean out of the result's range: NULL, as the cast returns
			dst.AppendNull()
			continue
		}
		dst.AppendInt(v.Unscaled().Int64())
	}
}

// divRoundHalfUp sets z to x/y rounded half away from zero (java.math.RoundingMode.HALF_UP),
// for y > 0.
func divRoundHalfUp(z, x, y *big.Int) {
	var r big.Int
	neg := x.Sign() < 0
	z.QuoRem(x, y, &r)
	r.Abs(&r)
	if r.Lsh(&r, 1).Cmp(y) >= 0 {
		if neg {
			z.Sub(z, big.NewInt(1))
		} else {
			z.Add(z, big.NewInt(1))
		}
	}
}

func absCmp(x, limit *big.Int) int { return new(big.Int).Abs(x).Cmp(limit) }

func pow10Big(n int) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil) }

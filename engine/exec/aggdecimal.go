package exec

import (
	"math/big"

	"github.com/bucketlint/bucketlint/engine/hash"
	"github.com/bucketlint/bucketlint/engine/store"
)

// emitDecimalAvg appends avg of a decimal per group, as Spark's Average evaluates it
// (3.0–4.x, spark.sql.ansi.enabled=false): NULL without values or when the sum
// overflowed; else Divide(sum, cast(count as decimal(20,0))), whose type has precision
// 38 and scale max(38 - (P - s), 6) for the sum's decimal(P,s) (DecimalPrecision with
// precision loss allowed) and which rounds half up, then a cast to the result type
// decimal(p+4, s+4), rounding half up again. A quotient out of either type's range is NULL.
func (f *aggFunc) emitDecimalAvg(dst *store.Vec, n int) {
	sumT, res := f.sumOf(), f.resultType()
	s := sumT.Scale
	t := max(hash.MaxDecimalPrecision-sumT.Precision+s, 6)
	up := pow10Big(t - s)
	divLimit := pow10Big(hash.MaxDecimalPrecision)
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
		if absCmp(&q, divLimit) >= 0 {
			dst.AppendNull()
			continue
		}
		if t > res.Scale {
			divRoundHalfUp(&q, &q, pow10Big(t-res.Scale))
		} else {
			q.Mul(&q, pow10Big(res.Scale-t))
		}
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

//go:build engine

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

// decimalAvg is avg over decimal(p,s) as Spark returns it, decimal(p+4, s+4) bounded to 38
// digits, and as aggregates compute it (emitDecimalAvg): through a double for p+4 <= 15
// (DecimalAggregates), else the exact quotient at avgDivScale digits rounded half up to the
// result's scale; false (NULL) when the value does not fit.
func (f *winFunc) decimalAvg(acc *winAcc) (hash.Int128, bool) {
	res := f.out.Type
	if res.Precision <= maxDoubleDigits {
		// The sum of unscaled values of at most 11 digits stays in the low word.
		d := float64(int64(acc.wide.Lo)) / float64(acc.count) / math.Pow10(f.argType.Scale)
		v, err := hash.ParseValue(res, strconv.FormatFloat(d, 'e', -1, 64))
		if err != nil {
			return hash.Int128{}, false
		}
		return hash.Int128Of(v.Unscaled().Int64()), true
	}
	var num, q big.Int
	num.Mul(acc.wide.Big(), pow10Big(avgDivScale-f.argType.Scale))
	divRoundHalfUp(&q, &num, big.NewInt(acc.count))
	divRoundHalfUp(&q, &q, pow10Big(avgDivScale-res.Scale))
	x, ok := hash.Int128FromBig(&q)
	if !ok || absCmp(&q, pow10Big(res.Precision)) >= 0 {
		return hash.Int128{}, false
	}
	return x, true
}

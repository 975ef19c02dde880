package sql

import (
	"math"
	"strconv"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// number converts a numeric literal, negative when neg (a minus sign written before it),
// typed as Spark's parser types it: a suffix says the type (10L bigint, 10S smallint, 10Y
// tinyint, 1.5D double, 1.5F float, 1.5BD decimal); without one an integer is an int, a
// bigint when it does not fit, a decimal when it does not fit a bigint; a number with a
// fraction is a decimal of its digits, one with an exponent a double.
func (t *trees) number(lit string, neg bool, from, to pos) *plan.X {
	digits, typ, suffixed := numberSuffix(lit)
	if neg {
		digits = "-" + digits
	}
	if !suffixed {
		typ = plainNumberType(digits)
	}
	return t.mk(plan.X{Op: plan.OpLiteral, Type: typ, Value: digits}, from, to)
}

// numberSuffix splits a literal's type suffix from its digits and says whether it had one;
// the type of a suffix Spark has not (B) is "", unknown.
func numberSuffix(lit string) (digits, typ string, suffixed bool) {
	low := strings.ToLower(lit)
	if strings.HasSuffix(low, "bd") {
		return lit[:len(lit)-2], decimalOf(lit[:len(lit)-2]), true
	}
	if lit == "" {
		return lit, "", false
	}
	typ, ok := map[byte]string{'l': "bigint", 's': "smallint", 'y': "tinyint", 'd': "double", 'f': "float", 'b': ""}[low[len(low)-1]]
	if !ok {
		return lit, "", false
	}
	return lit[:len(lit)-1], typ, true
}

// plainNumberType types a literal without a suffix.
func plainNumberType(digits string) string {
	switch {
	case strings.ContainsAny(digits, "eE"):
		return "double"
	case strings.Contains(digits, "."):
		return decimalOf(digits)
	}
	v, err := strconv.ParseInt(digits, 10, 64)
	switch {
	case err != nil:
		return decimalOf(digits)
	case v >= math.MinInt32 && v <= math.MaxInt32:
		return "int"
	}
	return "bigint"
}

// decimalOf is the decimal type of a decimal literal, as Spark's DecimalType.fromDecimal
// gives it: the precision of the unscaled digits (at least the scale), the scale of the
// fraction less the exponent (never negative).
func decimalOf(digits string) string {
	digits = strings.TrimLeft(digits, "+-")
	exp := 0
	if i := strings.IndexAny(digits, "eE"); i >= 0 {
		exp, _ = strconv.Atoi(digits[i+1:])
		digits = digits[:i]
	}
	whole, frac, _ := strings.Cut(digits, ".")
	p := len(strings.TrimLeft(whole+frac, "0"))
	p = max(p, 1)
	s := len(frac) - exp
	if s < 0 {
		p, s = p-s, 0
	}
	p = max(p, s)
	return "decimal(" + strconv.Itoa(p) + "," + strconv.Itoa(s) + ")"
}

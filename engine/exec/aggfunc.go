//go:build engine

package exec

import (
	"fmt"
	"strings"

	"github.com/bucketlint/bucketlint/engine/hash"
	"github.com/bucketlint/bucketlint/plan"
)

// An aggFunc is one aggregate function of a HashAggregate: count, sum, min, max or avg.
type aggFunc struct {
	op string
	// in are the input columns: the argument (none for count(*)) when the operator reads
	// raw rows, the function's buffer columns when it merges partial results.
	in []int
	// argType is the argument's type (raw input) or the first buffer's type (merging).
	argType hash.Type
	// merging is set when the input rows are partial buffers: argType is then already the
	// buffer's type (for sum and avg of decimals, the sum type).
	merging bool
	// state
	ints   []int64
	floats []float64
	has    []bool
	bytes  [][]byte
	// wide holds decimal sums (and avg's sums) and min/max of decimals wider than 18
	// digits; over marks a group whose decimal sum overflowed its type (see decSum).
	wide []hash.Int128
	over []bool
}

// aggCall reads an aggregate function's tree ("partial_sum(v#2)", "count(1)",
// "merge_avg(w)", possibly aliased): the bare function name and its argument, nil for
// count(1) and count(*).
func aggCall(x *plan.X) (name string, arg *plan.X, err error) {
	if x.Op == plan.OpAlias {
		x = x.Args[0]
	}
	if x.Op != plan.OpCall {
		return "", nil, fmt.Errorf("unsupported aggregate %q", x.Raw)
	}
	name = strings.TrimPrefix(strings.TrimPrefix(x.Name, "partial_"), "merge_")
	switch name {
	case "count", "sum", "min", "max", "avg":
	default:
		return "", nil, fmt.Errorf("unsupported aggregate function %q (count, sum, min, max, avg are)", x.Raw)
	}
	switch {
	case x.Distinct:
		return "", nil, fmt.Errorf("unsupported aggregate %q: DISTINCT", x.Raw)
	case name == "count" && (x.Star || len(x.Args) == 1 && x.Args[0].Op == plan.OpLiteral && x.Args[0].Value == "1"):
		return name, nil, nil
	case len(x.Args) != 1:
		return "", nil, fmt.Errorf("unsupported aggregate %q", x.Raw)
	}
	return name, x.Args[0], nil
}

// argColumn returns the column an aggregate's argument reads: a bare attribute ("v#2L"), or
// a widening integer cast of one, which changes no value.
func argColumn(x *plan.X) (*plan.X, error) {
	switch {
	case x.Op == plan.OpColumn:
		return x, nil
	// Spark's DecimalAggregates rule (3.0–4.x) rewrites sum and avg of a narrow decimal
	// over its unscaled long, sum(UnscaledValue(x)) and avg(UnscaledValue(x)), and turns the
	// result back into the decimal Sum or Average would return (MakeDecimal, or a cast of
	// the double average over 10^scale): the aggregate of x itself, which sum and avg of a
	// decimal compute with those semantics.
	case x.Op == plan.OpCall && x.Name == "unscaledvalue" && len(x.Args) == 1:
		return argColumn(x.Args[0])
	case x.Op == plan.OpCast && (x.Type == "bigint" || x.Type == "int"):
		return argColumn(x.Args[0])
	}
	return nil, fmt.Errorf("unsupported aggregate argument %q", x.Raw)
}

// decimalSumType is the type of sum over t, as Spark's Sum (3.0–4.x): bigint for integers,
// double for floats, decimal(min(38, p+10), s) for decimal(p,s). It is also the type of
// avg's sum buffer for decimals.
func decimalSumType(t hash.Type) hash.Type {
	if t.Kind == hash.KindDecimal {
		return hash.DecimalType(min(t.Precision+10, hash.MaxDecimalPrecision), t.Scale)
	}
	return sumType(t)
}

// avgType is the type of avg over decimal(p,s), as Spark's Average: decimal(p+4, s+4)
// bounded to 38 digits. When merging, t is the sum buffer decimal(min(38, p+10), s); a
// buffer of 38 digits is taken to come from p = 38 (p of 28 to 37 would print a narrower
// type, with the same values).
func avgType(t hash.Type, merging bool) hash.Type {
	p := t.Precision
	if merging && p < hash.MaxDecimalPrecision {
		p -= 10
	} else if merging {
		p = hash.MaxDecimalPrecision
	}
	return hash.DecimalType(min(p+4, hash.MaxDecimalPrecision), min(t.Scale+4, hash.MaxDecimalPrecision))
}

// sumType is the type of sum over a non-decimal t: bigint for integers, double for floats.
// Decimals go through decimalSumType (aggregates and window frames alike).
func sumType(t hash.Type) hash.Type {
	if t.Kind == hash.KindFloat || t.Kind == hash.KindDouble {
		return hash.Type{Kind: hash.KindDouble}
	}
	return hash.Type{Kind: hash.KindBigInt}
}

func bigintType() hash.Type { return hash.Type{Kind: hash.KindBigInt} }

func doubleType() hash.Type { return hash.Type{Kind: hash.KindDouble} }

// sumOf is the type of the function's sum (sum's value, avg's sum buffer).
func (f *aggFunc) sumOf() hash.Type {
	if f.merging {
		return f.argType
	}
	return decimalSumType(f.argType)
}

// decSum reports whether the function sums decimals: sum or avg of a decimal, which
// accumulate in 128 bits and become NULL when the sum overflows its type, as Spark's Sum
// and Average do with spark.sql.ansi.enabled=false (an overflowing buffer is set to NULL
// by UnsafeRow.setDecimal and stays NULL; CheckOverflowInSum returns NULL).
func (f *aggFunc) decSum() bool {
	return (f.op == "sum" || f.op == "avg") && f.argType.Kind == hash.KindDecimal
}

// wideMinMax reports whether the function is min or max of a decimal wider than 18 digits.
func (f *aggFunc) wideMinMax() bool {
	return (f.op == "min" || f.op == "max") && f.argType.Kind == hash.KindDecimal && f.argType.Precision > hash.MaxLongDigits
}

// bufferTypes are the columns a partial aggregate emits for the function.
func (f *aggFunc) bufferTypes() []hash.Type {
	switch {
	case f.op == "count":
		return []hash.Type{bigintType()}
	case f.op == "sum":
		return []hash.Type{f.sumOf()}
	case f.op == "avg" && f.decSum():
		return []hash.Type{f.sumOf(), bigintType()}
	case f.op == "avg":
		return []hash.Type{doubleType(), bigintType()}
	}
	return []hash.Type{f.argType}
}

// resultType is the type of the function's final value.
func (f *aggFunc) resultType() hash.Type {
	switch {
	case f.op == "count":
		return bigintType()
	case f.op == "sum":
		return f.sumOf()
	case f.op == "avg" && f.decSum():
		return avgType(f.argType, f.merging)
	case f.op == "avg":
		return doubleType()
	}
	return f.argType
}

// grow extends the state to n groups, doubling the capacity when it runs out.
func (f *aggFunc) grow(n int) {
	if len(f.ints) >= n {
		return
	}
	f.ints = growZero(f.ints, n)
	if f.usesFloats() {
		f.floats = growZero(f.floats, n)
	}
	f.has = growZero(f.has, n)
	if f.bytes != nil || f.argIsBytes() {
		f.bytes = growZero(f.bytes, n)
	}
	if f.decSum() || f.wideMinMax() {
		f.wide = growZero(f.wide, n)
		f.over = growZero(f.over, n)
	}
}

// reset empties the state, keeping its memory: grow clears what it takes back.
func (f *aggFunc) reset() {
	f.ints, f.floats, f.has = f.ints[:0], f.floats[:0], f.has[:0]
	f.bytes, f.wide, f.over = f.bytes[:0], f.wide[:0], f.over[:0]
}

// growZero extends s to length n with zero values.
func growZero[T any](s []T, n int) []T {
	if n <= len(s) {
		return s
	}
	if n > cap(s) {
		grown := make([]T, n, max(n, 2*cap(s)))
		copy(grown, s)
		return grown
	}
	old := len(s)
	s = s[:n]
	clear(s[old:])
	return s
}

// usesFloats reports whether the function keeps float64 state: avg's sums, and sum, min and
// max of floating-point values (their result type is double). The others leave floats empty:
// clearing it for every partition's groups cost as much as a pass over them.
func (f *aggFunc) usesFloats() bool {
	return f.op == "avg" || f.argType.Kind == hash.KindFloat || f.argType.Kind == hash.KindDouble
}

func (f *aggFunc) argIsBytes() bool {
	return (f.op == "min" || f.op == "max") && (f.argType.Kind == hash.KindString || f.argType.Kind == hash.KindBinary)
}

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
	// state
	ints   []int64
	floats []float64
	has    []bool
	bytes  [][]byte
}

// parseAggFunc reads a printed function such as "partial_sum(v#2)", "count(1)",
// "merge_avg(w)". It returns the bare name and the argument text.
func parseAggFunc(raw string) (name, arg string, err error) {
	s := strings.TrimSpace(raw)
	if _, alias, ok := cutAlias(s); ok && alias != "" {
		s, _, _ = cutAlias(s)
	}
	open := strings.IndexByte(s, '(')
	if open < 0 || !strings.HasSuffix(s, ")") {
		return "", "", fmt.Errorf("unsupported aggregate %q", raw)
	}
	name = strings.ToLower(s[:open])
	name = strings.TrimPrefix(strings.TrimPrefix(name, "partial_"), "merge_")
	arg = strings.TrimSpace(s[open+1 : len(s)-1])
	switch name {
	case "count", "sum", "min", "max", "avg":
	default:
		return "", "", fmt.Errorf("unsupported aggregate function %q (count, sum, min, max, avg are)", raw)
	}
	if strings.HasPrefix(strings.ToLower(arg), "distinct ") {
		return "", "", fmt.Errorf("unsupported aggregate %q: DISTINCT", raw)
	}
	return name, arg, nil
}

// argExpr turns an argument's text into an expression to resolve: a bare attribute
// ("v#2L"), or a widening integer cast of one, which changes no value.
func argExpr(arg string) (plan.Expr, error) {
	low := strings.ToLower(arg)
	if strings.HasPrefix(low, "cast(") && strings.HasSuffix(low, ")") {
		inner := arg[5 : len(arg)-1]
		if i := strings.LastIndex(strings.ToLower(inner), " as "); i >= 0 {
			to := strings.TrimSpace(strings.ToLower(inner[i+4:]))
			if to == "bigint" || to == "int" || to == "long" {
				return argExpr(strings.TrimSpace(inner[:i]))
			}
		}
		return plan.Expr{}, fmt.Errorf("unsupported aggregate argument %q", arg)
	}
	name, id, _ := strings.Cut(arg, "#")
	long := strings.HasSuffix(id, "L")
	id = strings.TrimSuffix(id, "L")
	if strings.ContainsAny(name, "() +-*/") {
		return plan.Expr{}, fmt.Errorf("unsupported aggregate argument %q", arg)
	}
	return plan.Expr{Raw: arg, Text: name, Refs: []plan.Attr{{Name: name, ID: id, Long: long}}}, nil
}

// sumType is the type of sum over t, as Spark's Sum: bigint for integers, double for floats,
// decimal(p+10, s) for decimals (capped at 18 digits here, the engine's widest decimal).
func sumType(t hash.Type) hash.Type {
	switch t.Kind {
	case hash.KindFloat, hash.KindDouble:
		return hash.Type{Kind: hash.KindDouble}
	case hash.KindDecimal:
		return hash.DecimalType(min(t.Precision+10, hash.MaxLongDigits), t.Scale)
	}
	return hash.Type{Kind: hash.KindBigInt}
}

func bigintType() hash.Type { return hash.Type{Kind: hash.KindBigInt} }

func doubleType() hash.Type { return hash.Type{Kind: hash.KindDouble} }

// bufferTypes are the columns a partial aggregate emits for the function.
func (f *aggFunc) bufferTypes() []hash.Type {
	switch f.op {
	case "count":
		return []hash.Type{bigintType()}
	case "sum":
		return []hash.Type{sumType(f.argType)}
	case "avg":
		return []hash.Type{doubleType(), bigintType()}
	}
	return []hash.Type{f.argType}
}

// resultType is the type of the function's final value.
func (f *aggFunc) resultType() hash.Type {
	switch f.op {
	case "count":
		return bigintType()
	case "sum":
		return sumType(f.argType)
	case "avg":
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
	f.floats = growZero(f.floats, n)
	f.has = growZero(f.has, n)
	if f.bytes != nil || f.argIsBytes() {
		f.bytes = growZero(f.bytes, n)
	}
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

func (f *aggFunc) argIsBytes() bool {
	return (f.op == "min" || f.op == "max") && (f.argType.Kind == hash.KindString || f.argType.Kind == hash.KindBinary)
}

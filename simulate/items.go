package simulate

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// aggregateCalls returns the aggregate function calls of a select list's trees, in order of
// appearance, as Spark's analyzer collects a block's aggregate expressions: every call of an
// aggregate function (with its FILTER clause, when written), not looking inside one, and not
// taking the windowed call of an OVER clause, whose arguments may hold aggregates of their
// own.
func aggregateCalls(items []*plan.X) []*plan.X {
	var out []*plan.X
	var walk func(x *plan.X)
	walk = func(x *plan.X) {
		switch {
		case x == nil:
			return
		case isAggregateCall(x):
			out = append(out, x)
			return
		case x.Op == plan.OpOther && x.Name == "over" && len(x.Args) > 0:
			for _, a := range x.Args[0].Args {
				walk(a)
			}
			for _, a := range x.Args[1:] {
				walk(a)
			}
			return
		}
		for _, a := range x.Args {
			walk(a)
		}
	}
	for _, it := range items {
		walk(it)
	}
	return out
}

// isAggregateCall reports whether x is a call of an aggregate function, possibly with a
// FILTER clause.
func isAggregateCall(x *plan.X) bool {
	c := aggCall(x)
	return c.Op == plan.OpCall && isAggregateFunc(c.Name)
}

// aggCall is the call of an aggregate expression: x itself, or the call a FILTER clause
// qualifies.
func aggCall(x *plan.X) *plan.X {
	if x.Op == plan.OpOther && x.Name == "filter" && len(x.Args) > 0 {
		return x.Args[0]
	}
	return x
}

// partial is an aggregate expression as the partial aggregate prints it: "partial_sum(v)".
func partial(x *plan.X) *plan.X {
	p := *x
	p.Raw = "partial_" + x.Raw
	if c := aggCall(x); c != x {
		pc := partial(c)
		p.Args = append([]*plan.X{pc}, x.Args[1:]...)
		return &p
	}
	p.Name = "partial_" + x.Name
	return &p
}

// exprType guesses the type of a select item's expression from its leftmost term: counts
// are bigint, sums and averages double, ranks int, string functions and string literals
// string; otherwise the type of its first column; "" when unknown (unknown types are never
// coerced).
func exprType(x *plan.X, in []attr) string {
	l := x
	for l != nil && len(l.Args) > 0 && (l.Op == plan.OpBinary || l.Op == plan.OpIn || l.Op == plan.OpBetween || l.Op == plan.OpOther && l.Name == "over") {
		l = l.Args[0]
	}
	switch {
	case l == nil:
		return ""
	case l.Op == plan.OpCall:
		if t := callType(l.Name); t != "" {
			return t
		}
	case l.Op == plan.OpLiteral && l.Type == "string":
		return "string"
	}
	for _, c := range x.Columns() {
		if a, ok := resolve(in, refOf(c)); ok {
			return a.typ
		}
	}
	return ""
}

// callType is the type of a function's result where the name says it: "" when it does not.
func callType(name string) string {
	switch {
	case name == "count":
		return "bigint"
	case name == "sum", name == "avg":
		return "double"
	case name == "row_number", name == "rank", name == "dense_rank", name == "ntile":
		return "int"
	case name == "percent_rank", name == "cume_dist":
		return "double"
	case strings.HasPrefix(name, "concat"), name == "upper", name == "lower":
		return "string"
	}
	return ""
}

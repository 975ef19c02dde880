//go:build engine

package exec

import (
	"errors"
	"fmt"

	"github.com/bucketlint/bucketlint/engine/store"
	"github.com/bucketlint/bucketlint/plan"
)

// A predicate is a compiled filter condition over a stage's columns. Only the trees of simple
// filters are understood: AND, OR, NOT, comparisons (=, <=>, !=, <, <=, >, >=) between a
// column and a literal or two columns, IS [NOT] NULL (isnull, isnotnull), [NOT] IN lists and
// [NOT] BETWEEN literals. Anything else is an error naming the unsupported expression.
type predicate struct {
	op   string // "and", "or", "not", "cmp", "isnull", "isnotnull", "in"
	kids []*predicate
	col  int
	cmp  string
	col2 int        // right column of a column comparison, -1 for a literal
	lit  *store.Vec // the literal(s)
}

// compilePredicate compiles a condition's tree over cols.
func compilePredicate(x *plan.X, cols schema) (*predicate, error) {
	if x == nil {
		return nil, errors.New("no condition")
	}
	switch x.Op {
	case plan.OpBinary:
		switch x.Name {
		case "and", "or":
			return compileKids(x.Name, x.Args, cols)
		case "=", "<=>", "!=", "<", "<=", ">", ">=":
			return compileComparison(x, cols)
		}
	case plan.OpUnary:
		return compileUnary(x, cols)
	case plan.OpIn:
		return compileIn(x, cols)
	case plan.OpBetween:
		return compileBetween(x, cols)
	}
	return nil, fmt.Errorf("unsupported condition %q", x.Raw)
}

// compileKids compiles the operands of AND, OR or NOT.
func compileKids(op string, args []*plan.X, cols schema) (*predicate, error) {
	p := &predicate{op: op}
	for _, a := range args {
		k, err := compilePredicate(a, cols)
		if err != nil {
			return nil, err
		}
		p.kids = append(p.kids, k)
	}
	return p, nil
}

func compileUnary(x *plan.X, cols schema) (*predicate, error) {
	if len(x.Args) != 1 {
		return nil, fmt.Errorf("unsupported condition %q", x.Raw)
	}
	switch x.Name {
	case "not":
		return compileKids("not", x.Args, cols)
	case "isnull", "isnotnull":
		c, err := cols.column(x.Args[0])
		if err != nil {
			return nil, err
		}
		return &predicate{op: x.Name, col: c}, nil
	}
	return nil, fmt.Errorf("unsupported condition %q", x.Raw)
}

// compileComparison compiles a column compared with a literal (either way round) or with
// another column of the same type.
func compileComparison(x *plan.X, cols schema) (*predicate, error) {
	l, r := x.Args[0], x.Args[1]
	op := x.Name
	if l.Op == plan.OpLiteral && r.Op != plan.OpLiteral {
		// A literal compared with a column (5 < k) is the column compared the other way.
		l, r, op = r, l, flip(op)
	}
	c, err := cols.column(l)
	if err != nil {
		return nil, fmt.Errorf("unsupported condition %q: %w", x.Raw, err)
	}
	if r.Op != plan.OpLiteral {
		c2, err := cols.column(r)
		if err != nil {
			return nil, fmt.Errorf("unsupported condition %q: %w", x.Raw, err)
		}
		if cols[c2].Type.Kind != cols[c].Type.Kind && kindOf(cols[c2]) != kindOf(cols[c]) || decimalsDiffer(cols[c].Type, cols[c2].Type) {
			return nil, fmt.Errorf("comparison of %s and %s needs a cast, which is not supported", l.Raw, r.Raw)
		}
		return &predicate{op: "cmp", col: c, cmp: op, col2: c2}, nil
	}
	lit, err := literal(cols[c], []*plan.X{r})
	return &predicate{op: "cmp", col: c, cmp: op, col2: -1, lit: lit}, err
}

func compileIn(x *plan.X, cols schema) (*predicate, error) {
	c, err := cols.column(x.Args[0])
	if err != nil {
		return nil, fmt.Errorf("unsupported condition %q: %w", x.Raw, err)
	}
	lit, err := literal(cols[c], x.Args[1:])
	if err != nil {
		return nil, err
	}
	return negated(&predicate{op: "in", col: c, lit: lit}, x.Negated), nil
}

// compileBetween compiles x BETWEEN lo AND hi as x >= lo AND x <= hi.
func compileBetween(x *plan.X, cols schema) (*predicate, error) {
	c, err := cols.column(x.Args[0])
	if err != nil {
		return nil, fmt.Errorf("unsupported condition %q: %w", x.Raw, err)
	}
	and := &predicate{op: "and"}
	for i, cmp := range []string{">=", "<="} {
		b := x.Args[1+i]
		if b.Op != plan.OpLiteral {
			return nil, fmt.Errorf("BETWEEN with a bound that is not a literal (%s) is not supported", b.Raw)
		}
		lit, err := literal(cols[c], []*plan.X{b})
		if err != nil {
			return nil, err
		}
		and.kids = append(and.kids, &predicate{op: "cmp", col: c, cmp: cmp, col2: -1, lit: lit})
	}
	return negated(and, x.Negated), nil
}

func negated(p *predicate, not bool) *predicate {
	if !not {
		return p
	}
	return &predicate{op: "not", kids: []*predicate{p}}
}

// flip returns the comparison operator that holds with op's operands swapped.
func flip(op string) string {
	switch op {
	case "<":
		return ">"
	case "<=":
		return ">="
	case ">":
		return "<"
	case ">=":
		return "<="
	}
	return op
}

// column resolves a column reference of a condition.
func (s schema) column(x *plan.X) (int, error) {
	if x.Op != plan.OpColumn {
		return 0, fmt.Errorf("expected a column, found %q", x.Raw)
	}
	return s.resolveX(x)
}

func kindOf(c column) store.Kind {
	k, _ := store.KindOf(c.Type)
	return k
}

// literal converts literals to a vector of the column's type; a literal's own type (a
// suffix, quotes) is not checked against the column's, as Spark's analyzer has already cast
// them.
func literal(c column, items []*plan.X) (*store.Vec, error) {
	v := store.NewVec(c.Type, len(items))
	for _, it := range items {
		if it.Op != plan.OpLiteral {
			return nil, fmt.Errorf("expected a literal for column %s, found %q", c.Name, it.Raw)
		}
		if it.Type == "null" {
			v.AppendNull()
			continue
		}
		if err := store.AppendParsed(v, it.Value); err != nil {
			return nil, fmt.Errorf("literal %s for column %s: %w", it.Raw, c.Name, err)
		}
	}
	return v, nil
}

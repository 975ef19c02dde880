//go:build engine

package exec

import (
	"context"
	"fmt"

	"github.com/bucketlint/bucketlint/plan"
)

// union compiles a Union: its partitions are the children's partitions one after another,
// and its columns are the first child's (by position, as in Spark).
func (e *executor) union(ctx context.Context, x *plan.Union) (*stage, error) {
	var kids []*stage
	for _, k := range x.Kids {
		st, err := e.compile(ctx, k)
		if err != nil {
			return nil, err
		}
		if len(kids) > 0 {
			if len(st.cols) != len(kids[0].cols) {
				return nil, opErr(x, "children have %d and %d columns", len(kids[0].cols), len(st.cols))
			}
			for i, c := range st.cols {
				if kindOf(c) != kindOf(kids[0].cols[i]) {
					return nil, fmt.Errorf("union column %d: %s and %s need a cast, which is not supported", i, kids[0].cols[i].Type, c.Type)
				}
			}
		}
		kids = append(kids, st)
	}
	if len(kids) == 0 {
		return nil, opErr(x, "no children")
	}
	st := &stage{cols: kids[0].cols}
	for _, k := range kids {
		st.parts += k.parts
	}
	st.open = func(ctx context.Context, p int) (Operator, error) {
		for _, k := range kids {
			if p < k.parts {
				return k.open(ctx, p)
			}
			p -= k.parts
		}
		return nil, fmt.Errorf("internal error: union partition out of range")
	}
	return st, nil
}

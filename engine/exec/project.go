//go:build engine

package exec

import (
	"context"

	"github.com/bucketlint/bucketlint/engine/store"
	"github.com/bucketlint/bucketlint/plan"
)

// project compiles a ProjectExec that selects and renames columns ("k#1", "x#3 AS y#7").
// Computed expressions are an error.
func (e *executor) project(ctx context.Context, x *plan.ProjectExec) (*stage, error) {
	child, err := e.compile(ctx, x.Kids[0])
	if err != nil {
		return nil, err
	}
	idx := make([]int, len(x.Exprs))
	cols := make(schema, len(x.Exprs))
	for i, ex := range x.Exprs {
		src := treeOf(ex)
		if src.Op == plan.OpAlias {
			src = src.Args[0]
		}
		switch {
		case src.Op != plan.OpColumn && src.Raw != ex.Raw:
			return nil, opErr(x, "unsupported expression %q computing %s: only column references are evaluated here", src.Raw, ex.Raw)
		case src.Op != plan.OpColumn:
			return nil, opErr(x, "unsupported expression %q: only column references are evaluated here", src.Raw)
		}
		c, err := child.cols.resolveX(src)
		if err != nil {
			return nil, opErr(x, "%v", err)
		}
		idx[i] = c
		name, id := attrOf(ex)
		cols[i] = column{Name: name, ID: id, Type: child.cols[c].Type}
	}
	st := &stage{cols: cols, parts: child.parts}
	st.open = func(ctx context.Context, p int) (Operator, error) {
		op, err := child.open(ctx, p)
		if err != nil {
			return nil, err
		}
		return &projectOp{child: op, idx: idx}, nil
	}
	return st, nil
}

// projectOp rearranges a batch's columns without copying them.
type projectOp struct {
	child Operator
	idx   []int
	out   store.Batch
}

func (p *projectOp) Next(ctx context.Context) (*store.Batch, error) {
	b, err := p.child.Next(ctx)
	if err != nil {
		return nil, err
	}
	p.out.Len, p.out.Sel = b.Len, b.Sel
	p.out.Cols = p.out.Cols[:0]
	for _, c := range p.idx {
		p.out.Cols = append(p.out.Cols, b.Cols[c])
	}
	return &p.out, nil
}

func (p *projectOp) Close() error { return p.child.Close() }

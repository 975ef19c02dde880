//go:build engine

package exec

import (
	"bytes"
	"context"
	"math"

	"github.com/bucketlint/bucketlint/engine/store"
	"github.com/bucketlint/bucketlint/plan"
)

// Three-valued logic: a row's condition is true, false or unknown (NULL).
const (
	vFalse int8 = 0
	vTrue  int8 = 1
	vNull  int8 = 2
)

func (e *executor) filter(ctx context.Context, x *plan.Filter) (*stage, error) {
	child, err := e.compile(ctx, x.Kids[0])
	if err != nil {
		return nil, err
	}
	pred, err := compilePredicate(treeOf(x.Condition), child.cols)
	if err != nil {
		return nil, opErr(x, "%v", err)
	}
	st := &stage{cols: child.cols, parts: child.parts}
	st.open = func(ctx context.Context, p int) (Operator, error) {
		op, err := child.open(ctx, p)
		if err != nil {
			return nil, err
		}
		return &filterOp{child: op, pred: pred}, nil
	}
	return st, nil
}

// filterOp narrows each batch's selection vector to the rows whose condition is true.
type filterOp struct {
	child Operator
	pred  *predicate
	sel   []int32
	out   store.Batch
}

func (f *filterOp) Next(ctx context.Context) (*store.Batch, error) {
	for {
		b, err := f.child.Next(ctx)
		if err != nil {
			return nil, err
		}
		res := f.pred.eval(b)
		f.sel = f.sel[:0]
		if b.Sel != nil {
			for _, r := range b.Sel {
				if res[r] == vTrue {
					f.sel = append(f.sel, r)
				}
			}
		} else {
			for r := range b.Len {
				if res[r] == vTrue {
					f.sel = append(f.sel, int32(r))
				}
			}
		}
		if len(f.sel) == 0 {
			continue
		}
		f.out = store.Batch{Len: b.Len, Sel: f.sel, Cols: b.Cols}
		return &f.out, nil
	}
}

func (f *filterOp) Close() error { return f.child.Close() }

// eval returns the condition's value for rows 0..b.Len-1.
func (p *predicate) eval(b *store.Batch) []int8 {
	n := b.Len
	out := make([]int8, n)
	switch p.op {
	case "and", "or":
		l, r := p.kids[0].eval(b), p.kids[1].eval(b)
		for i := range out {
			out[i] = logic(p.op == "and", l[i], r[i])
		}
	case "not":
		k := p.kids[0].eval(b)
		for i, v := range k {
			out[i] = v
			if v != vNull {
				out[i] = 1 - v
			}
		}
	case "isnull", "isnotnull":
		c := b.Cols[p.col]
		want := p.op == "isnull"
		for i := range out {
			if c.IsNull(i) == want {
				out[i] = vTrue
			}
		}
	case "cmp":
		c := b.Cols[p.col]
		for i := range out {
			out[i] = p.compareRow(c, i, b)
		}
	case "in":
		c := b.Cols[p.col]
		for i := range out {
			out[i] = p.inRow(c, i)
		}
	}
	return out
}

func logic(and bool, l, r int8) int8 {
	if and {
		switch {
		case l == vFalse || r == vFalse:
			return vFalse
		case l == vTrue && r == vTrue:
			return vTrue
		}
		return vNull
	}
	switch {
	case l == vTrue || r == vTrue:
		return vTrue
	case l == vFalse && r == vFalse:
		return vFalse
	}
	return vNull
}

func (p *predicate) compareRow(c *store.Vec, i int, b *store.Batch) int8 {
	rv, ri := p.lit, 0
	if p.col2 >= 0 {
		rv, ri = b.Cols[p.col2], i
	}
	ln, rn := c.IsNull(i), rv.IsNull(ri)
	if p.cmp == "<=>" {
		if ln || rn {
			return boolV(ln && rn)
		}
	} else if ln || rn {
		return vNull
	}
	d := compareValues(c, i, rv, ri)
	switch p.cmp {
	case "=", "==", "<=>":
		return boolV(d == 0)
	case "!=", "<>":
		return boolV(d != 0)
	case "<":
		return boolV(d < 0)
	case "<=":
		return boolV(d <= 0)
	case ">":
		return boolV(d > 0)
	}
	return boolV(d >= 0)
}

func (p *predicate) inRow(c *store.Vec, i int) int8 {
	if c.IsNull(i) {
		return vNull
	}
	res := vFalse
	for j := range p.lit.Len() {
		if p.lit.IsNull(j) {
			res = vNull
			continue
		}
		if compareValues(c, i, p.lit, j) == 0 {
			return vTrue
		}
	}
	return res
}

// compareValues compares two non-NULL values of the same physical kind.
func compareValues(a *store.Vec, i int, b *store.Vec, j int) int {
	switch a.Kind {
	case store.KindInt64:
		x, y := a.Ints[i], b.Ints[j]
		return cmpOrdered(x, y)
	case store.KindFloat64:
		x, y := a.Floats[i], b.Floats[j]
		if math.IsNaN(x) || math.IsNaN(y) {
			return store.Compare(a, i, b, j)
		}
		return cmpOrdered(x, y)
	case store.KindInt128:
		return a.Wide[i].Cmp(b.Wide[j])
	}
	return bytes.Compare(a.Bytes(i), b.Bytes(j))
}

func cmpOrdered[T int64 | float64](x, y T) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

func boolV(b bool) int8 {
	if b {
		return vTrue
	}
	return vFalse
}

//go:build engine

package exec

import (
	"context"
	"slices"

	"github.com/bucketlint/bucketlint/engine/store"
	"github.com/bucketlint/bucketlint/plan"
)

// sortKey is one resolved sort order.
type sortKey struct {
	col        int
	desc       bool
	nullsFirst bool
}

// sort compiles a Sort: each partition is materialised and sorted (a global Sort sits on a
// single partition here, since range partitioning gathers into one).
func (e *executor) sort(ctx context.Context, x *plan.Sort) (*stage, error) {
	child, err := e.compile(ctx, x.Kids[0])
	if err != nil {
		return nil, err
	}
	keys := make([]sortKey, len(x.Orders))
	for i, o := range x.Orders {
		// A widening integer cast orders rows as its column does.
		c, _, err := child.cols.resolveKeys([]plan.Expr{o.Expr})
		if err != nil {
			return nil, opErr(x, "%v", err)
		}
		keys[i] = sortKey{col: c[0], desc: o.Desc, nullsFirst: o.NullsFirst}
	}
	st := &stage{cols: child.cols, parts: child.parts}
	st.open = func(ctx context.Context, p int) (Operator, error) {
		op, err := child.open(ctx, p)
		if err != nil {
			return nil, err
		}
		all, held, err := e.materialise(ctx, op, child.cols, "sort buffer")
		if err != nil {
			return nil, err
		}
		perm := sortedRows(all, keys)
		out := store.NewBatch(child.cols.types(), all.Len)
		out.AppendRows(all, perm)
		return &sliceOp{batches: []*store.Batch{out}, release: func() { e.mem.release(held) }}, nil
	}
	return st, nil
}

// sortedRows returns the row order of b under keys. Like Spark's SortExec the sort is not
// stable: rows with equal keys come in any order.
func sortedRows(b *store.Batch, keys []sortKey) []int32 {
	perm := make([]int32, b.Len)
	for i := range perm {
		perm[i] = int32(i)
	}
	if len(keys) == 1 && !keys[0].desc && keys[0].nullsFirst && b.Cols[keys[0].col].Nulls == nil &&
		b.Cols[keys[0].col].Kind == store.KindInt64 {
		return sortedInts(b.Cols[keys[0].col].Ints[:b.Len], perm)
	}
	slices.SortFunc(perm, func(x, y int32) int {
		for _, k := range keys {
			c := b.Cols[k.col]
			xn, yn := c.IsNull(int(x)), c.IsNull(int(y))
			if xn || yn {
				if xn == yn {
					continue
				}
				if xn == k.nullsFirst {
					return -1
				}
				return 1
			}
			d := store.Compare(c, int(x), c, int(y))
			if k.desc {
				d = -d
			}
			if d != 0 {
				return d
			}
		}
		return 0
	})
	return perm
}

// sortedInts orders perm by one bigint-like key without NULLs (store.SortInt64Pairs, a
// radix sort: (key, row) pairs move together). Rows with equal keys keep their input order.
func sortedInts(keys []int64, perm []int32) []int32 {
	perm = perm[:len(keys)]
	for i := range perm {
		perm[i] = int32(i)
	}
	store.SortInt64Pairs(slices.Clone(keys), perm)
	return perm
}

// materialise drains op into one batch charged to the memory budget.
// It returns the bytes charged, which the caller releases when done.
func (e *executor) materialise(ctx context.Context, op Operator, cols schema, what string) (*store.Batch, int64, error) {
	all := store.NewBatch(cols.types(), 0)
	var held int64
	err := drain(ctx, op, func(b *store.Batch) error {
		all.Append(b)
		if err := e.mem.grow(&held, all.MemBytes(), what); err != nil {
			return err
		}
		return nil
	})
	if err != nil {
		e.mem.release(held)
		return nil, 0, err
	}
	return all, held, nil
}

//go:build engine

package exec

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/bucketlint/bucketlint/engine/store"
	"github.com/bucketlint/bucketlint/plan"
)

// aggSpec is a compiled aggregation.
type aggSpec struct {
	keys  []int
	kcols schema
	funcs []aggFunc
	merge bool // input rows are partial buffers (Final, PartialMerge)
	final bool // output the functions' values (Final, Complete), else their buffers
	out   schema
	// lastGroups is the group count of the partition aggregated last, which sizes the next
	// partition's table up front (bucketed partitions are of similar sizes).
	lastGroups atomic.Int64
	// distinctIn is set when every input row of a partition is a distinct group (see
	// distinctBelow): rows become groups in order without a hash table.
	distinctIn bool
	// tables holds the state of finished partitions to reuse (*aggState).
	tables sync.Pool
	// outs holds output batches their consumers handed back (*store.Batch; see aggOut).
	outs sync.Pool
}

// aggOut emits an aggregation's output batch; one handed back (recycle) fills the output of
// a later partition.
type aggOut struct {
	sliceOp
	outs *sync.Pool
}

func (a *aggOut) recycle(b *store.Batch) { a.outs.Put(b) }

// newOut returns an empty output batch: one handed back, or a new one with room for n rows.
func (s *aggSpec) newOut(n int) *store.Batch {
	if b, ok := s.outs.Get().(*store.Batch); ok {
		b.Reset()
		return b
	}
	return store.NewBatch(s.out.types(), n)
}

// aggregate compiles HashAggregate (and Sort/ObjectHashAggregate, which give the same rows):
// partition-local grouping in a hash table. Partial aggregates emit the keys then each
// function's buffer (count; sum; min or max; avg's sum and count), which the Final
// aggregate above the Exchange merges, reading them by position as Spark does.
func (e *executor) aggregate(ctx context.Context, a *plan.Aggregate, kids []plan.Node) (*stage, error) {
	child, err := e.compile(ctx, kids[0])
	if err != nil {
		return nil, err
	}
	mode := a.Mode
	if mode == plan.FinalAggregate && !partialBelow(kids[0]) {
		// Spark 4 plans one aggregate over an input already clustered by the keys (a
		// bucketed scan) and prints it like a final one; with no partial aggregate below,
		// it reads raw rows.
		mode = plan.CompleteAggregate
	}
	spec, err := newAggSpec(a, mode, child.cols)
	if err != nil {
		return nil, fmt.Errorf("aggregate: %w", err)
	}
	spec.distinctIn = mode == plan.FinalAggregate && distinctBelow(kids[0], spec.keys)
	st := &stage{cols: spec.out, parts: child.parts}
	st.open = func(ctx context.Context, p int) (Operator, error) {
		op, err := child.open(ctx, p)
		if err != nil {
			return nil, err
		}
		out, held, err := e.runAggregate(ctx, spec, op)
		if err != nil {
			return nil, err
		}
		return &aggOut{sliceOp: sliceOp{batches: []*store.Batch{out}, release: func() { e.mem.release(held) }}, outs: &spec.outs}, nil
	}
	return st, nil
}

// distinctBelow reports whether n is a partial aggregate grouping by exactly the columns
// keys (its first len(keys) output columns) with no exchange between: each of its
// partitions then holds every key once, so a final aggregate above has one row per group
// (a bucketed aggregation as Spark plans it).
func distinctBelow(n plan.Node, keys []int) bool {
	var a *plan.Aggregate
	switch x := n.(type) {
	case *plan.HashAggregate:
		a = &x.Aggregate
	case *plan.SortAggregate:
		a = &x.Aggregate
	case *plan.ObjectHashAggregate:
		a = &x.Aggregate
	default:
		return false
	}
	if a.Mode != plan.PartialAggregate || len(keys) == 0 || len(a.Keys) != len(keys) {
		return false
	}
	seen := make([]bool, len(keys))
	for _, k := range keys {
		if k < 0 || k >= len(keys) || seen[k] {
			return false
		}
		seen[k] = true
	}
	return true
}

// partialBelow reports whether a partial aggregate feeds n through operators that pass its
// rows on unchanged (exchanges, sorts, adaptive stages, codegen adapters).
func partialBelow(n plan.Node) bool {
	switch x := n.(type) {
	case *plan.HashAggregate, *plan.SortAggregate, *plan.ObjectHashAggregate:
		return true
	case *plan.ReusedExchange:
		return x.Reused != nil && partialBelow(x.Reused)
	case *plan.Exchange, *plan.Sort, *plan.QueryStage, *plan.ShuffleRead, *plan.AdaptiveSparkPlan:
	case *plan.Generic:
		if !passThrough(x.Name) {
			return false
		}
	default:
		return false
	}
	kids := n.Children()
	return len(kids) == 1 && partialBelow(kids[0])
}

// newAggSpec compiles an aggregation over in.
func newAggSpec(a *plan.Aggregate, mode plan.AggregateMode, in schema) (*aggSpec, error) {
	s := &aggSpec{}
	switch mode {
	case plan.PartialAggregate:
	case plan.PartialMerge:
		s.merge = true
	case plan.FinalAggregate:
		s.merge, s.final = true, true
	default:
		s.final = true
	}
	var err error
	if s.keys, err = in.resolveAll(a.Keys); err != nil {
		return nil, err
	}
	for i, k := range s.keys {
		name, id := attrOf(a.Keys[i])
		s.kcols = append(s.kcols, column{Name: name, ID: id, Type: in[k].Type})
	}
	next := len(s.keys) // the next buffer column when merging
	for _, fe := range a.Functions {
		name, arg, err := aggCall(treeOf(fe))
		if err != nil {
			return nil, err
		}
		f := aggFunc{op: name, merging: s.merge}
		switch {
		case s.merge:
			f.in = []int{next}
			if name == "avg" {
				f.in = append(f.in, next+1)
			}
			next += len(f.in)
			if next > len(in) {
				return nil, fmt.Errorf("%s: the input has no partial buffer for it", fe.Raw)
			}
			f.argType = in[f.in[0]].Type
			if name == "sum" {
				f.argType = in[f.in[0]].Type // already the sum type
			}
		case arg == nil:
			f.argType = bigintType()
		default:
			ex, err := argColumn(arg)
			if err != nil {
				return nil, err
			}
			c, err := in.resolveX(ex)
			if err != nil {
				return nil, err
			}
			f.in, f.argType = []int{c}, in[c].Type
		}
		s.funcs = append(s.funcs, f)
	}
	s.out = append(schema{}, s.kcols...)
	for i := range s.funcs {
		f := &s.funcs[i]
		name := a.Functions[i].Text()
		if s.final {
			s.out = append(s.out, column{Name: name, Type: f.resultType()})
			continue
		}
		for j, t := range f.bufferTypes() {
			s.out = append(s.out, column{Name: fmt.Sprintf("%s#buf%d", name, j), Type: t})
		}
	}
	if s.final && len(a.Output) == len(s.out) {
		for i, o := range a.Output {
			s.out[i].Name, s.out[i].ID = attrOf(o)
		}
	}
	return s, nil
}

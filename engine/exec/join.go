//go:build engine

package exec

import (
	"context"
	"fmt"
	"sync"

	"github.com/bucketlint/bucketlint/engine/hash"
	"github.com/bucketlint/bucketlint/engine/store"
	"github.com/bucketlint/bucketlint/plan"
)

// joinSpec is a compiled equi-join.
type joinSpec struct {
	typ       string // Inner, LeftOuter, RightOuter, FullOuter, LeftSemi, LeftAnti
	buildLeft bool
	lkeys     []int
	rkeys     []int
	// lcasts and rcasts are the decimal types keys are converted to (see keyCasts).
	lcasts, rcasts []hash.Type
	lcols          schema
	rcols          schema
	leftOnly       bool // semi and anti joins output the left columns only
	emitBuild      bool // unmatched (or, for semi, matched) build rows are emitted at the end
	emitProbe      bool // unmatched probe rows are emitted with NULLs
	semiOnProbe    bool // probe rows are emitted once if they match (semi) or if not (anti)
	// tables holds partition-local hash tables to reuse (*joinTable), so each partition's
	// build neither allocates nor faults in fresh slot arrays.
	tables sync.Pool
}

// join compiles SortMergeJoin (a merge of both sides sorted by the keys), ShuffledHashJoin
// and BroadcastHashJoin (a partition-local hash join on the build side). Partition i of the left child is joined with
// partition i of the right child only, so both must have the same partition count; a
// broadcast side is joined with every partition of the other.
func (e *executor) join(ctx context.Context, j *plan.Join, kids []plan.Node) (*stage, error) {
	at := kids[0]
	if j.Condition != nil {
		return nil, opErr(at, "join conditions beyond equi-keys (%s) are not supported", j.Condition.Text())
	}
	left, err := e.compile(ctx, kids[0])
	if err != nil {
		return nil, err
	}
	right, err := e.compile(ctx, kids[1])
	if err != nil {
		return nil, err
	}
	js := &joinSpec{typ: j.Type, lcols: left.cols, rcols: right.cols, buildLeft: j.BuildSide == "BuildLeft"}
	var ltypes, rtypes []hash.Type
	if js.lkeys, ltypes, err = left.cols.resolveKeys(j.LeftKeys); err != nil {
		return nil, fmt.Errorf("join left keys: %w", err)
	}
	if js.rkeys, rtypes, err = right.cols.resolveKeys(j.RightKeys); err != nil {
		return nil, fmt.Errorf("join right keys: %w", err)
	}
	if len(js.lkeys) != len(js.rkeys) || len(js.lkeys) == 0 {
		return nil, fmt.Errorf("join needs as many left keys as right keys, at least one")
	}
	for i := range js.lkeys {
		lk, _ := store.KindOf(ltypes[i])
		rk, _ := store.KindOf(rtypes[i])
		if lk != rk || decimalsDiffer(ltypes[i], rtypes[i]) {
			return nil, fmt.Errorf("join key %s (%s) and %s (%s) need a cast, which is not supported",
				left.cols[js.lkeys[i]].Name, ltypes[i], right.cols[js.rkeys[i]].Name, rtypes[i])
		}
	}
	js.lcasts, js.rcasts = keyCasts(left.cols, js.lkeys, ltypes), keyCasts(right.cols, js.rkeys, rtypes)
	if err := js.plan(); err != nil {
		return nil, err
	}
	build, probe := right, left
	if js.buildLeft {
		build, probe = left, right
	}
	st := &stage{cols: append(append(schema{}, left.cols...), right.cols...), parts: probe.parts}
	if js.leftOnly {
		st.cols = left.cols
	}
	if build.broadcast != nil {
		if js.emitBuild {
			return nil, fmt.Errorf("%s join cannot emit rows of a broadcast build side", js.typ)
		}
		shared := &joinTable{}
		var bufs []store.Vec
		shared.build(js.buildKeyVecs(build.broadcast, &bufs), build.broadcast.Len)
		if err := e.mem.reserve(shared.memBytes(), "broadcast hash table"); err != nil {
			return nil, err
		}
		st.open = func(ctx context.Context, p int) (Operator, error) {
			op, err := probe.open(ctx, p)
			if err != nil {
				return nil, err
			}
			return newJoinOp(js, build.broadcast, shared, op, nil), nil
		}
		return st, nil
	}
	if left.parts != right.parts {
		return nil, fmt.Errorf("%s join: the left side has %d partitions and the right side %d; a partition-local join needs equal counts",
			js.typ, left.parts, right.parts)
	}
	if j.Strategy == plan.SortMergeJoinStrategy {
		st.open = func(ctx context.Context, p int) (Operator, error) {
			return e.openMergeJoin(ctx, js, left, right, p)
		}
		return st, nil
	}
	st.open = func(ctx context.Context, p int) (Operator, error) {
		bop, err := build.open(ctx, p)
		if err != nil {
			return nil, err
		}
		bb, held, err := e.materialise(ctx, bop, build.cols, "hash join build side")
		if err != nil {
			return nil, err
		}
		t, _ := js.tables.Get().(*joinTable)
		if t == nil {
			t = &joinTable{}
		}
		var bufs []store.Vec
		t.build(js.buildKeyVecs(bb, &bufs), bb.Len)
		if err := e.mem.reserve(t.memBytes(), "hash join table"); err != nil {
			e.mem.release(held)
			js.tables.Put(t)
			return nil, err
		}
		held += t.memBytes()
		pop, err := probe.open(ctx, p)
		if err != nil {
			e.mem.release(held)
			js.tables.Put(t)
			return nil, err
		}
		return newJoinOp(js, bb, t, pop, func() {
			e.mem.release(held)
			t.keys = nil // the build batch is not kept alive by a pooled table
			js.tables.Put(t)
		}), nil
	}
	return st, nil
}

// plan derives what the join type emits given the build side.
func (js *joinSpec) plan() error {
	switch js.typ {
	case "Inner", "Cross":
		js.typ = "Inner"
	case "LeftOuter":
		js.emitProbe, js.emitBuild = !js.buildLeft, js.buildLeft
	case "RightOuter":
		js.emitProbe, js.emitBuild = js.buildLeft, !js.buildLeft
	case "FullOuter":
		js.emitProbe, js.emitBuild = true, true
	case "LeftSemi", "LeftAnti":
		js.leftOnly = true
		js.semiOnProbe = !js.buildLeft
		js.emitBuild = js.buildLeft
	default:
		return fmt.Errorf("join type %s is not supported", js.typ)
	}
	return nil
}

// buildKeyVecs and probeKeyVecs return the key columns of a build or probe batch, cast.
func (js *joinSpec) buildKeyVecs(b *store.Batch, bufs *[]store.Vec) []*store.Vec {
	if js.buildLeft {
		return castKeys(b, js.lkeys, js.lcasts, bufs)
	}
	return castKeys(b, js.rkeys, js.rcasts, bufs)
}

func (js *joinSpec) probeKeyVecs(b *store.Batch, bufs *[]store.Vec) []*store.Vec {
	if js.buildLeft {
		return castKeys(b, js.rkeys, js.rcasts, bufs)
	}
	return castKeys(b, js.lkeys, js.lcasts, bufs)
}

// pick returns the columns idx of b.
func pick(b *store.Batch, idx []int) []*store.Vec {
	out := make([]*store.Vec, len(idx))
	for i, c := range idx {
		out[i] = b.Cols[c]
	}
	return out
}

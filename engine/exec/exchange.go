//go:build engine

package exec

import (
	"context"
	"sync/atomic"

	"github.com/bucketlint/bucketlint/engine/hash"
	"github.com/bucketlint/bucketlint/engine/store"
	"github.com/bucketlint/bucketlint/plan"
)

// exchange runs a shuffle Exchange to completion and returns a stage reading its output.
// hashpartitioning(keys, n) sends a row to partition pmod(Murmur3Hash(keys, 42), n), the
// function of Spark's HashPartitioning and of its bucketed writer, so shuffle partition i
// holds what bucket i of a table bucketed on the same keys holds. SinglePartition and
// rangepartitioning gather every row into one partition (a total order is then the Sort's
// job); RoundRobinPartitioning deals rows out in turn. count is false for a reused exchange,
// which Spark does not run twice.
func (e *executor) exchange(ctx context.Context, x *plan.Exchange, count bool) (*stage, error) {
	child, err := e.compile(ctx, x.Kids[0])
	if err != nil {
		return nil, err
	}
	n, keys, keyTypes := 1, []int(nil), []hash.Type(nil)
	switch x.Partitioning.Kind {
	case plan.HashPartitioning:
		if keys, keyTypes, err = child.cols.resolveKeys(x.Partitioning.Keys); err != nil {
			return nil, opErr(x, "%v", err)
		}
		n = x.Partitioning.NumPartitions
	case plan.RoundRobinPartitioning:
		n = x.Partitioning.NumPartitions
	case plan.SinglePartition, plan.RangePartitioning:
	default:
		return nil, opErr(x, "partitioning %s is not supported", x.Partitioning.Kind)
	}
	if n <= 0 {
		return nil, opErr(x, "partition count %d", n)
	}
	casts := keyCasts(child.cols, keys, keyTypes)
	bufs := make([][]*store.Batch, e.par)
	var rows, size atomic.Int64
	err = runParts(ctx, child.parts, e.par, func(ctx context.Context, w, p int) error {
		op, err := child.open(ctx, p)
		if err != nil {
			return err
		}
		if bufs[w] == nil {
			bufs[w] = make([]*store.Batch, n)
			for i := range bufs[w] {
				bufs[w][i] = store.NewBatch(child.cols.types(), 0)
			}
		}
		sc := &scatter{n: n, keys: keys, keyTypes: keyTypes, casts: casts, out: bufs[w]}
		return drain(ctx, op, func(b *store.Batch) error {
			r, s := sc.add(b.Compact())
			rows.Add(r)
			size.Add(s)
			return e.mem.reserve(s+int64(len(b.Cols))*4*r, "exchange buffers")
		})
	})
	if err != nil {
		return nil, err
	}
	if count {
		e.mu.Lock()
		e.stats.Exchanges++
		e.stats.ShuffledRows += rows.Load()
		e.stats.ShuffledBytes += size.Load()
		e.mu.Unlock()
	}
	st := &stage{cols: child.cols, parts: n}
	st.open = func(_ context.Context, p int) (Operator, error) {
		var out []*store.Batch
		for _, wb := range bufs {
			if wb != nil {
				out = append(out, wb[p])
			}
		}
		return &sliceOp{batches: out}, nil
	}
	return st, nil
}

// scatter distributes a worker's batches over the output partitions.
type scatter struct {
	n    int
	keys []int
	// keyTypes are the keys' types after casts; a key is hashed as its cast type.
	keyTypes []hash.Type
	// casts are the decimal types keys are converted to (see keyCasts), nil for none.
	casts    []hash.Type
	castBufs []store.Vec
	keyVecs  []store.Vec
	out      []*store.Batch
	hasher   store.Hasher
	ids      []int32
	counts   []int32
	order    []int32
	next     int64 // round-robin position
	cols     []*store.Vec
}

// add appends b's rows to their partitions and returns the rows and value bytes moved.
func (s *scatter) add(b *store.Batch) (rows, size int64) {
	n := b.Len
	if n == 0 {
		return 0, 0
	}
	if cap(s.ids) < n {
		s.ids, s.order = make([]int32, n), make([]int32, n)
	}
	ids, order := s.ids[:n], s.order[:n]
	switch {
	case s.keys != nil:
		s.cols = s.cols[:0]
		if len(s.keyVecs) < len(s.keys) {
			s.keyVecs = make([]store.Vec, len(s.keys))
		}
		for i, k := range s.keys {
			if s.casts != nil && s.casts[i].Kind == hash.KindDecimal {
				if len(s.castBufs) < len(s.keys) {
					s.castBufs = make([]store.Vec, len(s.keys))
				}
				castDecimal(&s.castBufs[i], b.Cols[k], n, s.casts[i])
				s.cols = append(s.cols, &s.castBufs[i])
				continue
			}
			s.keyVecs[i] = *b.Cols[k]
			s.keyVecs[i].Type = s.keyTypes[i]
			s.cols = append(s.cols, &s.keyVecs[i])
		}
		h := s.hasher.Murmur3(s.cols, n)
		hash.Buckets(ids, h, s.n)
	case s.n > 1:
		for i := range ids {
			ids[i] = int32((s.next + int64(i)) % int64(s.n))
		}
		s.next += int64(n)
	default:
		clear(ids)
	}
	// Counting sort of the row indexes by partition.
	if cap(s.counts) < s.n+1 {
		s.counts = make([]int32, s.n+1)
	}
	counts := s.counts[:s.n+1]
	clear(counts)
	for _, id := range ids {
		counts[id+1]++
	}
	for p := 1; p <= s.n; p++ {
		counts[p] += counts[p-1]
	}
	for i, id := range ids {
		order[counts[id]] = int32(i)
		counts[id]++
	}
	start := int32(0)
	for p := range s.n {
		end := counts[p]
		if end > start {
			rs := order[start:end]
			s.out[p].AppendRows(b, rs)
			for _, c := range b.Cols {
				size += c.DataBytes(rs)
			}
		}
		start = end
	}
	return int64(n), size
}

// broadcastExchange collects its child's rows into one batch that every partition of the
// join above reads (BroadcastExchangeExec). It is not a shuffle.
func (e *executor) broadcastExchange(ctx context.Context, x *plan.BroadcastExchange) (*stage, error) {
	child, err := e.compile(ctx, x.Kids[0])
	if err != nil {
		return nil, err
	}
	parts := make([]*store.Batch, child.parts)
	err = runParts(ctx, child.parts, e.par, func(ctx context.Context, _, p int) error {
		op, err := child.open(ctx, p)
		if err != nil {
			return err
		}
		out := store.NewBatch(child.cols.types(), 0)
		parts[p] = out
		return drain(ctx, op, func(b *store.Batch) error {
			before := out.MemBytes()
			out.Append(b)
			return e.mem.reserve(out.MemBytes()-before, "broadcast")
		})
	})
	if err != nil {
		return nil, err
	}
	all := store.NewBatch(child.cols.types(), 0)
	for _, p := range parts {
		all.Append(p)
	}
	e.mu.Lock()
	e.stats.BroadcastRows += int64(all.Len)
	e.mu.Unlock()
	st := &stage{cols: child.cols, parts: 1, broadcast: all}
	st.open = func(context.Context, int) (Operator, error) {
		return &sliceOp{batches: []*store.Batch{all}}, nil
	}
	return st, nil
}

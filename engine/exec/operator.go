//go:build engine

package exec

import (
	"context"
	"io"
	"sync/atomic"
	"time"

	"github.com/bucketlint/bucketlint/engine/store"
)

// An Operator produces batches; Next returns io.EOF after the last one. The batch belongs to
// the operator and is valid until the next call; callers copy what they keep.
type Operator interface {
	Next(ctx context.Context) (*store.Batch, error)
	Close() error
}

// A recycler is an operator that refills the batches it returned when handed them back. Only
// a consumer that keeps no reference to a batch or its vectors once it has used it (it copies
// what it keeps) hands it back, and only to the operator that returned it.
type recycler interface {
	recycle(b *store.Batch)
}

// recycle hands b back to op when op refills batches.
func recycle(op Operator, b *store.Batch) {
	if r, ok := op.(recycler); ok {
		r.recycle(b)
	}
}

// sliceOp emits materialised batches in order.
type sliceOp struct {
	batches []*store.Batch
	i       int
	// release, when set, is called once on Close to return budgeted memory.
	release func()
}

func (s *sliceOp) Next(ctx context.Context) (*store.Batch, error) {
	for s.i < len(s.batches) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		b := s.batches[s.i]
		s.i++
		if b.Rows() > 0 {
			return b, nil
		}
	}
	return nil, io.EOF
}

func (s *sliceOp) Close() error {
	if s.release != nil {
		s.release()
		s.release = nil
	}
	return nil
}

// countOp counts the rows its child emits, and the time spent producing them, into an
// operator's statistics.
type countOp struct {
	child Operator
	rows  *atomic.Int64
	nanos *atomic.Int64
}

func (c *countOp) Next(ctx context.Context) (*store.Batch, error) {
	start := time.Now()
	b, err := c.child.Next(ctx)
	c.nanos.Add(int64(time.Since(start)))
	if b != nil {
		c.rows.Add(int64(b.Rows()))
	}
	return b, err
}

func (c *countOp) Close() error { return c.child.Close() }

// recycle hands a batch back to the counted operator, which returned it.
func (c *countOp) recycle(b *store.Batch) { recycle(c.child, b) }

// drain reads every batch of op, calling fn for each, and closes op.
func drain(ctx context.Context, op Operator, fn func(*store.Batch) error) (err error) {
	defer func() {
		if cerr := op.Close(); cerr != nil && err == nil {
			err = cerr
		}
	}()
	for {
		b, err := op.Next(ctx)
		if err == io.EOF { //nolint:errorlint // io.EOF is returned unwrapped by contract
			return nil
		}
		if err != nil {
			return err
		}
		if err := fn(b); err != nil {
			return err
		}
	}
}

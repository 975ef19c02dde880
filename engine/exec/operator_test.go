//go:build engine

package exec

import (
	"context"
	"io"
	"sync/atomic"
	"testing"

	"github.com/bucketlint/bucketlint/engine/store"
)

// recyclingOp returns one batch and records the batches handed back to it.
type recyclingOp struct {
	b        *store.Batch
	sent     bool
	recycled []*store.Batch
}

func (o *recyclingOp) Next(context.Context) (*store.Batch, error) {
	if o.sent {
		return nil, io.EOF
	}
	o.sent = true
	return o.b, nil
}

func (o *recyclingOp) Close() error { return nil }

func (o *recyclingOp) recycle(b *store.Batch) { o.recycled = append(o.recycled, b) }

// TestRecycleThroughCount checks that a batch handed back to the countOp that compile wraps
// around every operator reaches the operator that returned it: without that, no scan ever
// refills a batch in Execute.
func TestRecycleThroughCount(t *testing.T) {
	t.Parallel()
	inner := &recyclingOp{b: store.NewBatch(nil, 0)}
	var rows, nanos atomic.Int64
	var op Operator = &countOp{child: inner, rows: &rows, nanos: &nanos}
	err := drain(context.Background(), op, func(b *store.Batch) error {
		recycle(op, b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(inner.recycled) != 1 || inner.recycled[0] != inner.b {
		t.Fatalf("recycled %v, want the one batch returned", inner.recycled)
	}
}

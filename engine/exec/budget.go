//go:build engine

package exec

import (
	"errors"
	"fmt"
	"sync/atomic"
)

// ErrMemoryBudget is returned (wrapped) when a query needs more memory than Options.MemoryBudget.
var ErrMemoryBudget = errors.New("memory budget exceeded")

// budget tracks the bytes held by materialised data across all partitions.
type budget struct {
	limit int64
	used  atomic.Int64
	peak  atomic.Int64
}

// reserve charges n bytes for what, failing when the limit would be passed.
func (b *budget) reserve(n int64, what string) error {
	u := b.used.Add(n)
	if b.limit > 0 && u > b.limit {
		b.used.Add(-n)
		return fmt.Errorf("%s needs %d more bytes with %d in use: %w (limit %d bytes)", what, n, u-n, ErrMemoryBudget, b.limit)
	}
	for {
		p := b.peak.Load()
		if u <= p || b.peak.CompareAndSwap(p, u) {
			return nil
		}
	}
}

// release returns n bytes.
func (b *budget) release(n int64) { b.used.Add(-n) }

// grow charges what grew from *held bytes to to bytes, and records to in *held; a smaller
// size charges nothing.
func (b *budget) grow(held *int64, to int64, what string) error {
	if to <= *held {
		return nil
	}
	if err := b.reserve(to-*held, what); err != nil {
		return err
	}
	*held = to
	return nil
}

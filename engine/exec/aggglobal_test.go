//go:build engine

package exec

import (
	"testing"

	"github.com/bucketlint/bucketlint/engine/store"
)

// TestUpdateGlobalMatchesUpdate checks the global-aggregate fast path against the general
// per-row update with every row in group 0, with and without NULLs, and that it declines
// the cases it does not handle.
func TestUpdateGlobalMatchesUpdate(t *testing.T) {
	bigint := typ(t, "bigint")
	for _, withNull := range []bool{false, true} {
		v := store.NewVec(bigint, 0)
		for i := range 1000 {
			if withNull && i%97 == 5 {
				v.AppendNull()
				continue
			}
			v.AppendInt(int64(i*7919 - 3_000_000))
		}
		b := &store.Batch{Len: 1000, Cols: []*store.Vec{v}}
		for _, c := range []struct {
			op string
			in []int
		}{{"count", nil}, {"count", []int{0}}, {"sum", []int{0}}, {"min", []int{0}}, {"max", []int{0}}} {
			fast := aggFunc{op: c.op, in: c.in, argType: bigint}
			slow := aggFunc{op: c.op, in: c.in, argType: bigint}
			fast.grow(1)
			slow.grow(1)
			// Fold twice, as successive batches do.
			for range 2 {
				if !fast.updateGlobal(b, b.Len) {
					fast.update(b, make([]int32, b.Len))
				}
				slow.update(b, make([]int32, b.Len))
			}
			if fast.ints[0] != slow.ints[0] || fast.has[0] != slow.has[0] {
				t.Errorf("%s%v nulls=%v: fast path (%d, %v), per-row update (%d, %v)",
					c.op, c.in, withNull, fast.ints[0], fast.has[0], slow.ints[0], slow.has[0])
			}
		}
	}
	// An empty batch leaves sum without a value (NULL), as the per-row update does.
	f := aggFunc{op: "sum", in: []int{0}, argType: bigint}
	f.grow(1)
	if handled := f.updateGlobal(&store.Batch{Cols: []*store.Vec{store.NewVec(bigint, 0)}}, 0); !handled || f.has[0] {
		t.Errorf("empty batch: handled=%v has=%v", handled, f.has[0])
	}
}

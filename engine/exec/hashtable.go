package exec

import "github.com/bucketlint/bucketlint/engine/store"

// A joinTable indexes the build side of a hash join: open addressing with linear probing
// over parallel arrays, one slot per distinct key holding its first build row; rows with the
// same key are chained through next. Rows with a NULL key are left out: they never match.
type joinTable struct {
	keys   []*store.Vec
	hashes []uint64
	heads  []int32  // slot → first build row, -1 when empty
	slotH  []uint64 // slot → the key's hash, to skip most key comparisons
	next   []int32  // build row → next build row with the same key, -1 at the end
	shift  uint
	mask   uint64
}

// build indexes rows 0..n-1 of the key columns.
func (t *joinTable) build(keys []*store.Vec, n int) {
	t.keys = keys
	t.hashes = make([]uint64, n)
	hashKeys(t.hashes, keys, n)
	capacity, shift := tableShift(n)
	t.shift, t.mask = shift, uint64(capacity-1)
	t.heads = make([]int32, capacity)
	for i := range t.heads {
		t.heads[i] = -1
	}
	t.slotH = make([]uint64, capacity)
	t.next = make([]int32, n)
	for r := range n {
		t.next[r] = -1
		if anyNull(keys, r) {
			continue
		}
		h := t.hashes[r]
		for s := (h * mulA) >> t.shift; ; s = (s + 1) & t.mask {
			head := t.heads[s]
			if head < 0 {
				t.heads[s], t.slotH[s] = int32(r), h
				break
			}
			if t.slotH[s] == h && keysEqual(keys, int(head), keys, r) {
				t.next[r] = t.next[head]
				t.next[head] = int32(r)
				break
			}
		}
	}
}

// findInt is find for a single bigint-like key without NULL: no per-column dispatch.
func (t *joinTable) findInt(x int64, h uint64) int32 {
	keys := t.keys[0].Ints
	for s := (h * mulA) >> t.shift; ; s = (s + 1) & t.mask {
		head := t.heads[s]
		if head < 0 {
			return -1
		}
		if t.slotH[s] == h && keys[head] == x {
			return head
		}
	}
}

// find returns the first build row whose key equals row r of probe (hash h), or -1.
func (t *joinTable) find(probe []*store.Vec, r int, h uint64) int32 {
	for s := (h * mulA) >> t.shift; ; s = (s + 1) & t.mask {
		head := t.heads[s]
		if head < 0 {
			return -1
		}
		if t.slotH[s] == h && keysEqual(t.keys, int(head), probe, r) {
			return head
		}
	}
}

// memBytes estimates the table's memory.
func (t *joinTable) memBytes() int64 {
	return int64(8*len(t.hashes) + 4*len(t.heads) + 8*len(t.slotH) + 4*len(t.next))
}

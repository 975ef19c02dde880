//go:build engine

package exec

import "github.com/bucketlint/bucketlint/engine/store"

// A joinTable indexes the build side of a hash join: open addressing with linear probing
// over parallel arrays, one slot per distinct key holding its first build row; rows with the
// same key are chained through next. Rows with a NULL key are left out: they never match.
//
// One bigint-like key column takes a faster path: each slot holds the first build row of its
// key and whether more rows share the key, in 4 bytes, and the key is compared in the build
// side's key vector: a bucket's table of 16,000 keys (32,768 or 65,536 slots, 128 or 256 KB)
// and its keys stay in the core's cache, where slots that held the key too (16 bytes) did
// not.
type joinTable struct {
	keys   []*store.Vec
	hashes []uint64
	heads  []int32  // slot → first build row, -1 when empty
	slotH  []uint64 // slot → the key's hash, to skip most key comparisons
	next   []int32  // build row → next build row with the same key, -1 at the end
	shift  uint
	mask   uint64
	// The one-int64-key path.
	ints  bool
	islot []joinSlot
}

// A joinSlot is a slot of the one-int64-key path: the first build row plus one (0 when the
// slot is empty) in the low 31 bits, and bit 31 set when next[head] continues the chain.
type joinSlot uint32

const moreBit = 1 << 31

// head1 is the slot's first build row plus one, 0 when the slot is empty.
func (e joinSlot) head1() int32 { return int32(e &^ moreBit) }

// more reports whether more build rows than the first have the slot's key.
func (e joinSlot) more() bool { return e&moreBit != 0 }

// maxIntBuild is the most build rows the one-int64-key path indexes (31 bits of row).
const maxIntBuild = 1<<31 - 2

// build indexes rows 0..n-1 of the key columns.
func (t *joinTable) build(keys []*store.Vec, n int) {
	t.keys = keys
	t.ints = false
	if len(keys) == 1 && keys[0].Kind == store.KindInt64 && n <= maxIntBuild {
		t.buildInts(keys[0], n)
		return
	}
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

// buildInts is build for one bigint-like key column.
func (t *joinTable) buildInts(v *store.Vec, n int) {
	t.ints = true
	capacity, shift := tableShift(n)
	t.shift, t.mask = shift, uint64(capacity-1)
	// A reused table keeps its arrays when they are large enough.
	if cap(t.islot) >= capacity {
		t.islot = t.islot[:capacity]
		clear(t.islot)
	} else {
		t.islot = make([]joinSlot, capacity)
	}
	if cap(t.next) >= n {
		t.next = t.next[:n]
	} else {
		t.next = make([]int32, n)
	}
	xs := v.Ints[:n]
	next, slots, mask := t.next, t.islot, t.mask
	for r, x := range xs {
		next[r] = -1
		if v.Nulls != nil && v.IsNull(r) {
			continue
		}
		for s := intSlotOf(x, shift); ; s = (s + 1) & mask {
			e := slots[s]
			if e == 0 {
				slots[s] = joinSlot(r + 1)
				break
			}
			if head := e.head1() - 1; xs[head] == x {
				next[r] = next[head]
				next[head] = int32(r)
				slots[s] = e | moreBit
				break
			}
		}
	}
}

// slotOf returns the slot holding key x, or an empty slot (0) when no build row has it.
func (t *joinTable) slotOf(x int64) joinSlot {
	slots, keys := t.islot, t.keys[0].Ints
	for s := intSlotOf(x, t.shift); ; s = (s + 1) & t.mask {
		if e := slots[s]; e == 0 || keys[e.head1()-1] == x {
			return e
		}
	}
}

// findInt returns the first build row whose key is x, or -1, for a table of one
// bigint-like key.
func (t *joinTable) findInt(x int64) int32 {
	return t.slotOf(x).head1() - 1
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
	return int64(8*len(t.hashes) + 4*len(t.heads) + 8*len(t.slotH) + 4*len(t.next) + 4*len(t.islot))
}

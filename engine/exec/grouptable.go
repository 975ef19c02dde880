package exec

import "github.com/bucketlint/bucketlint/engine/store"

// A groupTable numbers the distinct keys of an aggregation: open addressing with linear
// probing over parallel arrays (slot → group id and hash), the group keys held as column
// vectors in group order. It doubles when the load would pass 0.5.
type groupTable struct {
	keys   []*store.Vec
	hashes []uint64 // group → hash
	slots  []int32  // slot → group, -1 when empty
	shift  uint
	mask   uint64
	rowH   []uint64
}

func newGroupTable(cols schema) *groupTable {
	t := &groupTable{keys: make([]*store.Vec, len(cols))}
	for i, c := range cols {
		t.keys[i] = store.NewVec(c.Type, 0)
	}
	t.resize(16)
	return t
}

func (t *groupTable) groups() int { return len(t.hashes) }

func (t *groupTable) resize(capacity int) {
	_, t.shift = tableShift(capacity / 2)
	t.mask = uint64(capacity - 1)
	t.slots = make([]int32, capacity)
	for i := range t.slots {
		t.slots[i] = -1
	}
	for g, h := range t.hashes {
		s := (h * mulA) >> t.shift
		for t.slots[s] >= 0 {
			s = (s + 1) & t.mask
		}
		t.slots[s] = int32(g)
	}
}

// assign sets gids[i] to the group of row i of the key columns, adding new groups.
func (t *groupTable) assign(keys []*store.Vec, n int, gids []int32) {
	if cap(t.rowH) < n {
		t.rowH = make([]uint64, n)
	}
	h := t.rowH[:n]
	hashKeys(h, keys, n)
	if len(keys) == 1 && keys[0].Kind == store.KindInt64 && keys[0].Nulls == nil {
		t.assignInts(keys[0].Ints[:n], h, gids)
		return
	}
	for r := range n {
		if 2*(len(t.hashes)+1) > len(t.slots) {
			t.resize(2 * len(t.slots))
		}
		for s := (h[r] * mulA) >> t.shift; ; s = (s + 1) & t.mask {
			g := t.slots[s]
			if g < 0 {
				g = int32(len(t.hashes))
				t.slots[s] = g
				t.hashes = append(t.hashes, h[r])
				for k, v := range t.keys {
					v.AppendRow(keys[k], r)
				}
				gids[r] = g
				break
			}
			if t.hashes[g] == h[r] && keysEqual(t.keys, int(g), keys, r) {
				gids[r] = g
				break
			}
		}
	}
}

// assignInts is assign for one bigint-like key column without NULLs.
func (t *groupTable) assignInts(xs []int64, h []uint64, gids []int32) {
	kv := t.keys[0]
	for r, x := range xs {
		if 2*(len(t.hashes)+1) > len(t.slots) {
			t.resize(2 * len(t.slots))
		}
		for s := (h[r] * mulA) >> t.shift; ; s = (s + 1) & t.mask {
			g := t.slots[s]
			if g < 0 {
				g = int32(len(t.hashes))
				t.slots[s] = g
				t.hashes = append(t.hashes, h[r])
				kv.Ints = append(kv.Ints, x)
				gids[r] = g
				break
			}
			if kv.Ints[g] == x {
				gids[r] = g
				break
			}
		}
	}
}

func (t *groupTable) memBytes() int64 {
	n := int64(12*len(t.hashes) + 4*len(t.slots))
	for _, k := range t.keys {
		n += k.MemBytes()
	}
	return n
}

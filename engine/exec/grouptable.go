//go:build engine

package exec

import "github.com/bucketlint/bucketlint/engine/store"

// A groupTable numbers the distinct keys of an aggregation: open addressing with linear
// probing over parallel arrays (slot → group id and hash), the group keys held as column
// vectors in group order. It doubles when the load would pass 0.5.
//
// One bigint-like key column takes a faster path: a slot holds its group plus one (0 when
// empty, so a new table needs no fill) and the key is compared in the group's key vector, so
// no hash is kept per group and the slots take 4 bytes: a bucket's table of 16,000 groups
// (65,536 slots) stays in the core's cache. The NULL key, which never enters the slots, has a
// group of its own.
type groupTable struct {
	keys   []*store.Vec
	n      int      // groups
	hashes []uint64 // group → hash (general path)
	slots  []int32  // slot → group, -1 when empty (general path)
	shift  uint
	mask   uint64
	rowH   []uint64
	// The one-int64-key path.
	ints  bool
	islot []int32
	nullG int32 // group of the NULL key, -1 until seen
	// Dictionary-coded keys (assignCoded): the group of each code, the first row of each
	// code, those rows' keys and groups.
	codeG   []int32
	reps    []int32
	repKeys *store.Vec
	repG    []int32
}

func newGroupTable(cols schema) *groupTable {
	t := &groupTable{keys: make([]*store.Vec, len(cols)), nullG: -1}
	for i, c := range cols {
		t.keys[i] = store.NewVec(c.Type, 0)
	}
	t.ints = len(cols) == 1 && t.keys[0].Kind == store.KindInt64
	t.resize(16)
	return t
}

func (t *groupTable) groups() int { return t.n }

// reset empties the table, keeping its capacity.
func (t *groupTable) reset() {
	t.n, t.nullG = 0, -1
	t.hashes = t.hashes[:0]
	for _, k := range t.keys {
		k.Reset()
	}
	clear(t.islot)
	for i := range t.slots {
		t.slots[i] = -1
	}
}

// intSlotOf is the first slot of key x: the top bits of a mixed hash.
func intSlotOf(x int64, shift uint) uint64 {
	h := uint64(x) * mulA
	h ^= h >> 31
	h *= mulB
	h ^= h >> 29
	return (h * mulA) >> shift
}

func (t *groupTable) resize(capacity int) {
	_, t.shift = tableShift(capacity / 2)
	t.mask = uint64(capacity - 1)
	if t.ints {
		t.islot = make([]int32, capacity)
		for g, x := range t.keys[0].Ints {
			if int32(g) == t.nullG {
				continue
			}
			s := intSlotOf(x, t.shift)
			for t.islot[s] != 0 {
				s = (s + 1) & t.mask
			}
			t.islot[s] = int32(g) + 1
		}
		return
	}
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

// fit sizes an empty table for n groups at a load of at most 0.5, shrinking one that an
// earlier partition grew beyond four times that: a table far larger than its groups spreads
// every probe over memory the cache does not hold, and reset clears all of it.
func (t *groupTable) fit(n int) {
	size := len(t.slots)
	if t.ints {
		size = len(t.islot)
	}
	need := 16
	for need < 2*n {
		need *= 2
	}
	switch {
	case t.n == 0 && size > 4*need:
		t.islot, t.slots = nil, nil
		t.resize(need)
	case size < need:
		t.resize(need)
	}
}

// reserve grows the table so that n more groups keep the load at most 0.5.
func (t *groupTable) reserve(n int) {
	size := len(t.slots)
	if t.ints {
		size = len(t.islot)
	}
	need := size
	for 2*(t.n+n) > need {
		need *= 2
	}
	if need > size {
		t.resize(need)
	}
}

// assign sets gids[i] to the group of row i of the key columns, adding new groups.
func (t *groupTable) assign(keys []*store.Vec, n int, gids []int32) {
	gids = gids[:n]
	if t.n == 0 {
		// The first batch sizes the table for as many groups as it has rows, up to a
		// batch's worth: a row group of a Spark file may hold 100,000s of rows and few keys.
		t.reserve(min(n, store.BatchSize))
	}
	if len(keys) == 1 && keys[0].HasCodes() && 2*(keys[0].DictLen+1) <= n {
		t.assignCoded(keys[0], n, gids)
		return
	}
	if t.ints {
		t.assignInts(keys[0], n, gids)
		return
	}
	if cap(t.rowH) < n {
		t.rowH = make([]uint64, n)
	}
	h := t.rowH[:n]
	hashKeys(h, keys, n)
	for r := range n {
		if 2*(t.n+1) > len(t.slots) {
			t.resize(2 * len(t.slots))
		}
		for s := (h[r] * mulA) >> t.shift; ; s = (s + 1) & t.mask {
			g := t.slots[s]
			if g < 0 {
				g = int32(t.n)
				t.n++
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

// appendDistinct is assign for rows known to hold keys distinct from each other and from
// every group so far: each row becomes a new group, and the slots are left empty (the
// table is not probed afterwards).
func (t *groupTable) appendDistinct(keys []*store.Vec, n int, gids []int32) {
	for i := range gids[:n] {
		gids[i] = int32(t.n + i)
	}
	for k, v := range t.keys {
		if keys[k].Len() == n {
			v.AppendRows(keys[k], nil)
			continue
		}
		for r := range n {
			v.AppendRow(keys[k], r)
		}
	}
	t.n += n
}

// assignCoded is assign for one key column read with dictionary codes (store.Vec.Codes):
// the first row of each code is looked up (or added) like any key, and every row takes the
// group of its code, so the table is probed once per distinct code, not once per row.
func (t *groupTable) assignCoded(v *store.Vec, n int, gids []int32) {
	codes := v.Codes[:n]
	gids = gids[:n]
	m := t.codeG[:0]
	for range v.DictLen + 1 {
		m = append(m, -1)
	}
	t.codeG = m
	// Each row takes the number of its code's first row among the first rows (reps), which
	// is its group less base when every first row turns out to be a new group: the usual
	// case of a partition's first batch, whose dictionary holds each value once.
	base := int32(t.n)
	reps := t.reps[:0]
	for r, c := range codes {
		i := m[c]
		if i < 0 {
			i = int32(len(reps))
			m[c] = i
			reps = append(reps, int32(r))
		}
		gids[r] = base + i
	}
	t.reps = reps
	if t.repKeys == nil {
		t.repKeys = store.NewVec(v.Type, len(reps))
	}
	t.repKeys.Reset()
	t.repKeys.AppendRows(v, reps)
	if cap(t.repG) < len(reps) {
		t.repG = make([]int32, len(reps))
	}
	repG := t.repG[:len(reps)]
	t.assign([]*store.Vec{t.repKeys}, len(reps), repG)
	identity := true
	for i, g := range repG {
		identity = identity && g == base+int32(i)
	}
	if identity {
		return
	}
	for r, g := range gids {
		gids[r] = repG[g-base]
	}
}

// assignInts is assign for one bigint-like key column.
func (t *groupTable) assignInts(v *store.Vec, n int, gids []int32) {
	xs := v.Ints[:n]
	gids = gids[:n]
	kv := t.keys[0]
	slots, shift, mask := t.islot, t.shift, t.mask
	for r, x := range xs {
		if v.Nulls != nil && v.IsNull(r) {
			if t.nullG < 0 {
				t.nullG = int32(t.n)
				t.n++
				kv.AppendNull()
			}
			gids[r] = t.nullG
			continue
		}
		for s := intSlotOf(x, shift); ; s = (s + 1) & mask {
			g1 := slots[s]
			if g1 == 0 {
				g := int32(t.n)
				t.n++
				slots[s] = g + 1
				kv.Ints = append(kv.Ints, x)
				gids[r] = g
				if 2*(t.n+1) > len(slots) {
					t.resize(2 * len(slots))
					slots, shift, mask = t.islot, t.shift, t.mask
				}
				break
			}
			if kv.Ints[g1-1] == x {
				gids[r] = g1 - 1
				break
			}
		}
	}
}

func (t *groupTable) memBytes() int64 {
	n := int64(8*len(t.hashes) + 4*len(t.slots) + 4*len(t.islot) + 4*cap(t.codeG) + 8*cap(t.reps))
	for _, k := range t.keys {
		n += k.MemBytes()
	}
	return n
}

//go:build engine

package exec

import (
	"context"
	"io"

	"github.com/bucketlint/bucketlint/engine/store"
)

// joinOp probes a built table with the probe side's batches, then emits the build rows an
// outer, semi or anti join still owes.
type joinOp struct {
	js      *joinSpec
	build   *store.Batch
	table   *joinTable
	probe   Operator
	release func()
	matched []bool
	hashes  []uint64
	// castBufs hold the probe keys converted to the join's decimal key types.
	castBufs []store.Vec
	bidx     []int32 // build row of each output row, -1 for NULLs
	pidx     []int32 // probe row of each output row, -1 for NULLs
	out      *store.Batch
	done     bool
	// cur is the probe batch being joined, from row pos on; its key hashes are in hashes.
	// in is the batch the probe side returned (cur may be its compacted copy).
	in   *store.Batch
	cur  *store.Batch
	keys []*store.Vec
	ints []int64
	pos  int
	// codes are the dictionary codes of a probe batch's one key column (store.Vec.Codes),
	// when it has far fewer codes than rows; memo holds the first build row matching each
	// code (-1 for none), or noMemo before the code's first row is probed.
	codes  []int32
	memo   []int32
	cslots []codeSlot
}

// noMemo marks a code whose match is not looked up yet.
const noMemo = -2

func newJoinOp(js *joinSpec, build *store.Batch, t *joinTable, probe Operator, release func()) *joinOp {
	j := &joinOp{js: js, build: build, table: t, probe: probe, release: release}
	if js.emitBuild {
		j.matched = make([]bool, build.Len)
	}
	types := js.lcols.types()
	if !js.leftOnly {
		types = append(types, js.rcols.types()...)
	}
	j.out = store.NewBatch(types, 0)
	return j
}

func (j *joinOp) Next(ctx context.Context) (*store.Batch, error) {
	for !j.done {
		if j.cur == nil || j.pos >= j.cur.Len {
			if j.in != nil {
				// Output rows are copies (emit gathers them): the probe batch goes back.
				recycle(j.probe, j.in)
				j.in = nil
			}
			b, err := j.probe.Next(ctx)
			if err == io.EOF { //nolint:errorlint // io.EOF is returned unwrapped by contract
				j.done = true
				break
			}
			if err != nil {
				return nil, err
			}
			j.in = b
			j.start(b.Compact())
		}
		j.probeRows()
		if len(j.pidx) > 0 {
			return j.emit(j.cur), nil
		}
	}
	if j.matched != nil {
		j.bidx, j.pidx = j.bidx[:0], j.pidx[:0]
		semi := j.js.typ == "LeftSemi"
		for r, m := range j.matched {
			if m == semi {
				j.bidx = append(j.bidx, int32(r))
				j.pidx = append(j.pidx, -1)
			}
		}
		j.matched = nil
		if len(j.bidx) > 0 {
			return j.emit(nil), nil
		}
	}
	return nil, io.EOF
}

// start hashes the keys of a new probe batch (a table of one bigint-like key hashes them as
// it probes).
func (j *joinOp) start(b *store.Batch) {
	j.cur, j.pos = b, 0
	j.keys = j.js.probeKeyVecs(b, &j.castBufs)
	j.ints, j.codes = nil, nil
	if k := j.keys[0]; len(j.keys) == 1 && k.HasCodes() && 2*(k.DictLen+1) <= b.Len {
		j.codes = k.Codes[:b.Len]
		j.memo = j.memo[:0]
		for range k.DictLen + 1 {
			j.memo = append(j.memo, noMemo)
		}
	}
	if j.table.ints {
		if k := j.keys[0]; k.Nulls == nil {
			j.ints = k.Ints[:b.Len]
		}
		return
	}
	if cap(j.hashes) < b.Len {
		j.hashes = make([]uint64, b.Len)
	}
	j.hashes = j.hashes[:b.Len]
	hashKeys(j.hashes, j.keys, b.Len)
}

// probeRows fills bidx/pidx with the output rows of the current probe batch from pos on,
// stopping after about BatchSize output rows so output batches stay small and reused.
func (j *joinOp) probeRows() {
	js := j.js
	if j.ints != nil && js.typ == "Inner" && j.matched == nil {
		if j.codes != nil {
			j.probeCodedInner()
		} else {
			j.probeIntsInner()
		}
		return
	}
	j.bidx, j.pidx = j.bidx[:0], j.pidx[:0]
	r := j.pos
	for ; r < j.cur.Len && len(j.pidx) < store.BatchSize; r++ {
		var m int32
		if j.codes != nil {
			c := j.codes[r]
			if m = j.memo[c]; m == noMemo {
				m = j.find(r)
				j.memo[c] = m
			}
		} else {
			m = j.find(r)
		}
		switch {
		case js.semiOnProbe:
			if (m >= 0) == (js.typ == "LeftSemi") {
				j.pidx = append(j.pidx, int32(r))
				j.bidx = append(j.bidx, -1)
			}
			continue
		case m < 0:
			if js.emitProbe {
				j.pidx = append(j.pidx, int32(r))
				j.bidx = append(j.bidx, -1)
			}
			continue
		}
		for ; m >= 0; m = j.table.next[m] {
			if j.matched != nil {
				j.matched[m] = true
			}
			if !js.leftOnly {
				j.pidx = append(j.pidx, int32(r))
				j.bidx = append(j.bidx, m)
			}
		}
	}
	j.pos = r
}

// find returns the first build row matching probe row r of the current batch, or -1.
func (j *joinOp) find(r int) int32 {
	switch {
	case j.ints != nil:
		return j.table.findInt(j.ints[r])
	case anyNull(j.keys, r):
		return -1
	case j.table.ints:
		return j.table.findInt(j.keys[0].Ints[r])
	}
	return j.table.find(j.keys, r, j.hashes[r])
}

// probeIntsInner is probeRows for an inner join on one bigint-like key without NULLs: hash,
// probe and record matches in one tight loop. A hit or a miss only changes whether the
// output cursor advances, so the loop has no branch the CPU cannot predict except on
// repeated build keys.
func (j *joinOp) probeIntsInner() {
	t := j.table
	xs := j.ints
	slots, keys, shift, mask, next := t.islot, t.keys[0].Ints, t.shift, t.mask, t.next
	pidx, bidx := j.pidx[:cap(j.pidx)], j.bidx[:cap(j.bidx)]
	if len(pidx) <= store.BatchSize || len(bidx) != len(pidx) {
		pidx, bidx = make([]int32, 2*store.BatchSize), make([]int32, 2*store.BatchSize)
	}
	k, r := 0, j.pos
	for ; r < len(xs) && k < store.BatchSize; r++ {
		x := xs[r]
		s := intSlotOf(x, shift)
		for slots[s] != 0 && keys[slots[s].head1()-1] != x {
			s = (s + 1) & mask
		}
		e := slots[s]
		h1 := e.head1()
		pidx[k], bidx[k] = int32(r), h1-1
		k += int(uint32(h1|-h1) >> 31) // 1 on a hit (head1 > 0), else 0
		if e.more() {
			for m := next[h1-1]; m >= 0; m = next[m] {
				if k == len(pidx) {
					pidx, bidx = append(pidx, 0), append(bidx, 0)
					pidx, bidx = pidx[:cap(pidx)], bidx[:cap(bidx)]
				}
				pidx[k], bidx[k] = int32(r), m
				k++
			}
		}
	}
	j.pidx, j.bidx, j.pos = pidx[:k], bidx[:k], r
}

// emit builds the output batch from bidx/pidx (probe batch b may be nil for build-only rows).
func (j *joinOp) emit(probe *store.Batch) *store.Batch {
	j.out.Reset()
	left, right, lidx, ridx := probe, j.build, j.pidx, j.bidx
	if j.js.buildLeft {
		left, right, lidx, ridx = j.build, probe, j.bidx, j.pidx
	}
	nl := len(j.js.lcols)
	for c := range nl {
		gather(j.out.Cols[c], left, c, lidx)
	}
	if !j.js.leftOnly {
		for c := range j.out.Cols[nl:] {
			gather(j.out.Cols[nl+c], right, c, ridx)
		}
	}
	j.out.Len = len(j.pidx)
	return j.out
}

// gather appends column c of src at rows idx to dst; -1 (or a nil src) appends NULL.
func gather(dst *store.Vec, src *store.Batch, c int, idx []int32) {
	if src == nil {
		for range idx {
			dst.AppendNull()
		}
		return
	}
	sv := src.Cols[c]
	dense := true
	for _, r := range idx {
		if r < 0 {
			dense = false
			break
		}
	}
	if dense {
		dst.AppendRows(sv, idx)
		return
	}
	for _, r := range idx {
		if r < 0 {
			dst.AppendNull()
			continue
		}
		dst.AppendRow(sv, int(r))
	}
}

func (j *joinOp) Close() error {
	if j.release != nil {
		j.release()
		j.release = nil
	}
	return j.probe.Close()
}

//go:build engine

package exec

import "github.com/bucketlint/bucketlint/engine/store"

// A codeSlot is what an inner join on one bigint-like key remembers of a probe code: the
// build table's slot for the code's value (first build row plus one, 0 for none; whether the
// chain goes on), once known.
type codeSlot struct {
	head1 int32
	more  bool
	known bool
}

// probeCodedInner is probeIntsInner for a probe key column with dictionary codes: the table
// is probed once per code, and every row of the code takes the remembered slot, so the
// random accesses into the table drop from one per row to one per distinct value.
func (j *joinOp) probeCodedInner() {
	t := j.table
	codes, xs := j.codes, j.ints
	if cap(j.cslots) < len(j.memo) {
		j.cslots = make([]codeSlot, len(j.memo))
	}
	if j.pos == 0 {
		j.cslots = j.cslots[:len(j.memo)]
		clear(j.cslots)
	}
	memo, next := j.cslots, t.next
	pidx, bidx := j.pidx[:cap(j.pidx)], j.bidx[:cap(j.bidx)]
	if len(pidx) <= store.BatchSize || len(bidx) != len(pidx) {
		pidx, bidx = make([]int32, 2*store.BatchSize), make([]int32, 2*store.BatchSize)
	}
	k, r := 0, j.pos
	for ; r < len(codes) && k < store.BatchSize; r++ {
		e := &memo[codes[r]]
		if !e.known {
			s := t.slotOf(xs[r])
			*e = codeSlot{head1: s.head1(), more: s.more(), known: true}
		}
		pidx[k], bidx[k] = int32(r), e.head1-1
		k += int(uint32(e.head1|-e.head1) >> 31) // 1 on a hit (head1 > 0), else 0
		if e.more {
			for m := next[e.head1-1]; m >= 0; m = next[m] {
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

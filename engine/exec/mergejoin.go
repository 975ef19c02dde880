//go:build engine

package exec

import (
	"context"

	"github.com/bucketlint/bucketlint/engine/store"
)

// openMergeJoin runs one partition of a SortMergeJoin as Spark's SortMergeJoinExec does:
// both sides sorted by the join keys (ascending, NULLs first, as the Sort below a
// sort-merge join orders them; a side that is not sorted is sorted here), then merged run by
// run. Rows with a NULL key match nothing.
func (e *executor) openMergeJoin(ctx context.Context, js *joinSpec, left, right *stage, p int) (Operator, error) {
	var held int64
	release := func() { e.mem.release(held) }
	side := func(st *stage) (*store.Batch, error) {
		op, err := st.open(ctx, p)
		if err != nil {
			return nil, err
		}
		b, n, err := e.materialise(ctx, op, st.cols, "sort-merge join input")
		held += n
		return b, err
	}
	lb, err := side(left)
	if err != nil {
		release()
		return nil, err
	}
	rb, err := side(right)
	if err != nil {
		release()
		return nil, err
	}
	var lbufs, rbufs []store.Vec
	lk, rk := castKeys(lb, js.lkeys, js.lcasts, &lbufs), castKeys(rb, js.rkeys, js.rcasts, &rbufs)
	lperm, rperm := keyOrder(lb, lk), keyOrder(rb, rk)
	m := &merger{js: js, lk: lk, rk: rk, lperm: lperm, rperm: rperm}
	m.merge()
	pairs := int64(8 * len(m.lidx))
	if err := e.mem.reserve(pairs, "sort-merge join output"); err != nil {
		release()
		return nil, err
	}
	held += pairs
	return &pairsOp{js: js, left: lb, right: rb, lidx: m.lidx, ridx: m.ridx, release: release}, nil
}

// keyOrder returns the rows of b in key order, reusing the input order when it is sorted.
func keyOrder(b *store.Batch, keys []*store.Vec) []int32 {
	sorted := true
	if len(keys) == 1 && keys[0].Kind == store.KindInt64 && keys[0].Nulls == nil {
		xs := keys[0].Ints
		for r := 1; r < b.Len && sorted; r++ {
			sorted = xs[r-1] <= xs[r]
		}
	} else {
		for r := 1; r < b.Len && sorted; r++ {
			sorted = compareKeys(keys, r-1, keys, r) <= 0
		}
	}
	if !sorted {
		sk := make([]sortKey, len(keys))
		for i := range keys {
			sk[i] = sortKey{col: i, nullsFirst: true}
		}
		return sortedRows(&store.Batch{Len: b.Len, Cols: keys}, sk)
	}
	perm := make([]int32, b.Len)
	for i := range perm {
		perm[i] = int32(i)
	}
	return perm
}

// compareKeys orders two key tuples ascending with NULLs first.
func compareKeys(a []*store.Vec, i int, b []*store.Vec, j int) int {
	for k := range a {
		if d := store.Compare(a[k], i, b[k], j); d != 0 {
			return d
		}
	}
	return 0
}

// merger walks two key-ordered sides and records the output rows as index pairs (-1 for
// the NULL side of an outer row).
type merger struct {
	js           *joinSpec
	lk, rk       []*store.Vec
	lperm, rperm []int32
	lidx, ridx   []int32
	// li, ri are the key values when both sides have one bigint-like key without NULLs.
	li, ri []int64
}

// cmpLR compares left row l with right row r; cmpLL and cmpRR compare within a side.
func (m *merger) cmpLR(l, r int) int {
	if m.li != nil {
		return cmpOrdered(m.li[l], m.ri[r])
	}
	return compareKeys(m.lk, l, m.rk, r)
}

func (m *merger) same(keys []*store.Vec, ints []int64, a, b int) bool {
	if ints != nil {
		return ints[a] == ints[b]
	}
	return compareKeys(keys, a, keys, b) == 0
}

func (m *merger) leftOnly(r int32) {
	switch m.js.typ {
	case "LeftOuter", "FullOuter":
		m.lidx, m.ridx = append(m.lidx, r), append(m.ridx, -1)
	case "LeftAnti":
		m.lidx = append(m.lidx, r)
	}
}

func (m *merger) rightOnly(r int32) {
	if m.js.typ == "RightOuter" || m.js.typ == "FullOuter" {
		m.lidx, m.ridx = append(m.lidx, -1), append(m.ridx, r)
	}
}

func (m *merger) merge() {
	if len(m.lk) == 1 && m.lk[0].Kind == store.KindInt64 && m.rk[0].Kind == store.KindInt64 && m.lk[0].Nulls == nil && m.rk[0].Nulls == nil {
		m.li, m.ri = m.lk[0].Ints, m.rk[0].Ints
	}
	i, j := 0, 0
	nl, nr := len(m.lperm), len(m.rperm)
	for i < nl && j < nr {
		li, rj := int(m.lperm[i]), int(m.rperm[j])
		switch {
		case m.li != nil:
		case anyNull(m.lk, li):
			m.leftOnly(int32(li))
			i++
			continue
		case anyNull(m.rk, rj):
			m.rightOnly(int32(rj))
			j++
			continue
		}
		c := m.cmpLR(li, rj)
		switch {
		case c < 0:
			m.leftOnly(int32(li))
			i++
		case c > 0:
			m.rightOnly(int32(rj))
			j++
		default:
			i2, j2 := i+1, j+1
			for i2 < nl && m.same(m.lk, m.li, int(m.lperm[i2]), li) {
				i2++
			}
			for j2 < nr && m.same(m.rk, m.ri, int(m.rperm[j2]), rj) {
				j2++
			}
			m.run(i, i2, j, j2)
			i, j = i2, j2
		}
	}
	for ; i < nl; i++ {
		m.leftOnly(m.lperm[i])
	}
	for ; j < nr; j++ {
		m.rightOnly(m.rperm[j])
	}
}

// run emits the rows of two runs of equal keys.
func (m *merger) run(i, i2, j, j2 int) {
	switch m.js.typ {
	case "LeftSemi":
		m.lidx = append(m.lidx, m.lperm[i:i2]...)
	case "LeftAnti":
	default:
		for _, l := range m.lperm[i:i2] {
			for _, r := range m.rperm[j:j2] {
				m.lidx, m.ridx = append(m.lidx, l), append(m.ridx, r)
			}
		}
	}
}

// pairsOp emits the rows of recorded index pairs, BatchSize at a time.
type pairsOp struct {
	js          *joinSpec
	left, right *store.Batch
	lidx, ridx  []int32
	pos         int
	out         *store.Batch
	release     func()
}

func (p *pairsOp) Next(context.Context) (*store.Batch, error) {
	if p.pos >= len(p.lidx) {
		return nil, errEOF()
	}
	if p.out == nil {
		types := p.js.lcols.types()
		if !p.js.leftOnly {
			types = append(types, p.js.rcols.types()...)
		}
		p.out = store.NewBatch(types, store.BatchSize)
	}
	end := min(p.pos+store.BatchSize, len(p.lidx))
	p.out.Reset()
	nl := len(p.js.lcols)
	for c := range nl {
		gather(p.out.Cols[c], p.left, c, p.lidx[p.pos:end])
	}
	if !p.js.leftOnly {
		for c := range p.out.Cols[nl:] {
			gather(p.out.Cols[nl+c], p.right, c, p.ridx[p.pos:end])
		}
	}
	p.out.Len = end - p.pos
	p.pos = end
	return p.out, nil
}

func (p *pairsOp) Close() error {
	if p.release != nil {
		p.release()
		p.release = nil
	}
	return nil
}

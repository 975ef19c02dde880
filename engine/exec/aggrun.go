//go:build engine

package exec

import (
	"context"
	"math"

	"github.com/bucketlint/bucketlint/engine/hash"
	"github.com/bucketlint/bucketlint/engine/store"
)

// runAggregate groups every row of op and returns the output batch and the bytes charged.
func (e *executor) runAggregate(ctx context.Context, spec *aggSpec, op Operator) (*store.Batch, int64, error) {
	// Tables, group ids and the functions' state are reused across partitions: a reset
	// keeps their capacity, so the next partition neither reallocates nor regrows them (a
	// bucket of a Spark file is often one batch of 100,000s of rows).
	st, _ := spec.tables.Get().(*aggState)
	if st == nil {
		st = &aggState{t: newGroupTable(spec.kcols), funcs: make([]aggFunc, len(spec.funcs))}
		copy(st.funcs, spec.funcs)
	} else {
		st.reset()
	}
	defer spec.tables.Put(st)
	t, funcs := st.t, st.funcs
	if len(spec.keys) > 0 && !spec.distinctIn {
		t.fit(int(spec.lastGroups.Load()))
	}
	gids := st.gids
	defer func() { st.gids = gids }()
	var held int64
	err := drain(ctx, op, func(in *store.Batch) error {
		// Groups copy their keys and functions their values: the batch goes back to the
		// scan that read it once folded.
		defer recycle(op, in)
		b := in.Compact()
		n := b.Len
		if cap(gids) < n {
			gids = make([]int32, n)
		}
		gids = gids[:n]
		switch {
		case len(spec.keys) == 0: // a global aggregate: one group
			clear(gids)
			t.n = 1
		case spec.distinctIn:
			t.appendDistinct(pick(b, spec.keys), n, gids)
		default:
			t.assign(pick(b, spec.keys), n, gids)
		}
		for i := range funcs {
			f := &funcs[i]
			f.grow(t.groups())
			switch {
			case spec.merge:
				f.merge(b, gids)
			case len(spec.keys) == 0 && f.updateGlobal(b, n):
			default:
				f.update(b, gids)
			}
		}
		if err := e.mem.grow(&held, t.memBytes()+int64(len(funcs))*int64(t.groups())*17, "aggregation hash table"); err != nil {
			return err
		}
		return nil
	})
	if err != nil {
		e.mem.release(held)
		return nil, 0, err
	}
	spec.lastGroups.Store(int64(t.groups()))
	if len(spec.keys) == 0 && t.groups() == 0 {
		// A global aggregate has one group even over no rows.
		t.n = 1
		for i := range funcs {
			funcs[i].grow(1)
		}
	}
	return spec.output(t, funcs), held, nil
}

// An aggState is what runAggregate keeps from partition to partition (aggSpec.tables): the
// group table, the functions with their state, and the group ids of a batch.
type aggState struct {
	t     *groupTable
	funcs []aggFunc
	gids  []int32
}

// reset empties the table and the functions' state, keeping their memory.
func (s *aggState) reset() {
	s.t.reset()
	for i := range s.funcs {
		s.funcs[i].reset()
	}
}

// update folds raw input rows into the groups.
func (f *aggFunc) update(b *store.Batch, gids []int32) {
	if len(f.in) == 0 { // count(*)
		counts := f.ints
		for _, g := range gids {
			counts[g]++
		}
		return
	}
	v := b.Cols[f.in[0]]
	switch f.op {
	case "count":
		for r, g := range gids {
			if !v.IsNull(r) {
				f.ints[g]++
			}
		}
	case "avg":
		if f.decSum() {
			f.addDecimals(v, gids)
			for r, g := range gids {
				if !v.IsNull(r) {
					f.ints[g]++
				}
			}
			return
		}
		for r, g := range gids {
			if !v.IsNull(r) {
				f.floats[g] += numeric(v, r)
				f.ints[g]++
			}
		}
	default:
		f.fold(v, gids)
	}
}

// updateGlobal folds n raw input rows into the one group of a global aggregate for
// count(*) and for count and sum of a bigint-like column without NULLs, summing in a
// register; it reports false, doing nothing, for the other cases.
func (f *aggFunc) updateGlobal(b *store.Batch, n int) bool {
	if len(f.in) == 0 {
		f.ints[0] += int64(n)
		return true
	}
	v := b.Cols[f.in[0]]
	if v.Nulls != nil || v.Kind != store.KindInt64 {
		return false
	}
	switch f.op {
	case "count":
		f.ints[0] += int64(n)
	case "sum":
		if f.decSum() {
			return false
		}
		var sum int64
		for _, x := range v.Ints[:n] {
			sum += x
		}
		f.ints[0] += sum
		f.has[0] = f.has[0] || n > 0
	default:
		return false
	}
	return true
}

// merge folds partial buffers into the groups.
func (f *aggFunc) merge(b *store.Batch, gids []int32) {
	v := b.Cols[f.in[0]]
	switch f.op {
	case "count":
		for r, g := range gids {
			f.ints[g] += v.Ints[r]
		}
	case "avg":
		c := b.Cols[f.in[1]]
		if f.decSum() {
			f.addDecimals(v, gids)
		}
		for r, g := range gids {
			if !v.IsNull(r) && !f.decSum() {
				f.floats[g] += v.Floats[r]
			}
			f.ints[g] += c.Ints[r]
		}
	default:
		f.fold(v, gids)
	}
}

// fold applies sum, min or max of non-NULL values of v.
func (f *aggFunc) fold(v *store.Vec, gids []int32) {
	switch {
	case f.decSum():
		f.addDecimals(v, gids)
		return
	case f.wideMinMax():
		f.foldWide(v, gids)
		return
	}
	if f.op == "sum" && v.Nulls == nil {
		switch v.Kind {
		case store.KindInt64:
			xs := v.Ints[:len(gids)]
			for r, g := range gids {
				f.ints[g] += xs[r]
				f.has[g] = true
			}
			return
		case store.KindFloat64:
			xs := v.Floats[:len(gids)]
			for r, g := range gids {
				f.floats[g] += xs[r]
				f.has[g] = true
			}
			return
		}
	}
	for r, g := range gids {
		if v.IsNull(r) {
			continue
		}
		first := !f.has[g]
		f.has[g] = true
		switch v.Kind {
		case store.KindInt64:
			x := v.Ints[r]
			switch {
			case f.op == "sum":
				f.ints[g] += x
			case first || (f.op == "min") == (x < f.ints[g]) && x != f.ints[g]:
				f.ints[g] = x
			}
		case store.KindFloat64:
			x := v.Floats[r]
			switch {
			case f.op == "sum":
				f.floats[g] += x
			case first || (f.op == "min" && floatLess(x, f.floats[g])) || (f.op == "max" && floatLess(f.floats[g], x)):
				f.floats[g] = x
			}
		case store.KindBytes:
			x := v.Bytes(r)
			if first || (f.op == "min") == (string(x) < string(f.bytes[g])) && string(x) != string(f.bytes[g]) {
				f.bytes[g] = append(f.bytes[g][:0], x...)
			}
		}
	}
}

// addDecimals adds the non-NULL decimals of v (of any width, at the sum's scale) to the
// groups' 128-bit sums. A sum that leaves its type's range marks the group overflowed for
// good: Spark's hash aggregate stores the buffer in an UnsafeRow after every row, which sets
// an out-of-range decimal to NULL, and NULL plus anything stays NULL. An overflowed partial
// buffer arrives as a value out of every decimal's range (see emit), so merging it
// overflows too.
func (f *aggFunc) addDecimals(v *store.Vec, gids []int32) {
	limit := hash.Pow10Int128(f.sumOf().Precision)
	sums, over := f.wide, f.over
	if v.Kind == store.KindInt128 {
		xs := v.Wide[:len(gids)]
		for r, g := range gids {
			if v.Nulls != nil && v.IsNull(r) {
				continue
			}
			f.has[g] = true
			s, o := sums[g].Add(xs[r])
			sums[g] = s
			if o || !s.FitsDigits(limit) {
				over[g] = true
			}
		}
		return
	}
	xs := v.Ints[:len(gids)]
	for r, g := range gids {
		if v.Nulls != nil && v.IsNull(r) {
			continue
		}
		f.has[g] = true
		s, o := sums[g].Add(hash.Int128Of(xs[r]))
		sums[g] = s
		if o || !s.FitsDigits(limit) {
			over[g] = true
		}
	}
}

// foldWide applies min or max of the non-NULL values of a wide decimal vector.
func (f *aggFunc) foldWide(v *store.Vec, gids []int32) {
	isMin := f.op == "min"
	xs := v.Wide[:len(gids)]
	for r, g := range gids {
		if v.Nulls != nil && v.IsNull(r) {
			continue
		}
		x := xs[r]
		if !f.has[g] {
			f.has[g] = true
			f.wide[g] = x
			continue
		}
		if d := x.Cmp(f.wide[g]); isMin && d < 0 || !isMin && d > 0 {
			f.wide[g] = x
		}
	}
}

// appendSum appends a decimal sum to a vector of its type. An overflowed sum is NULL when
// final, else a marker beyond every decimal's range that makes the merging sum overflow.
func appendSum(dst *store.Vec, x hash.Int128, over, final bool) {
	switch {
	case over && final:
		dst.AppendNull()
		return
	case over && dst.Kind == store.KindInt128:
		x = hash.Int128{Hi: math.MaxInt64, Lo: math.MaxUint64}
	case over:
		x = hash.Int128Of(math.MaxInt64)
	}
	if dst.Kind == store.KindInt128 {
		dst.AppendWide(x)
	} else {
		dst.AppendInt(int64(x.Lo))
	}
}

// floatLess orders doubles as Spark does: NaN above everything, -0.0 equal to 0.0.
func floatLess(x, y float64) bool {
	xn, yn := math.IsNaN(x), math.IsNaN(y)
	if xn || yn {
		return !xn && yn
	}
	return x < y
}

func numeric(v *store.Vec, r int) float64 {
	if v.Kind == store.KindFloat64 {
		return v.Floats[r]
	}
	x := float64(v.Ints[r])
	if v.Type.Kind == hash.KindDecimal {
		for range v.Type.Scale {
			x /= 10
		}
	}
	return x
}

// output builds the result batch: keys, then values or buffers.
func (s *aggSpec) output(t *groupTable, funcs []aggFunc) *store.Batch {
	n := t.groups()
	out := s.newOut(n)
	for k := range s.keys {
		out.Cols[k].AppendRows(t.keys[k], nil)
	}
	c := len(s.keys)
	for i := range funcs {
		f := &funcs[i]
		switch {
		case f.op == "count":
			out.Cols[c].Ints = append(out.Cols[c].Ints, f.ints[:n]...)
			c++
		case f.op == "avg" && f.decSum() && !s.final:
			for g := range n {
				appendSum(out.Cols[c], f.wide[g], f.over[g], false)
			}
			out.Cols[c+1].Ints = append(out.Cols[c+1].Ints, f.ints[:n]...)
			c += 2
		case f.op == "avg" && f.decSum():
			f.emitDecimalAvg(out.Cols[c], n)
			c++
		case f.op == "avg" && !s.final:
			out.Cols[c].Floats = append(out.Cols[c].Floats, f.floats[:n]...)
			out.Cols[c+1].Ints = append(out.Cols[c+1].Ints, f.ints[:n]...)
			c += 2
		case f.op == "avg":
			for g := range n {
				if f.ints[g] == 0 {
					out.Cols[c].AppendNull()
				} else {
					out.Cols[c].AppendFloat(f.floats[g] / float64(f.ints[g]))
				}
			}
			c++
		default:
			f.emit(out.Cols[c], n, s.final)
			c++
		}
	}
	out.Len = n
	return out
}

// emit appends sum, min or max per group, NULL for a group without values. A decimal sum
// that overflowed is NULL in a final result and out of range in a partial one.
func (f *aggFunc) emit(dst *store.Vec, n int, final bool) {
	for g := range n {
		switch {
		case !f.has[g]:
			dst.AppendNull()
		case f.decSum():
			appendSum(dst, f.wide[g], f.over[g], final)
		case f.wideMinMax():
			dst.AppendWide(f.wide[g])
		case dst.Kind == store.KindInt64:
			dst.AppendInt(f.ints[g])
		case dst.Kind == store.KindFloat64:
			dst.AppendFloat(f.floats[g])
		default:
			dst.AppendBytes(f.bytes[g])
		}
	}
}

//go:build engine

package exec

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/bucketlint/bucketlint/engine/hash"
	"github.com/bucketlint/bucketlint/engine/store"
	"github.com/bucketlint/bucketlint/plan"
)

// A winFunc is one window expression of a WindowExec: a ranking function (row_number,
// rank, dense_rank) or an aggregate (count, sum, min, max, avg) over the whole window
// partition or running over its order (RANGE frame: peers share the value).
type winFunc struct {
	op string
	// arg is the argument column, -1 for none (ranking functions, count(*), count(1)).
	arg int
	// whole is true for a frame covering the whole window partition.
	whole   bool
	argType hash.Type
	// dec is set for sum and avg over a decimal, which sum exactly into a buffer of
	// precision limitDigits (Spark's decimal(min(38, p+10), s)); limit is 10^limitDigits.
	dec   bool
	limit hash.Int128
	out   column
}

// resultType is the type of the function's value.
func (f *winFunc) resultType() hash.Type {
	switch f.op {
	case "row_number":
		return hash.Type{Kind: hash.KindInt}
	case "rank", "dense_rank":
		return hash.Type{Kind: hash.KindInt}
	case "count":
		return bigintType()
	case "sum":
		if f.dec {
			return decimalSumType(f.argType)
		}
		return sumType(f.argType)
	case "avg":
		if f.dec {
			return avgType(f.argType, false)
		}
		return doubleType()
	}
	return f.argType
}

// compileWinFunc compiles one window expression's tree, as Spark prints it and as simulate
// predicts it: "sum(v#2) windowspecdefinition(k#1, v#2 ASC NULLS FIRST,
// specifiedwindowframe(RangeFrame, unboundedpreceding$(), currentrow$())) AS s#6L", an alias
// of an "over" node (the function, the partition keys, the sort keys, the frame). Frames
// other than the whole window partition and, for aggregates, RANGE BETWEEN UNBOUNDED
// PRECEDING AND CURRENT ROW (ranking functions: ROWS) are an error, never approximated.
func compileWinFunc(x *plan.X, in schema, ordered bool) (winFunc, error) {
	bad := func(why string) error {
		return fmt.Errorf("unsupported window expression %q: %s", x.Raw, why)
	}
	if x.Op != plan.OpAlias || x.Name == "" {
		return winFunc{}, bad("no alias: not a window expression as WindowExec prints it")
	}
	over := x.Args[0]
	if over.Op != plan.OpOther || over.Name != "over" || len(over.Args) < 2 {
		return winFunc{}, bad("not a function over a window specification")
	}
	fn, spec := over.Args[0], over.Args[1:]
	frame := spec[len(spec)-1]
	nOrder := 0
	for _, p := range spec[:len(spec)-1] {
		if p.Op == plan.OpOrder {
			nOrder++
		}
	}
	if (nOrder > 0) != ordered {
		return winFunc{}, bad("its ORDER BY differs from the operator's")
	}
	if fn.Op != plan.OpCall {
		return winFunc{}, bad("unknown function")
	}
	f := winFunc{op: fn.Name, arg: -1}
	switch f.op {
	case "row_number", "rank", "dense_rank", "count", "sum", "min", "max", "avg":
	default:
		return winFunc{}, bad("unknown function (row_number, rank, dense_rank, count, sum, min, max, avg are supported)")
	}
	kind, upper, err := winFrame(frame)
	if err != nil {
		return winFunc{}, bad(err.Error())
	}
	switch f.op {
	case "row_number", "rank", "dense_rank":
		if !ordered || kind != "rowframe" || upper != "currentrow$" {
			return winFunc{}, bad("ranking needs ORDER BY and ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW")
		}
		if f.op == "row_number" && len(fn.Args) > 0 {
			return winFunc{}, bad("row_number takes no argument")
		}
	case "count", "sum", "min", "max", "avg":
		switch {
		case upper == "unboundedfollowing$" && (kind == "rowframe" || kind == "rangeframe"):
			f.whole = true
		case upper == "currentrow$" && kind == "rangeframe" && ordered:
		default:
			return winFunc{}, bad("only the whole window partition or RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW are supported")
		}
		if err := f.aggregateArg(fn, in); err != nil {
			return winFunc{}, bad(err.Error())
		}
	}
	f.out = column{Name: x.Name, ID: x.ID, Type: f.resultType()}
	return f, nil
}

// winFrame reads a specifiedwindowframe(kind, lower, upper) call: the frame kind ("rowframe",
// "rangeframe") and the upper bound ("currentrow$", "unboundedfollowing$", or an offset's
// text); only frames from UNBOUNDED PRECEDING are supported.
func winFrame(frame *plan.X) (kind, upper string, err error) {
	if frame.Op != plan.OpCall || frame.Name != "specifiedwindowframe" {
		return "", "", errors.New("no frame")
	}
	bound := func(b *plan.X) string {
		if b.Op == plan.OpCall && len(b.Args) == 0 {
			return b.Name
		}
		return b.Raw
	}
	if len(frame.Args) != 3 || bound(frame.Args[1]) != "unboundedpreceding$" {
		return "", "", errors.New("only frames from UNBOUNDED PRECEDING are supported")
	}
	return strings.ToLower(frame.Args[0].Raw), bound(frame.Args[2]), nil
}

// aggregateArg sets the argument of an aggregate over a window: none for count(*) and
// count(1), else a column (or a widening cast of one).
func (f *winFunc) aggregateArg(fn *plan.X, in schema) error {
	if fn.Distinct {
		return errors.New("DISTINCT")
	}
	if f.op == "count" && (fn.Star || len(fn.Args) == 1 && fn.Args[0].Op == plan.OpLiteral && fn.Args[0].Value == "1") {
		return nil
	}
	if len(fn.Args) != 1 {
		return fmt.Errorf("%s takes one argument", f.op)
	}
	e, err := argColumn(fn.Args[0])
	if err != nil {
		return err
	}
	c, err := in.resolveX(e)
	if err != nil {
		return err
	}
	f.arg = c
	f.argType = in[c].Type
	if f.op == "sum" || f.op == "avg" {
		if k, _ := store.KindOf(f.argType); k == store.KindBytes || f.argType.Kind == hash.KindBoolean {
			return errors.New("sum and avg need a numeric argument")
		}
		if f.argType.Kind == hash.KindDecimal {
			f.dec = true
			f.limit = hash.Pow10Int128(decimalSumType(f.argType).Precision)
		}
	}
	return nil
}

// window compiles a WindowExec. Each partition of the child is materialised and ordered by
// the partition keys then the order keys (the child is normally sorted so already; sorting
// again keeps the result right when it is not), then every function is evaluated window
// partition by window partition.
func (e *executor) window(ctx context.Context, x *plan.Window) (*stage, error) {
	child, err := e.compile(ctx, x.Kids[0])
	if err != nil {
		return nil, err
	}
	pcols, _, err := child.cols.resolveKeys(x.PartitionKeys)
	if err != nil {
		return nil, opErr(x, "%v", err)
	}
	var keys []sortKey
	for _, c := range pcols {
		keys = append(keys, sortKey{col: c, nullsFirst: true})
	}
	ocols := make([]int, len(x.Orders))
	for i, o := range x.Orders {
		c, _, err := child.cols.resolveKeys([]plan.Expr{o.Expr})
		if err != nil {
			return nil, opErr(x, "%v", err)
		}
		ocols[i] = c[0]
		keys = append(keys, sortKey{col: c[0], desc: o.Desc, nullsFirst: o.NullsFirst})
	}
	funcs := make([]winFunc, len(x.Exprs))
	out := append(schema(nil), child.cols...)
	for i, ex := range x.Exprs {
		f, err := compileWinFunc(treeOf(ex), child.cols, len(x.Orders) > 0)
		if err != nil {
			return nil, opErr(x, "%v", err)
		}
		funcs[i] = f
		out = append(out, f.out)
	}
	st := &stage{cols: out, parts: child.parts}
	st.open = func(ctx context.Context, p int) (Operator, error) {
		op, err := child.open(ctx, p)
		if err != nil {
			return nil, err
		}
		all, held, err := e.materialise(ctx, op, child.cols, "window buffer")
		if err != nil {
			return nil, err
		}
		perm := sortedRows(all, keys)
		res := store.NewBatch(out.types(), all.Len)
		for i := range child.cols {
			res.Cols[i].AppendRows(all.Cols[i], perm)
		}
		sorted := &store.Batch{Cols: res.Cols[:len(child.cols)], Len: all.Len}
		e.mem.release(held)
		if err := e.mem.reserve(res.MemBytes(), "window buffer"); err != nil {
			return nil, err
		}
		held = res.MemBytes()
		n := all.Len
		// part[r] starts a window partition at r; peer[r] starts a peer group at r.
		part := boundaries(sorted, pcols, n, nil)
		peer := boundaries(sorted, ocols, n, part)
		for i := range funcs {
			funcs[i].eval(sorted, res.Cols[len(child.cols)+i], part, peer, n)
		}
		res.Len = n
		return &sliceOp{batches: []*store.Batch{res}, release: func() { e.mem.release(held) }}, nil
	}
	return st, nil
}

// boundaries marks the rows that differ from their predecessor on cols (NULLs equal), or
// that start a group of within.
func boundaries(b *store.Batch, cols []int, n int, within []bool) []bool {
	out := make([]bool, n)
	for r := range n {
		if r == 0 || (within != nil && within[r]) {
			out[r] = true
			continue
		}
		for _, c := range cols {
			v := b.Cols[c]
			if store.Compare(v, r-1, v, r) != 0 {
				out[r] = true
				break
			}
		}
	}
	return out
}

// winAcc accumulates one aggregate.
type winAcc struct {
	count int64
	ints  int64
	flt   float64
	best  int // row of the min or max, -1 for none
	// wide is a decimal sum; over is set once it overflowed its precision.
	wide hash.Int128
	over bool
}

// eval computes f for every row of b (sorted) into dst.
func (f *winFunc) eval(b *store.Batch, dst *store.Vec, part, peer []bool, n int) {
	switch f.op {
	case "row_number", "rank", "dense_rank":
		f.evalRanking(dst, part, peer, n)
		return
	}
	var arg *store.Vec
	if f.arg >= 0 {
		arg = b.Cols[f.arg]
	}
	for start := 0; start < n; {
		end := start + 1
		for end < n && !part[end] {
			end++
		}
		acc := winAcc{best: -1}
		if f.whole {
			f.addEmit(&acc, arg, dst, start, end)
		} else {
			for g := start; g < end; {
				ge := g + 1
				for ge < end && !peer[ge] {
					ge++
				}
				f.addEmit(&acc, arg, dst, g, ge)
				g = ge
			}
		}
		start = end
	}
}

// addEmit adds rows [from, to) to acc, then emits acc's value for each of them: the rows
// share one value (a whole window partition, or a group of peers of a RANGE frame).
func (f *winFunc) addEmit(acc *winAcc, arg, dst *store.Vec, from, to int) {
	for r := from; r < to; r++ {
		f.add(acc, arg, r)
	}
	for r := from; r < to; r++ {
		f.emit(acc, arg, dst)
	}
}

// evalRanking computes row_number, rank or dense_rank for every row.
func (f *winFunc) evalRanking(dst *store.Vec, part, peer []bool, n int) {
	var rn, rk, drk int64
	for r := range n {
		if part[r] {
			rn, rk, drk = 0, 0, 0
		}
		rn++
		if peer[r] {
			rk = rn
			drk++
		}
		switch f.op {
		case "row_number":
			dst.AppendInt(rn)
		case "rank":
			dst.AppendInt(rk)
		default:
			dst.AppendInt(drk)
		}
	}
}

func (f *winFunc) add(acc *winAcc, arg *store.Vec, r int) {
	if arg == nil {
		acc.count++
		return
	}
	if arg.IsNull(r) {
		return
	}
	acc.count++
	if f.dec {
		f.addDecimal(acc, arg, r)
		return
	}
	switch f.op {
	case "sum":
		if arg.Kind == store.KindFloat64 {
			acc.flt += arg.Floats[r]
		} else {
			acc.ints += arg.Ints[r]
		}
	case "avg":
		acc.flt += numeric(arg, r)
	case "min":
		if acc.best < 0 || store.Compare(arg, r, arg, acc.best) < 0 {
			acc.best = r
		}
	case "max":
		if acc.best < 0 || store.Compare(arg, r, arg, acc.best) > 0 {
			acc.best = r
		}
	}
}

func (f *winFunc) emit(acc *winAcc, arg *store.Vec, dst *store.Vec) {
	if f.dec {
		f.emitDecimal(acc, dst)
		return
	}
	switch f.op {
	case "count":
		dst.AppendInt(acc.count)
	case "sum":
		switch {
		case acc.count == 0:
			dst.AppendNull()
		case dst.Kind == store.KindFloat64:
			dst.AppendFloat(acc.flt)
		default:
			dst.AppendInt(acc.ints)
		}
	case "avg":
		if acc.count == 0 {
			dst.AppendNull()
		} else {
			dst.AppendFloat(acc.flt / float64(acc.count))
		}
	default:
		if acc.best < 0 {
			dst.AppendNull()
		} else {
			dst.AppendRow(arg, acc.best)
		}
	}
}

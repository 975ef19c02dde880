package exec

import (
	"context"
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

// parseWinFunc reads one window expression as Spark prints it, and as simulate
// predicts it (ids present on columns, possibly absent elsewhere):
// "sum(v#2) windowspecdefinition(k#1, v#2 ASC NULLS FIRST, specifiedwindowframe(RangeFrame,
// unboundedpreceding$(), currentrow$())) AS s#6L". Frames other than the whole window
// partition and, for aggregates, RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW (ranking
// functions: ROWS) are an error, never approximated.
func parseWinFunc(raw string, in schema, ordered bool) (winFunc, error) {
	bad := func(why string) error {
		return fmt.Errorf("unsupported window expression %q: %s", raw, why)
	}
	expr, alias, ok := cutAlias(strings.TrimSpace(raw))
	if !ok || alias == "" {
		return winFunc{}, bad("no alias: not a window expression as WindowExec prints it")
	}
	// The alias may itself hold parentheses and spaces: simulate names an unaliased
	// select item by its text ("sum(v) over (partition by k)#7"), Spark by its SQL.
	name, id := alias, ""
	if i := strings.LastIndexByte(alias, '#'); i > 0 {
		name, id = alias[:i], strings.TrimSuffix(alias[i+1:], "L")
	}
	const spec = " windowspecdefinition("
	i := strings.Index(strings.ToLower(expr), spec)
	if i < 0 || !strings.HasSuffix(expr, ")") {
		return winFunc{}, bad("not a function over a window specification")
	}
	fn := strings.TrimSpace(expr[:i])
	specBody := expr[i+len(spec) : len(expr)-1]
	parts, _ := plan.SplitArgs(specBody)
	if len(parts) == 0 {
		return winFunc{}, bad("no frame")
	}
	frame := strings.ToLower(parts[len(parts)-1])
	nOrder := 0
	for _, p := range parts[:len(parts)-1] {
		u := strings.ToUpper(p)
		if strings.Contains(u, " ASC") || strings.Contains(u, " DESC") {
			nOrder++
		}
	}
	if (nOrder > 0) != ordered {
		return winFunc{}, bad("its ORDER BY differs from the operator's")
	}
	if !strings.HasPrefix(frame, "specifiedwindowframe(") || !strings.HasSuffix(frame, ")") {
		return winFunc{}, bad("no frame")
	}
	open := strings.IndexByte(fn, '(')
	if open < 0 || !strings.HasSuffix(fn, ")") {
		return winFunc{}, bad("unknown function")
	}
	f := winFunc{op: strings.ToLower(fn[:open]), arg: -1}
	switch f.op {
	case "row_number", "rank", "dense_rank", "count", "sum", "min", "max", "avg":
	default:
		return winFunc{}, bad("unknown function (row_number, rank, dense_rank, count, sum, min, max, avg are supported)")
	}
	fr, _ := plan.SplitArgs(frame[len("specifiedwindowframe(") : len(frame)-1])
	if len(fr) != 3 || fr[1] != "unboundedpreceding$()" {
		return winFunc{}, bad("only frames from UNBOUNDED PRECEDING are supported")
	}
	kind, upper := fr[0], fr[2]
	arg := strings.TrimSpace(fn[open+1 : len(fn)-1])
	switch f.op {
	case "row_number", "rank", "dense_rank":
		if !ordered || kind != "rowframe" || upper != "currentrow$()" {
			return winFunc{}, bad("ranking needs ORDER BY and ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW")
		}
		if f.op == "row_number" && arg != "" {
			return winFunc{}, bad("row_number takes no argument")
		}
	case "count", "sum", "min", "max", "avg":
		switch {
		case upper == "unboundedfollowing$()" && (kind == "rowframe" || kind == "rangeframe"):
			f.whole = true
		case upper == "currentrow$()" && kind == "rangeframe" && ordered:
		default:
			return winFunc{}, bad("only the whole window partition or RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW are supported")
		}
		if strings.HasPrefix(strings.ToLower(arg), "distinct ") {
			return winFunc{}, bad("DISTINCT")
		}
		if f.op == "count" && (arg == "1" || arg == "*") {
			break
		}
		e, err := argExpr(arg)
		if err != nil {
			return winFunc{}, bad(err.Error())
		}
		c, err := in.resolve(e)
		if err != nil {
			return winFunc{}, bad(err.Error())
		}
		f.arg = c
		f.argType = in[c].Type
		if f.op == "sum" || f.op == "avg" {
			if k, _ := store.KindOf(f.argType); k == store.KindBytes || f.argType.Kind == hash.KindBoolean {
				return winFunc{}, bad("sum and avg need a numeric argument")
			}
			if f.argType.Kind == hash.KindDecimal {
				f.dec = true
				f.limit = hash.Pow10Int128(decimalSumType(f.argType).Precision)
			}
		}
	default:
		return winFunc{}, bad("unknown function (row_number, rank, dense_rank, count, sum, min, max, avg are supported)")
	}
	f.out = column{Name: name, ID: id, Type: f.resultType()}
	return f, nil
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
		f, err := parseWinFunc(ex.Raw, child.cols, len(x.Orders) > 0)
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
			for r := start; r < end; r++ {
				f.add(&acc, arg, r)
			}
			for r := start; r < end; r++ {
				f.emit(&acc, arg, dst)
			}
		} else {
			for g := start; g < end; {
				ge := g + 1
				for ge < end && !peer[ge] {
					ge++
				}
				for r := g; r < ge; r++ {
					f.add(&acc, arg, r)
				}
				for r := g; r < ge; r++ {
					f.emit(&acc, arg, dst)
				}
				g = ge
			}
		}
		start = end
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

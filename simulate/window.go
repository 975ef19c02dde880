package simulate

import (
	"strconv"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// windows plans WindowExec, one per distinct PARTITION BY / ORDER BY specification, as the
// optimizer's window grouping does (ExtractWindowExpressions, 3.0–4.x). Each window
// expression is printed as WindowExec prints it (windowExpr) and produces the attribute of
// the select item it is (items[pos[Item-1]]), or a new _weN attribute when the call is part
// of a larger expression.
func (s *sim) windows(in *node, specs []plan.WindowSpec, items []attr, pos []int) *node {
	n := in
	seen := map[string]*plan.Window{}
	var order []string
	extracted := 0
	for _, w := range specs {
		key := refsText(w.PartitionBy) + "|" + refsText(w.OrderBy)
		win, ok := seen[key]
		if !ok {
			win = &plan.Window{OpInfo: info("Window"), PartitionKeys: s.keys(in, w.PartitionBy, "PARTITION BY"), Orders: s.orders(in, w.OrderBy)}
			seen[key] = win
			order = append(order, key)
		}
		var out attr
		if w.Item > 0 && w.Item <= len(pos) && pos[w.Item-1] >= 0 {
			out = items[pos[w.Item-1]]
		} else {
			out = s.ids.newAttr("_we"+strconv.Itoa(extracted), "", callType(w.Function))
			extracted++
		}
		win.Exprs = append(win.Exprs, windowExpr(in.out, w, win.PartitionKeys, win.Orders, out))
	}
	for _, k := range order {
		n = newNode(seen[k], n.out, n.size, n)
	}
	return n
}

// windowExpr prints one window expression as Spark's WindowExpression and Alias print it:
// "sum(v#2) windowspecdefinition(k#1, t#3 ASC NULLS FIRST, specifiedwindowframe(RangeFrame,
// unboundedpreceding$(), currentrow$())) AS s#7". Arguments that are columns carry their
// attribute ids; other arguments are printed as written. Its tree is the alias of an "over"
// node: the call, the partition keys, the sort keys (OpOrder) and the frame.
func windowExpr(in []attr, w plan.WindowSpec, keys []plan.Expr, orders []plan.SortOrder, out attr) plan.Expr {
	call, refs := windowCall(in, w, orders)
	spec := make([]*plan.X, 0, len(keys)+len(orders)+1)
	for _, k := range keys {
		spec = append(spec, k.Tree())
		refs = append(refs, k.Refs()...)
	}
	for _, o := range orders {
		spec = append(spec, orderX(o))
		refs = append(refs, o.Expr.Refs()...)
	}
	spec = append(spec, windowFrame(w, len(orders) > 0))
	over := &plan.X{Op: plan.OpOther, Name: "over", Args: append([]*plan.X{call}, spec...), Raw: call.Raw + " windowspecdefinition(" + strings.Join(raws(spec), ", ") + ")"}
	raw := over.Raw + " AS " + out.expr.Raw
	x := &plan.X{Op: plan.OpAlias, Name: out.name, Args: []*plan.X{over}, Raw: raw}
	if c := out.expr.Tree(); c != nil && c.Op == plan.OpColumn {
		x.ID, x.Long = c.ID, c.Long
	}
	return plan.NewExpr(raw, plan.StripIDs(raw), append(refs, out.expr.Refs()...), x)
}

// argTrees are a window function's argument trees: the parser's, or, where it built none
// (arguments that are not expressions), each argument kept as written.
func argTrees(w plan.WindowSpec) []*plan.X {
	if len(w.ArgsX) == len(w.Args) {
		return w.ArgsX
	}
	out := make([]*plan.X, len(w.Args))
	for i, a := range w.Args {
		out[i] = &plan.X{Op: plan.OpOther, Raw: strings.TrimSpace(a)}
	}
	return out
}

// windowCall is the window function with its arguments as Spark's analyzer leaves them:
// count(*) is count(1); rank, dense_rank and percent_rank take the ORDER BY expressions
// (RankLike.children); lag and lead get their default offset 1 and default value null.
func windowCall(in []attr, w plan.WindowSpec, orders []plan.SortOrder) (*plan.X, []plan.Attr) {
	var args []*plan.X
	var refs []plan.Attr
	switch w.Function {
	case "row_number", "cume_dist":
	case "rank", "dense_rank", "percent_rank":
		for _, o := range orders {
			args = append(args, o.Expr.Tree())
			refs = append(refs, o.Expr.Refs()...)
		}
	default:
		for i, a := range argTrees(w) {
			if i == 0 && w.Function == "count" && a.Op == plan.OpStar {
				args = append(args, a)
				continue
			}
			if r, ok := columnOf(a); ok {
				if c, ok := resolve(in, r); ok {
					args = append(args, c.expr.Tree())
					refs = append(refs, c.expr.Refs()...)
					continue
				}
			}
			args = append(args, bound(a, in))
		}
	}
	switch w.Function {
	case "count":
		if len(args) == 0 || args[0].Op == plan.OpStar {
			args = []*plan.X{{Op: plan.OpLiteral, Value: "1", Type: "int", Raw: "1"}}
		}
	case "lag", "lead":
		if len(args) == 1 {
			args = append(args, &plan.X{Op: plan.OpLiteral, Value: "1", Type: "int", Raw: "1"})
		}
		if len(args) == 2 {
			args = append(args, &plan.X{Op: plan.OpLiteral, Type: "null", Raw: "null"})
		}
	}
	body := strings.Join(raws(args), ", ")
	if w.Distinct {
		body = "distinct " + body
	}
	return &plan.X{Op: plan.OpCall, Name: w.Function, Args: args, Distinct: w.Distinct, Raw: w.Function + "(" + body + ")"}, refs
}

// windowFrame is the frame of a window expression as SpecifiedWindowFrame prints it.
// Ranking functions, cume_dist, lag and lead have their own frames whatever is written
// (WindowFunction.frame); aggregates take the written frame, or Spark's default
// (ResolveWindowFrame): RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW with ORDER BY, the
// whole window partition (ROWS, unbounded both ways) without.
func windowFrame(w plan.WindowSpec, ordered bool) *plan.X {
	preceding, current, following := frameCall("unboundedpreceding$"), frameCall("currentrow$"), frameCall("unboundedfollowing$")
	kind, lo, hi := "RowFrame", preceding, following
	switch w.Function {
	case "row_number", "rank", "dense_rank", "percent_rank", "ntile":
		hi = current
	case "cume_dist":
		kind, hi = "RangeFrame", current
	case "lag", "lead":
		off := &plan.X{Op: plan.OpLiteral, Value: "1", Type: "int", Raw: "1"}
		if args := argTrees(w); len(args) > 1 {
			off = args[1]
		}
		if w.Function == "lag" {
			off = plan.Negated(off)
		}
		lo, hi = off, off
	default:
		switch {
		case w.Frame != nil:
			if !w.Frame.Rows {
				kind = "RangeFrame"
			}
			lo, hi = w.Frame.StartX, w.Frame.EndX
		case ordered:
			kind, hi = "RangeFrame", current
		}
	}
	k := &plan.X{Op: plan.OpLiteral, Value: kind, Raw: kind}
	return &plan.X{
		Op: plan.OpCall, Name: "specifiedwindowframe", Args: []*plan.X{k, lo, hi},
		Raw: "specifiedwindowframe(" + kind + ", " + lo.Raw + ", " + hi.Raw + ")",
	}
}

// frameCall is a frame boundary Spark prints as a call: "unboundedpreceding$()".
func frameCall(name string) *plan.X {
	return &plan.X{Op: plan.OpCall, Name: name, Raw: name + "()"}
}

// orderX is a sort key as WindowExec prints it in a window specification: "t#3 ASC NULLS
// FIRST".
func orderX(o plan.SortOrder) *plan.X {
	dir, nulls := "asc", "nulls last"
	if o.Desc {
		dir = "desc"
	}
	if o.NullsFirst {
		nulls = "nulls first"
	}
	return &plan.X{Op: plan.OpOrder, Name: dir, Value: nulls, Args: []*plan.X{o.Expr.Tree()}, Raw: orderRaw(o)}
}

func orderRaw(o plan.SortOrder) string {
	dir, nulls := " ASC", " NULLS LAST"
	if o.Desc {
		dir = " DESC"
	}
	if o.NullsFirst {
		nulls = " NULLS FIRST"
	}
	return o.Expr.Raw + dir + nulls
}

func refsText(rs []plan.ColumnRef) string {
	var b strings.Builder
	for _, r := range rs {
		b.WriteString(strings.ToLower(r.Text))
		if r.Desc {
			b.WriteString(" desc")
		}
		if r.Nulls != "" {
			b.WriteString(" nulls " + strings.ToLower(r.Nulls))
		}
		b.WriteByte(',')
	}
	return b.String()
}

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
			out = s.ids.newAttr("_we"+strconv.Itoa(extracted), "", exprType(w.Function+"(", in.out))
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
// attribute ids; other arguments are printed as written.
func windowExpr(in []attr, w plan.WindowSpec, keys []plan.Expr, orders []plan.SortOrder, out attr) plan.Expr {
	call, refs := windowCall(in, w, orders)
	spec := make([]string, 0, len(keys)+len(orders)+1)
	for _, k := range keys {
		spec = append(spec, k.Raw)
		refs = append(refs, k.Refs...)
	}
	for _, o := range orders {
		spec = append(spec, orderRaw(o))
		refs = append(refs, o.Expr.Refs...)
	}
	spec = append(spec, windowFrame(w, len(orders) > 0))
	raw := call + " windowspecdefinition(" + strings.Join(spec, ", ") + ") AS " + out.expr.Raw
	return plan.Expr{Raw: raw, Text: plan.StripIDs(raw), Refs: append(refs, out.expr.Refs...)}
}

// windowCall prints the window function with its arguments as Spark's analyzer leaves them:
// count(*) is count(1); rank, dense_rank and percent_rank take the ORDER BY expressions
// (RankLike.children); lag and lead get their default offset 1 and default value null.
func windowCall(in []attr, w plan.WindowSpec, orders []plan.SortOrder) (string, []plan.Attr) {
	var args []string
	var refs []plan.Attr
	switch w.Function {
	case "row_number", "cume_dist":
	case "rank", "dense_rank", "percent_rank":
		for _, o := range orders {
			args = append(args, o.Expr.Raw)
			refs = append(refs, o.Expr.Refs...)
		}
	default:
		for _, a := range w.Args {
			if c, ok := resolve(in, columnRef(a)); ok {
				args = append(args, c.expr.Raw)
				refs = append(refs, c.expr.Refs...)
				continue
			}
			args = append(args, a)
		}
	}
	switch w.Function {
	case "count":
		if len(args) == 0 || args[0] == "*" {
			args = []string{"1"}
		}
	case "lag", "lead":
		for len(args) > 0 && len(args) < 3 {
			args = append(args, [...]string{"", "1", "null"}[len(args)])
		}
	}
	body := strings.Join(args, ", ")
	if w.Distinct {
		body = "distinct " + body
	}
	return w.Function + "(" + body + ")", refs
}

// windowFrame prints the frame of a window expression as SpecifiedWindowFrame does. Ranking
// functions, cume_dist, lag and lead have their own frames whatever is written
// (WindowFunction.frame); aggregates take the written frame, or Spark's default
// (ResolveWindowFrame): RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW with ORDER BY, the
// whole window partition (ROWS, unbounded both ways) without.
func windowFrame(w plan.WindowSpec, ordered bool) string {
	const (
		preceding = "unboundedpreceding$()"
		current   = "currentrow$()"
		following = "unboundedfollowing$()"
	)
	kind, lo, hi := "RowFrame", preceding, following
	switch w.Function {
	case "row_number", "rank", "dense_rank", "percent_rank", "ntile":
		hi = current
	case "cume_dist":
		kind, hi = "RangeFrame", current
	case "lag", "lead":
		off := "1"
		if len(w.Args) > 1 {
			off = strings.TrimSpace(w.Args[1])
		}
		if w.Function == "lag" {
			off = negate(off)
		}
		lo, hi = off, off
	default:
		switch {
		case w.Frame != nil:
			if !w.Frame.Rows {
				kind = "RangeFrame"
			}
			lo, hi = frameBound(w.Frame.Start), frameBound(w.Frame.End)
		case ordered:
			kind, hi = "RangeFrame", current
		}
	}
	return "specifiedwindowframe(" + kind + ", " + lo + ", " + hi + ")"
}

// frameBound prints one frame bound: UnboundedPreceding, CurrentRow, UnboundedFollowing, or
// an offset, negative when preceding.
func frameBound(b string) string {
	switch b {
	case "UNBOUNDED PRECEDING":
		return "unboundedpreceding$()"
	case "CURRENT ROW":
		return "currentrow$()"
	case "UNBOUNDED FOLLOWING":
		return "unboundedfollowing$()"
	}
	if v, ok := strings.CutSuffix(b, " PRECEDING"); ok {
		return negate(strings.ToLower(v))
	}
	if v, ok := strings.CutSuffix(b, " FOLLOWING"); ok {
		return strings.ToLower(v)
	}
	return strings.ToLower(b)
}

// negate prints -x: a literal's sign flips, anything else is wrapped.
func negate(x string) string {
	if v, ok := strings.CutPrefix(x, "-"); ok {
		return v
	}
	if _, err := strconv.ParseFloat(x, 64); err == nil {
		return "-" + x
	}
	return "-(" + x + ")"
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

package code

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// attr evaluates r.name for the attributes that start a reader, writer or conf.
func (ev *evaluator) attr(r *value, n *node) *value {
	switch n.name {
	case "read":
		if r.kind == vUnknown {
			return &value{kind: vReader, reader: &reader{}}
		}
	case "write":
		if r.kind == vFrame || (r.kind == vUnknown && !isFunctions(n.x)) {
			return ev.newWriter(ev.frameOf(r, n.x), n.x, false)
		}
	case "conf":
		if r.kind == vUnknown {
			return &value{kind: vConf}
		}
	case "na", "stat":
		if r.kind == vFrame {
			return r
		}
	case "toDF", "toDS", "cache", "persist":
		// Scala calls parameterless methods without parentheses: seq.toDF, df.cache.
		if r.kind == vList && (n.name == "toDF" || n.name == "toDS") {
			return ev.localFrame(n, r.rows)
		}
		if r.kind == vFrame {
			return r
		}
	case "toString":
		// Scala's n.toString of a constant number: its decimal digits.
		if r.kind == vNum {
			return &value{kind: vStr, str: ev.numText(r), resolved: true}
		}
	case "stripMargin", "trim":
		// Scala calls parameterless methods without parentheses.
		if r.kind == vStr {
			return ev.strMethod(r, n.name, &node{kind: nCall, x: n, off: n.off, end: n.end})
		}
	}
	return unknown
}

// frameOf returns r's frame, or an unresolved frame named after the expression n.
func (ev *evaluator) frameOf(r *value, n *node) *frame {
	if r.kind == vFrame {
		f := r.frame.clone()
		f.ref.Text = ev.shortText(n)
		f.ref.Span = ev.span(n)
		return f
	}
	f := &frame{ref: plan.FrameRef{Text: ev.shortText(n), Span: ev.span(n)}}
	if n.kind == nIdent {
		f.ref.Var = n.name
	}
	return f
}

// method evaluates r.name(args…); n is the call.
func (ev *evaluator) method(r *value, name string, n *node) *value {
	recv := n.x.x
	if name == "over" && len(n.args) == 1 {
		return ev.over(n)
	}
	switch r.kind {
	case vReader:
		return ev.readerMethod(r.reader, name, n)
	case vWriter:
		return ev.writerMethod(r.writer, name, n)
	case vGrouped:
		ev.evalEach(n.args)
		if name == "pivot" {
			return r
		}
		f := r.frame.clone()
		f.repart = nil
		return &value{kind: vFrame, frame: f}
	case vWindow:
		w := &value{kind: vWindow, keys: r.keys}
		if name == "partitionBy" {
			w.keys = append(append([]plan.ColumnRef(nil), r.keys...), ev.colRefs(n.args, nil)...)
		}
		return w
	case vConf:
		if name == "set" {
			ev.confCall(n)
		}
		return unknown
	case vFrame:
		return ev.frameMethod(ev.frameOf(r, recv), recv, name, n)
	case vStr:
		return ev.strMethod(r, name, n)
	case vList:
		if v, ok := ev.listMethod(r, name, n); ok {
			return v
		}
	}
	if v, ok := ev.sessionMethod(recv, name, n); ok {
		return v
	}
	if unknownFrameMethod(name, len(n.args)) && !isFunctions(recv) {
		return ev.frameMethod(ev.frameOf(r, recv), recv, name, n)
	}
	ev.evalEach(n.args)
	return unknown
}

// unknownFrameMethod reports the methods that make an unknown receiver look like a
// DataFrame (a function parameter, an object's field): names no common Python or Scala type
// shares with a meaning that matters here.
func unknownFrameMethod(name string, nargs int) bool {
	switch name {
	case "join", "crossJoin":
		return nargs >= 1
	case "groupBy", "rollup", "cube", "repartition", "repartitionByRange", "dropDuplicates",
		"writeTo", "hint", "createOrReplaceTempView", "createTempView":
		return true
	case "coalesce":
		return nargs == 1
	}
	return false
}

// frameMethod evaluates a DataFrame method call.
func (ev *evaluator) frameMethod(f *frame, recv *node, name string, n *node) *value {
	switch name {
	case "join", "crossJoin":
		if len(n.args) >= 1 {
			return ev.join(f, recv, n, name == "crossJoin")
		}
	case "groupBy", "groupby", "rollup", "cube":
		kind := name
		if kind == "groupby" {
			kind = "groupBy"
		}
		ev.aggregate(kind, f, n, ev.sourceKeys(ev.colRefs(n.args, f), f))
		return &value{kind: vGrouped, frame: f}
	case "distinct", "dropDuplicates", "drop_duplicates":
		ev.aggregate(strings.Replace(name, "drop_duplicates", "dropDuplicates", 1), f, n, ev.sourceKeys(ev.colRefs(n.args, f), f))
		g := f.clone()
		g.repart = nil
		return &value{kind: vFrame, frame: g}
	case "repartition", "repartitionByRange", "coalesce":
		return ev.repartition(f, name, n)
	case "hint":
		g := f.clone()
		if len(n.args) > 0 {
			if h := ev.eval(n.args[0].val); h.kind == vStr {
				hint := strings.ToLower(h.str)
				g.ref.Hints = append(g.ref.Hints, hint)
				if hint == "broadcast" || hint == "broadcastjoin" || hint == "mapjoin" {
					g.ref.Broadcast = true
				}
			}
		}
		return &value{kind: vFrame, frame: g}
	case "alias", "as":
		g := f.clone()
		if len(n.args) > 0 {
			if a := ev.eval(n.args[0].val); a.kind == vStr {
				g.ref.Alias = a.str
			}
		}
		return &value{kind: vFrame, frame: g}
	case "union", "unionAll", "unionByName":
		g := f.clone()
		g.repart = nil
		g.ref.ConstColumns = nil // the other frame's rows may hold other values
		g.ref.Renamed = nil
		for _, a := range ev.evalArgs(n.args) {
			if a.kind == vFrame {
				mergeSources(&g.ref, a.frame.ref)
			}
			g.ref.MaxRows = addRows(g.ref.MaxRows, a)
			g.ref.Local = g.ref.Local && a.kind == vFrame && a.frame.ref.Local
		}
		g.ref.RangeRows = false
		return &value{kind: vFrame, frame: g}
	case "createOrReplaceTempView", "createTempView", "registerTempTable", "createGlobalTempView",
		"createOrReplaceGlobalTempView":
		if len(n.args) > 0 {
			if v := ev.eval(n.args[0].val); v.kind == vStr && v.resolved {
				view := normTable(v.str)
				ev.views[view] = f.clone()
				ev.out.TempViews = append(ev.out.TempViews, &plan.TempView{
					Name: view, Frame: f.clone().ref, Global: strings.Contains(name, "Global"), Span: ev.span(n),
				})
			}
		}
		return unknown
	case "writeTo":
		w := ev.newWriter(f, recv, true)
		w.writer.w.TerminalSpan = ev.src.span(n.x.dot, n.end)
		if len(n.args) > 0 {
			ev.setTable(&w.writer.w, n.args[0].val)
		}
		return w
	}
	prev := ev.ctx
	ev.ctx = f
	ev.evalEach(n.args)
	ev.ctx = prev
	g := f.clone()
	if name == "orderBy" || name == "sort" {
		g.repart = nil
	}
	if !ev.keepsRows(name, n) {
		g.ref.MaxRows, g.ref.Local = 0, false
	}
	g.ref.RangeRows = g.ref.RangeRows && keepsRange(name)
	g.ref.ConstColumns = ev.constColumns(f.ref.ConstColumns, name, n)
	g.ref.Renamed = ev.renamed(f.ref.Renamed, name, n)
	return &value{kind: vFrame, frame: g}
}

func mergeSources(dst *plan.FrameRef, src plan.FrameRef) {
	dst.Tables = appendNew(dst.Tables, src.Tables...)
	dst.Paths = appendNew(dst.Paths, src.Paths...)
	for _, s := range src.SQL {
		found := false
		for _, d := range dst.SQL {
			found = found || d == s
		}
		if !found {
			dst.SQL = append(dst.SQL, s)
		}
	}
}

func appendNew(dst []string, add ...string) []string {
	for _, a := range add {
		found := false
		for _, d := range dst {
			found = found || d == a
		}
		if !found {
			dst = append(dst, a)
		}
	}
	return dst
}

func (ev *evaluator) aggregate(kind string, f *frame, n *node, keys []plan.ColumnRef) {
	ref := f.ref
	ev.out.Aggregates = append(ev.out.Aggregates, &plan.CodeAggregate{
		Span: ev.src.span(n.x.dot, n.end), Kind: kind, Frame: ref, Keys: keys,
	})
}

func (ev *evaluator) repartition(f *frame, name string, n *node) *value {
	rc := &plan.RepartitionCall{Method: name, Span: ev.src.span(n.x.dot, n.end)}
	args := n.args
	if len(args) > 0 {
		if v := ev.eval(args[0].val); v.kind == vNum {
			rc.N = v.num
			args = args[1:]
		} else if args[0].val.kind != nStr && name != "repartitionByRange" && len(args) > 1 {
			rc.NExpr = ev.text(args[0].val)
			args = args[1:]
		}
	}
	keys := ev.colRefs(args, f)
	for _, k := range keys {
		c := k.Column
		if c == "" {
			c = k.Text
		}
		rc.Cols = append(rc.Cols, c)
	}
	if len(keys) > 0 && name != "coalesce" {
		ev.aggregate(name, f, n, keys)
	}
	g := f.clone()
	g.repart = rc
	return &value{kind: vFrame, frame: g}
}

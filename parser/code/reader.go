package code

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// A reader is a DataFrameReader being configured (spark.read.format(…).option(…)).
type reader struct {
	format  string
	options []plan.Option
}

func (r *reader) option(key string) string {
	for _, o := range r.options {
		if strings.EqualFold(o.Key, key) {
			return o.Value
		}
	}
	return ""
}

// readerMethod evaluates one call of a reader chain; a loading call records the Read.
func (ev *evaluator) readerMethod(old *reader, name string, n *node) *value {
	r := *old
	r.options = clip(r.options)
	switch name {
	case "format":
		r.format = strings.ToLower(ev.strArg(n, 0, "source"))
		return &value{kind: vReader, reader: &r}
	case "option", "options":
		r.options = ev.options(r.options, n)
		return &value{kind: vReader, reader: &r}
	case "schema":
		ev.evalEach(n.args)
		return &value{kind: vReader, reader: &r}
	case "table":
		if len(n.args) > 0 {
			return ev.readTable(ev.eval(n.args[0].val), n)
		}
	case "jdbc":
		rd := &plan.Read{Span: ev.span(n), Kind: plan.ReadJDBC, Format: "jdbc"}
		if a := argNamed(n.args, 1, "table"); a != nil {
			ev.setReadTable(rd, a)
		}
		return ev.recordRead(rd)
	case "load", "parquet", "orc", "csv", "json", "text", "avro", "xml", "delta":
		rd := &plan.Read{Span: ev.span(n), Kind: plan.ReadPath, Format: r.format}
		if name != "load" {
			rd.Format = name
		} else if f := argNamed(n.args, 1, "format"); f != nil {
			rd.Format = strings.ToLower(ev.strValueOf(f))
		}
		if rd.Format == "jdbc" {
			rd.Kind, rd.Table = plan.ReadJDBC, r.option("dbtable")
			return ev.recordRead(rd)
		}
		rd.Path = r.option("path")
		if a := argNamed(n.args, 0, "path", "paths"); a != nil {
			v := ev.eval(a)
			if v.kind == vList && len(v.items) > 0 {
				v = v.items[0]
			}
			if v.kind == vStr && v.resolved {
				rd.Path = v.str
			} else {
				rd.Expr = ev.exprText(v, a)
			}
		}
		return ev.recordRead(rd)
	}
	ev.evalEach(n.args)
	return unknown
}

func (ev *evaluator) setReadTable(rd *plan.Read, a *node) {
	if v := ev.eval(a); v.kind == vStr && v.resolved {
		rd.Table = normTable(v.str)
	} else {
		rd.Expr = ev.exprText(v, a)
	}
}

// recordRead records rd and returns the frame it yields.
func (ev *evaluator) recordRead(rd *plan.Read) *value {
	ev.out.Reads = append(ev.out.Reads, rd)
	f := &frame{ref: plan.FrameRef{Span: rd.Span}}
	switch {
	case rd.Kind == plan.ReadSQL:
		f.ref.SQL = []*plan.SQLString{rd.SQL}
	case rd.Table != "":
		f.ref.Tables = []string{rd.Table}
	case rd.Path != "":
		f.ref.Paths = []string{rd.Path}
	}
	return &value{kind: vFrame, frame: f}
}

// readTable records spark.table(t) / spark.read.table(t); a temporary view registered in the
// file yields the frame it was registered from, without a Read.
func (ev *evaluator) readTable(v *value, n *node) *value {
	if v.kind == vStr && v.resolved {
		if f, ok := ev.views[normTable(v.str)]; ok {
			return &value{kind: vFrame, frame: f.clone()}
		}
	}
	rd := &plan.Read{Span: ev.span(n), Kind: plan.ReadTable}
	if v.kind == vStr && v.resolved {
		rd.Table = normTable(v.str)
	} else if len(n.args) > 0 {
		rd.Expr = ev.exprText(v, n.args[0].val)
	}
	return ev.recordRead(rd)
}

// sqlCall records spark.sql(text): a SET statement becomes a Conf, anything else an
// SQLString and a Read.
func (ev *evaluator) sqlCall(n *node) *value {
	a := argNamed(n.args, 0, "sqlQuery", "sqlText")
	if a == nil {
		return unknown
	}
	v := ev.eval(a)
	if v.kind != vStr {
		rd := &plan.Read{Span: ev.span(n), Kind: plan.ReadSQL, Expr: ev.text(a)}
		ev.out.Reads = append(ev.out.Reads, rd)
		return &value{kind: vFrame, frame: &frame{ref: plan.FrameRef{Span: rd.Span}}}
	}
	s := ev.sqlString(v, ev.span(n))
	if v.resolved {
		if confs := setConfs(s); len(confs) > 0 {
			ev.out.Confs = append(ev.out.Confs, confs...)
			return unknown
		}
	}
	ev.out.SQL = append(ev.out.SQL, s)
	return ev.recordRead(&plan.Read{Span: ev.span(n), Kind: plan.ReadSQL, SQL: s})
}

// sqlString builds the SQLString of a string value, with positions from its first literal.
func (ev *evaluator) sqlString(v *value, sp plan.Span) *plan.SQLString {
	s := &plan.SQLString{Text: v.str, Resolved: v.resolved, Span: sp}
	lit := v.strNode
	for lit != nil && lit.kind == nBin {
		lit = lit.x
	}
	if lit == nil || lit.kind != nStr {
		s.Pos = sp.Start
		return s
	}
	s.Pos = ev.src.pos(lit.lit.contentOff)
	if v.verbatim && v.resolved && ev.src.contiguous(lit.lit.contentOff, len(s.Text), s.Text) {
		s.Verbatim = true
		s.Lines = ev.textLines(lit.lit.contentOff, s.Text)
	}
	return s
}

// textLines returns the positions of the first byte of each line of text, which starts at
// text offset off and is a verbatim copy of the source.
func (ev *evaluator) textLines(off int, text string) []plan.Pos {
	lines := []plan.Pos{ev.src.pos(off)}
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			lines = append(lines, ev.src.pos(off+i+1))
		}
	}
	return lines
}

// setConfs reads "SET key=value" statements (separated by semicolons); nil when the text is
// anything else. Keys are positioned inside a verbatim text, else at the text's start.
func setConfs(s *plan.SQLString) []plan.Conf {
	var out []plan.Conf
	off := 0
	for _, stmt := range strings.Split(s.Text, ";") {
		start := off
		off += len(stmt) + 1
		t := strings.TrimSpace(stmt)
		if t == "" {
			continue
		}
		if len(t) < 4 || !strings.EqualFold(t[:4], "set ") {
			return nil
		}
		kv := strings.TrimSpace(t[4:])
		eq := strings.IndexByte(kv, '=')
		if eq <= 0 {
			return nil
		}
		key := strings.TrimSpace(kv[:eq])
		c := plan.Conf{Key: key, Value: strings.TrimSpace(kv[eq+1:]), Pos: s.Pos}
		if s.Verbatim {
			c.Pos = posIn(s, start+strings.Index(stmt, key))
			c.Span = plan.Span{Start: c.Pos, End: posIn(s, start+len(strings.TrimRight(stmt, " \t\r\n")))}
		}
		out = append(out, c)
	}
	return out
}

// posIn maps a byte offset of a verbatim SQLString's text to a file position.
func posIn(s *plan.SQLString, off int) plan.Pos {
	line, col := 0, off
	for i := 0; i < off && i < len(s.Text); i++ {
		if s.Text[i] == '\n' {
			line, col = line+1, off-i-1
		}
	}
	return s.PosAt(line+1, col+1)
}

// confCall records .config(k, v), conf.set(k, v), SparkConf().set(k, v). Keys that are not
// constants are skipped; an unknown receiver's set must name a "spark." key.
func (ev *evaluator) confCall(n *node) {
	k := argNamed(n.args, 0, "key")
	val := argNamed(n.args, 1, "value")
	if k == nil || val == nil {
		ev.evalEach(n.args)
		return
	}
	kv := ev.eval(k)
	if kv.kind != vStr || !kv.resolved {
		return
	}
	if n.x.name != "config" && !strings.HasPrefix(kv.str, "spark.") {
		if r, ok := dotted(n.x.x); !ok || !strings.HasSuffix(r, "conf") {
			return
		}
	}
	ev.out.Confs = append(ev.out.Confs, plan.Conf{Key: kv.str, Value: ev.confValue(val), Pos: ev.src.pos(k.off), Span: ev.src.span(k.off, val.end)})
}

// confPairs records SparkConf().setAll([("k", "v"), …]).
func (ev *evaluator) confPairs(n *node) {
	if len(n.args) != 1 || n.args[0].val.kind != nList {
		ev.evalEach(n.args)
		return
	}
	for _, p := range n.args[0].val.args {
		if p.val.kind != nList || len(p.val.args) != 2 {
			continue
		}
		k, v := p.val.args[0].val, p.val.args[1].val
		if kv := ev.eval(k); kv.kind == vStr && kv.resolved {
			ev.out.Confs = append(ev.out.Confs, plan.Conf{Key: kv.str, Value: ev.confValue(v), Pos: ev.src.pos(k.off), Span: ev.src.span(k.off, v.end)})
		}
	}
}

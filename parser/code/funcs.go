package code

import (
	"slices"

	"github.com/bucketlint/bucketlint/plan"
)

// Limits on reading a Python function's body again for a call: how deep calls nest, and how
// many body tokens all calls of a file may read in total.
const (
	maxCallDepth  = 3
	maxCallTokens = 1 << 20
)

// A pyFunc is a Python function (or Scala method) of the file, read again for each call that passes it a known
// value (a constant, a frame) so that its facts carry the call's values: def write(df, n):
// df.write.bucketBy(n, "id")… called write(orders, 16) writes orders into 16 buckets.
type pyFunc struct {
	params []string
	// toks are the body's tokens (from the def line), ending in tEOF.
	toks tokens
	// facts are those read from the body without arguments; a call with known arguments
	// replaces them.
	facts   bodyFacts
	dropped bool
}

// bodyFacts are the facts a function's body recorded when read without arguments.
type bodyFacts struct {
	writes []*plan.Write
	reads  []*plan.Read
	joins  []*plan.CodeJoin
	aggs   []*plan.CodeAggregate
	sql    []*plan.SQLString
	views  []*plan.TempView
}

// factMarks are the lengths of the file's fact lists at a point, to cut out what a body added.
type factMarks struct{ writes, reads, joins, aggs, sql, views int }

func (ev *evaluator) marks() factMarks {
	o := ev.out
	return factMarks{len(o.Writes), len(o.Reads), len(o.Joins), len(o.Aggregates), len(o.SQL), len(o.TempViews)}
}

// since returns the facts recorded after m (a call's drop may have shortened a list since).
func (ev *evaluator) since(m factMarks) bodyFacts {
	o := ev.out
	return bodyFacts{
		writes: tail(o.Writes, m.writes), reads: tail(o.Reads, m.reads),
		joins: tail(o.Joins, m.joins), aggs: tail(o.Aggregates, m.aggs),
		sql: tail(o.SQL, m.sql), views: tail(o.TempViews, m.views),
	}
}

// tail is a copy of list from index i on, empty when i is past its end.
func tail[T any](list []T, i int) []T {
	return slices.Clone(list[min(i, len(list)):])
}

// params reads the parameter names of "def name(a, b=1, *args, **kw):" whose "def" is token
// i; "self" is kept (a method's receiver), annotations and defaults are skipped.
func params(toks tokens, i int) []string {
	if i+2 >= toks.len() || toks.at(i+2).kind != tOp || toks.at(i+2).text != "(" {
		return nil
	}
	var out []string
	depth, want := 0, true
	for j := i + 2; j < toks.len(); j++ {
		t := toks.at(j)
		if t.kind == tEOF || t.kind == tNewline {
			break
		}
		if t.kind == tOp {
			switch t.text {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				depth--
			case ",":
				want = depth == 1
			case "*", "**":
			default:
				if depth == 1 {
					want = false
				}
			}
			if depth == 0 {
				break
			}
			continue
		}
		if want && depth == 1 && t.kind == tIdent {
			out = append(out, t.text)
			want = false
		}
	}
	return out
}

// endDefs records the Python functions whose bodies end at token end.
func (ev *evaluator) endDefs(p *exprParser, popped []pyDef, end int) {
	for _, d := range popped {
		if d.tok < 0 || d.tok >= end || end > p.toks.len() {
			continue
		}
		body := d.tok
		for body < end && p.toks.at(body).kind != tNewline {
			body++ // the def line
		}
		ev.addFunc(d.name, d.params, p.toks.body(body, end), d.marks)
	}
}

// addFunc records a function whose body is body (from tokens.body: its tokens and a tEOF)
// and whose body's facts were recorded after marks.
func (ev *evaluator) addFunc(name string, params []string, body tokens, marks factMarks) {
	if body.n == 0 {
		return
	}
	if ev.funcs == nil {
		ev.funcs = map[string]*pyFunc{}
	}
	ev.funcs[name] = &pyFunc{params: params, toks: body, facts: ev.since(marks)}
}

// A scalaDef is a Scala method being read: its name, parameters and body's tokens
// [body, end), and the file's facts where its body starts.
type scalaDef struct {
	name      string
	params    []string
	body, end int
	marks     factMarks
}

// scalaDefAt reads "def name(a: T, b: U)[: R] = body" at the parser's position without
// consuming it: the body is the braces after "=" (without them) or the rest of the line.
func scalaDefAt(p *exprParser) *scalaDef {
	i := p.i
	if p.toks.at(i).kind != tIdent || p.toks.at(i).text != "def" || i+2 >= p.toks.len() || p.toks.at(i+1).kind != tIdent {
		return nil
	}
	d := &scalaDef{name: p.toks.at(i + 1).text, params: scalaParams(p.toks, i+2)}
	j, depth := i+2, 0
	for ; j < p.toks.len() && p.toks.at(j).kind != tEOF; j++ {
		t := p.toks.at(j)
		if t.kind != tOp {
			continue
		}
		switch t.text {
		case "(", "[":
			depth++
		case ")", "]":
			depth--
		}
		if depth == 0 && t.text == "=" {
			break
		}
		if depth == 0 && (t.text == "{" || t.text == "}") {
			return nil // an abstract def, or a body without "="
		}
	}
	j++
	for j < p.toks.len() && p.toks.at(j).kind == tNewline {
		j++
	}
	if j >= p.toks.len() || p.toks.at(j).kind == tEOF {
		return nil
	}
	if p.toks.at(j).kind == tOp && p.toks.at(j).text == "{" {
		d.body = j + 1
		braces := 1
		for k := j + 1; k < p.toks.len() && p.toks.at(k).kind != tEOF; k++ {
			switch {
			case p.toks.at(k).kind == tOp && p.toks.at(k).text == "{":
				braces++
			case p.toks.at(k).kind == tOp && p.toks.at(k).text == "}":
				braces--
			}
			if braces == 0 {
				d.end = k
				return d
			}
		}
		return nil
	}
	d.body = j
	d.end = j
	for d.end < p.toks.len() && p.toks.at(d.end).kind != tNewline && p.toks.at(d.end).kind != tEOF {
		d.end++
	}
	return d
}

// scalaParams reads the parameter names of "(a: T, b: U = 1)" whose "(" is token i (the
// first parameter list only).
func scalaParams(toks tokens, i int) []string {
	if i >= toks.len() || toks.at(i).kind != tOp || toks.at(i).text != "(" {
		return nil
	}
	var out []string
	depth := 0
	for j := i; j+1 < toks.len() && toks.at(j).kind != tEOF; j++ {
		t := toks.at(j)
		if t.kind == tOp {
			switch t.text {
			case "(", "[":
				depth++
			case ")", "]":
				depth--
			}
			if depth == 0 {
				break
			}
			continue
		}
		if depth == 1 && t.kind == tIdent && toks.at(j+1).kind == tOp && toks.at(j+1).text == ":" && (toks.at(j-1).text == "(" || toks.at(j-1).text == "," || toks.at(j-1).text == "val" || toks.at(j-1).text == "var") {
			out = append(out, t.text)
		}
	}
	return out
}

// callPy reads function f's body again for a call whose arguments are args, when one of them
// is known: each parameter bound to its argument, the body's facts read without arguments
// dropped the first time. Its variables do not outlive the call.
func (ev *evaluator) callPy(f *pyFunc, n *node, args []*value) {
	if ev.callDepth >= maxCallDepth || ev.callTokens+f.toks.len() > maxCallTokens {
		return
	}
	bound := map[string]*value{}
	known := false
	for i, a := range n.args {
		name := a.name
		if name == "" && i < len(f.params) {
			name = f.params[i]
		}
		if name == "" || !slices.Contains(f.params, name) {
			continue
		}
		bound[name] = args[i]
		known = known || args[i].kind != vUnknown
	}
	if !known {
		return
	}
	if !f.dropped {
		f.dropped = true
		ev.drop(f.facts)
	}
	ev.callDepth++
	ev.callTokens += f.toks.len()
	saved := ev.env
	ev.env = make(map[string]*value, len(saved)+len(bound))
	for k, v := range saved {
		ev.env[k] = v
	}
	for k, v := range bound {
		ev.bind(k, v, len(ev.out.Reads))
	}
	ev.runTokens(&exprParser{scala: ev.scala, toks: f.toks, deep: -1}, nil)
	ev.env = saved
	ev.callDepth--
}

// drop removes facts from the file's lists.
func (ev *evaluator) drop(b bodyFacts) {
	o := ev.out
	o.Writes = without(o.Writes, b.writes)
	o.Reads = without(o.Reads, b.reads)
	o.Joins = without(o.Joins, b.joins)
	o.Aggregates = without(o.Aggregates, b.aggs)
	o.SQL = without(o.SQL, b.sql)
	o.TempViews = without(o.TempViews, b.views)
}

// without returns list without the elements of drop.
func without[T comparable](list, drop []T) []T {
	if len(drop) == 0 {
		return list
	}
	set := make(map[T]bool, len(drop))
	for _, x := range drop {
		set[x] = true
	}
	return slices.DeleteFunc(list, func(x T) bool { return set[x] })
}

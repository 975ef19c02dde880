package code

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/bucketlint/bucketlint/parser/perr"
	"github.com/bucketlint/bucketlint/plan"
)

// valKind is what the evaluator knows a value to be.
type valKind uint8

const (
	vUnknown valKind = iota
	vStr
	vNum
	vReader  // spark.read…
	vWriter  // df.write… or df.writeTo(t)…
	vFrame   // a DataFrame
	vGrouped // df.groupBy(…)
	vWindow  // Window.partitionBy(…)
	vList
	vConf // spark.conf
)

// A value is the evaluator's abstraction of what an expression yields.
type value struct {
	kind valKind
	// str is a string's text, resolved when constant; strNode is the literal it came from,
	// for positions.
	str      string
	resolved bool
	strNode  *node
	// verbatim is set for a string that is one verbatim literal, unchanged.
	verbatim bool
	num      int
	frame    *frame
	reader   *reader
	writer   *writer
	keys     []plan.ColumnRef
	items    []*value
	// rows is a list's length when known without its items (a literal list whose elements
	// were all read, a Scala range on constants, a map of either), 0 when unknown.
	rows int64
}

// unknown is the value of every expression the evaluator knows nothing of. It is shared (most
// expressions of a file are such), so it is never changed: code that refines a value makes a
// new one. TestUnknownUnchanged holds it to the zero value.
var unknown = &value{} //nolint:gochecknoglobals // read-only, as above

// A frame is a DataFrame value: what it derives from and its last visible repartitioning.
type frame struct {
	ref    plan.FrameRef
	repart *plan.RepartitionCall
}

// clone returns a copy of f that can be changed without changing f. Its lists share f's
// elements, clipped to their length, so that an append to the copy copies them and one to
// f writes past the copy's end: nothing in the reader (or after it) sets an element of a
// frame's list in place.
func (f *frame) clone() *frame {
	c := *f
	c.ref.Tables = slices.Clip(f.ref.Tables)
	c.ref.Paths = slices.Clip(f.ref.Paths)
	c.ref.SQL = slices.Clip(f.ref.SQL)
	c.ref.Hints = slices.Clip(f.ref.Hints)
	return &c
}

// An evaluator walks a file's statements in order, binding variables and recording the facts
// it finds into out.
type evaluator struct {
	out   *plan.CodeFile
	scala bool
	// java is set for Java, read as Scala is (the same tokens and calls) with its
	// declarations (Type name = …) and its accessors called with parentheses (df.write()).
	java  bool
	src   *source
	env   map[string]*value
	views map[string]*frame
	// ctx is the frame whose method arguments are being evaluated, for .over(window).
	ctx *frame
	// errs receives the expressions too deep to read.
	errs *perr.List
	// funcs are the file's Python functions read so far; callDepth and callTokens bound
	// reading them again for calls (callPy).
	funcs      map[string]*pyFunc
	callDepth  int
	callTokens int
	// returns is set once a function's returned frame is bound as "name()" in env.
	returns bool
}

func newEvaluator(out *plan.CodeFile, lang string, errs *perr.List) *evaluator {
	return &evaluator{out: out, scala: lang == "scala" || lang == "java", java: lang == "java", env: map[string]*value{}, views: map[string]*frame{}, errs: errs}
}

// run reads every statement of src.
func (ev *evaluator) run(src *source) {
	prev := ev.src
	ev.src = src
	defer func() { ev.src = prev }()
	p := &exprParser{scala: ev.scala, toks: lex(src.text, ev.scala), deep: -1}
	var objects func(int) string
	if ev.scala {
		var scopes *objectScopes // read when first needed
		objects = func(i int) string {
			if scopes == nil {
				scopes = newObjectScopes(p.toks)
			}
			return scopes.at(i)
		}
	}
	ev.runTokens(p, objects)
}

// runTokens reads the statements of p's tokens; objects returns the Scala object holding a
// token (objectScopes), nil for Python and for function bodies.
func (ev *evaluator) runTokens(p *exprParser, objects func(int) string) {
	var defs []pyDef
	var sdefs []*scalaDef
	lineStart := true
	for p.tok().kind != tEOF {
		sdefs = ev.endScalaDefs(p, sdefs)
		if ev.scala {
			if d := scalaDefAt(p); d != nil {
				d.marks = ev.marks()
				sdefs = append(sdefs, d)
			}
		}
		if p.tok().kind == tNewline {
			p.skip()
			lineStart = true
			continue
		}
		if lineStart && !ev.scala {
			var popped []pyDef
			defs, popped = ev.pyScope(p, defs)
			ev.endDefs(p, popped, p.i)
		}
		atStart := lineStart
		lineStart = false
		if atStart && ev.pyScopedConfs(p) {
			continue // the with's header: its body is read as usual
		}
		if ev.pyReturn(p, defs) {
			continue
		}
		targetOff, targetTok := p.tok().off, p.i
		target := ""
		if ev.java {
			target = javaDeclTarget(p)
		}
		if target == "" {
			target = assignTarget(p)
		}
		start := p.i
		reads := len(ev.out.Reads)
		n := ev.statement(p)
		if n == nil {
			if p.i == start {
				p.skip()
			}
			continue
		}
		if ev.scopedConfs(p, n) {
			continue
		}
		v := ev.eval(n)
		if target != "" && objects != nil && isConstant(v) {
			if obj := objects(targetTok); obj != "" {
				ev.env[obj+"."+target] = v // a Scala object's val is read as Obj.name too
			}
		}
		if target != "" {
			ev.bind(target, v, reads)
			ev.out.Assigns = append(ev.out.Assigns, plan.Assign{Var: target, Span: plan.Span{Start: ev.src.pos(targetOff), End: ev.src.pos(n.end)}})
		}
	}
	ev.endDefs(p, defs, p.i)
	ev.endScalaDefs(p, sdefs)
}

// endScalaDefs records the Scala methods whose bodies end before the parser's position (all
// of them at the end of the tokens) and returns those still open.
func (ev *evaluator) endScalaDefs(p *exprParser, open []*scalaDef) []*scalaDef {
	kept := open[:0]
	for _, d := range open {
		if p.i < d.end && p.tok().kind != tEOF {
			kept = append(kept, d)
			continue
		}
		if d.body < d.end && d.end <= p.toks.len() {
			ev.addFunc(d.name, d.params, p.toks.body(d.body, d.end), d.marks)
		}
	}
	return kept
}

// statement parses the expression of a statement; nil when none starts here, or when it is
// nested too deeply to read (reported once per statement, at its first token).
func (ev *evaluator) statement(p *exprParser) *node {
	start := p.tok().off
	p.deep, p.why = -1, ""
	n := p.expr(1)
	if p.deep < 0 && p.height(n) <= maxHeight {
		return n
	}
	at, why := start, fmt.Sprintf("chains of operators, attributes or calls nested more than %d deep in all, one inside another; not read", maxHeight)
	if p.deep >= 0 {
		at, why = p.deep, p.why+"; not read"
	}
	ev.errs.Add(ev.src.pos(at), "%s", why)
	for k := p.tok().kind; k != tNewline && k != tEOF; k = p.tok().kind {
		p.skip() // the rest of the statement
	}
	return nil
}

// assignTarget consumes "name =", "a.b =", "name: Type =" (Scala val/var, Python
// annotations) at the parser's position and returns the name; "" when there is none.
func assignTarget(p *exprParser) string {
	i := p.i
	if p.toks.at(i).kind != tIdent {
		return ""
	}
	name := p.toks.at(i).text
	i++
	for p.toks.at(i).kind == tOp && p.toks.at(i).text == "." && p.toks.at(i+1).kind == tIdent {
		name += "." + p.toks.at(i+1).text
		i += 2
	}
	if p.toks.at(i).kind == tOp && p.toks.at(i).text == ":" {
		for j := i + 1; j < i+24; j++ {
			t := p.toks.at(j)
			if t.kind == tNewline || t.kind == tEOF {
				return ""
			}
			if t.kind == tOp && t.text == "=" {
				i = j
				break
			}
		}
	}
	if p.toks.at(i).kind != tOp || p.toks.at(i).text != "=" {
		return ""
	}
	p.i = i + 1
	for p.scala && p.tok().kind == tNewline {
		p.skip() // Scala and Java continue "val x =" on the next line
	}
	return name
}

func (ev *evaluator) bind(name string, v *value, reads int) {
	if v.kind == vFrame {
		f := v.frame.clone()
		f.ref.Var = name
		v = &value{kind: vFrame, frame: f}
		// A read names the variable only when the frame is that read's data alone.
		fresh := ev.out.Reads[min(reads, len(ev.out.Reads)):] // a call may have dropped reads
		switch n := len(f.ref.Tables) + len(f.ref.Paths) + len(f.ref.SQL); {
		case n == 1:
			for _, r := range fresh {
				if r.Var == "" && readIs(r, f.ref) {
					r.Var = name
				}
			}
		case n == 0 && len(fresh) == 1 && fresh[0].Var == "":
			fresh[0].Var = name
		}
	}
	ev.env[name] = v
}

func (ev *evaluator) text(n *node) string {
	if n == nil || n.off < 0 || n.end > len(ev.src.text) || n.off > n.end {
		return ""
	}
	return string(ev.src.text[n.off:n.end])
}

// shortText is an expression's text cut to its first line and 80 bytes, for FrameRef.Text.
func (ev *evaluator) shortText(n *node) string {
	s := ev.text(n)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = strings.TrimSpace(s[:i]) + " …"
	}
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return s
}

func (ev *evaluator) span(n *node) plan.Span { return ev.src.span(n.off, n.end) }

// eval evaluates an expression, recording the facts it contains.
func (ev *evaluator) eval(n *node) *value {
	if n == nil {
		return unknown
	}
	switch n.kind {
	case nIdent:
		return ev.lookup(n.name)
	case nStr:
		return ev.strValue(n)
	case nNum:
		return numValue(n.name)
	case nAttr:
		if name, ok := dotted(n); ok {
			if v, found := ev.env[name]; found {
				return v
			}
			if key, ok := confKey(name); ok && ev.scala {
				return &value{kind: vStr, str: key, resolved: true}
			}
		}
		return ev.attr(ev.eval(n.x), n)
	case nCall:
		if ev.java && n.x.kind == nAttr && len(n.args) == 0 && javaAccessor(n.x.name) {
			return ev.attr(ev.eval(n.x.x), n.x) // df.write(), spark.read(), spark.conf()
		}
		if n.x.kind == nAttr {
			return ev.method(ev.eval(n.x.x), n.x.name, n)
		}
		return ev.function(n)
	case nBin:
		return ev.binary(n)
	case nList:
		v := &value{kind: vList, rows: literalRows(n.args)}
		for _, a := range n.args {
			v.items = append(v.items, ev.eval(a.val))
		}
		return v
	case nUnary:
		x := ev.eval(n.x)
		if n.name == "-" && x.kind == vNum {
			return &value{kind: vNum, num: -x.num}
		}
	case nIndex:
		ev.eval(n.x)
		ev.evalEach(n.args)
	case nFor:
		return ev.forYield(n)
	}
	return unknown
}

// forYield evaluates a Scala for-comprehension: a list (local data) of at most the product
// of its generators' sizes, unknown when one is not known.
func (ev *evaluator) forYield(n *node) *value {
	rows := int64(1)
	for _, g := range n.args {
		v := ev.eval(g.val)
		if v.kind != vList || v.rows == 0 || rows > maxKnownRows/v.rows {
			rows = 0
			continue
		}
		rows *= v.rows
	}
	ev.eval(n.x)
	return &value{kind: vList, rows: rows}
}

// evalEach evaluates each argument for the facts it records, its value not needed.
func (ev *evaluator) evalEach(args []arg) {
	for _, a := range args {
		ev.eval(a.val)
	}
}

// evalArgs evaluates each argument and returns their values.
func (ev *evaluator) evalArgs(args []arg) []*value {
	vs := make([]*value, len(args))
	for i, a := range args {
		vs[i] = ev.eval(a.val)
	}
	return vs
}

func (ev *evaluator) lookup(name string) *value {
	if v, ok := ev.env[name]; ok {
		return v
	}
	return unknown
}

// dotted returns "a.b.c" for an attribute chain of names.
func dotted(n *node) (string, bool) {
	switch n.kind {
	case nIdent:
		return n.name, true
	case nAttr:
		s, ok := dotted(n.x)
		return s + "." + n.name, ok
	}
	return "", false
}

func numValue(s string) *value {
	v := &value{kind: vNum}
	s = strings.TrimRight(strings.ReplaceAll(s, "_", ""), "lL")
	n := 0
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) || n > 1<<40 {
			return unknown
		}
		n = n*10 + int(s[i]-'0')
	}
	if s == "" {
		return unknown
	}
	v.num = n
	return v
}

// strValue resolves a literal, substituting interpolated names bound to constants.
func (ev *evaluator) strValue(n *node) *value {
	v := &value{kind: vStr, resolved: true, strNode: n, verbatim: n.lit.verbatim}
	if len(n.lit.parts) == 1 && n.lit.parts[0].expr == "" {
		v.str = n.lit.parts[0].lit // a literal without interpolation: its text as it is
		return v
	}
	var b strings.Builder
	for _, p := range n.lit.parts {
		if p.expr == "" {
			b.WriteString(p.lit)
			continue
		}
		if c, ok := ev.env[p.expr]; ok && (c.kind == vStr && c.resolved || c.kind == vNum) {
			if c.kind == vNum {
				b.WriteString(ev.numText(c))
			} else {
				b.WriteString(c.str)
			}
			continue
		}
		v.resolved, v.verbatim = false, false
		b.WriteString("{" + p.expr + "}")
	}
	v.str = b.String()
	return v
}

func (ev *evaluator) numText(v *value) string { return strconv.Itoa(v.num) }

func (ev *evaluator) binary(n *node) *value {
	x, y := ev.eval(n.x), ev.eval(n.y)
	if n.name == "until" || n.name == "to" {
		return scalaRange(n.name, x, y)
	}
	if n.name == "+" && (x.kind == vStr || y.kind == vStr) {
		// An unknown operand of a string concatenation stands as {expr}.
		part := func(v *value, e *node) (string, bool) {
			if v.kind == vStr {
				return v.str, v.resolved
			}
			return "{" + ev.text(e) + "}", false
		}
		a, ra := part(x, n.x)
		b, rb := part(y, n.y)
		return &value{kind: vStr, str: a + b, resolved: ra && rb, strNode: n}
	}
	if n.name == "%" && x.kind == vStr {
		return ev.percent(x, y, n)
	}
	if x.kind == vNum && y.kind == vNum {
		return ev.arith(n.name, x.num, y.num)
	}
	return unknown
}

func readIs(r *plan.Read, f plan.FrameRef) bool {
	switch {
	case len(f.SQL) == 1:
		return r.SQL == f.SQL[0]
	case len(f.Tables) == 1:
		return r.Table == f.Tables[0]
	}
	return len(f.Paths) == 1 && r.Path == f.Paths[0]
}

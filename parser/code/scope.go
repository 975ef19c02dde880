package code

// A pyDef is a Python function being read: its name and the column of its "def", so that a
// statement at or left of that column ends it.
type pyDef struct {
	name string
	col  int
	// tok is the index of its "def" token; params its parameters; marks the file's facts
	// where its body starts.
	tok    int
	params []string
	marks  factMarks
}

// column returns the 0-based column of text offset off.
func (ev *evaluator) column(off int) int {
	col := 0
	for i := off - 1; i >= 0 && ev.src.text[i] != '\n'; i-- {
		col++
	}
	return col
}

// pyScope updates the stack of enclosing Python functions for a statement starting at the
// parser's position: statements indented no deeper than a def end it (popped, innermost
// first); "def name(" opens one.
func (ev *evaluator) pyScope(p *exprParser, defs []pyDef) (kept, popped []pyDef) {
	t := p.tok()
	col := ev.column(t.off)
	for len(defs) > 0 && col <= defs[len(defs)-1].col {
		popped = append(popped, defs[len(defs)-1])
		defs = defs[:len(defs)-1]
	}
	if t.kind == tIdent && t.text == "def" && p.toks.at(p.i+1).kind == tIdent {
		defs = append(defs, pyDef{name: p.toks.at(p.i + 1).text, col: col, tok: p.i, params: params(p.toks, p.i), marks: ev.marks()})
	}
	return defs, popped
}

// pyReturn reads "return expr" inside a Python function: the first frame a function returns
// is bound as the value of calling it ("name()"), so that df = load(spark) resolves to what
// load reads. It reports whether it consumed a statement.
func (ev *evaluator) pyReturn(p *exprParser, defs []pyDef) bool {
	t := p.tok()
	if ev.scala || len(defs) == 0 || t.kind != tIdent || t.text != "return" {
		return false
	}
	p.skip()
	n := ev.statement(p)
	if n == nil {
		return true
	}
	v := ev.eval(n)
	key := defs[len(defs)-1].name + "()"
	if _, bound := ev.env[key]; !bound && v.kind == vFrame {
		f := v.frame.clone()
		f.ref.Var = ""
		ev.env[key] = &value{kind: vFrame, frame: f}
		ev.returns = true
	}
	return true
}

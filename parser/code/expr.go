package code

import "slices"

// nodeKind is the kind of an expression node.
type nodeKind uint8

const (
	nIdent nodeKind = iota + 1
	nStr
	nNum
	nAttr  // x.name
	nCall  // x(args)
	nIndex // x[args]
	nBin   // x name y
	nUnary // name x
	nList  // (a, b) or [a, b]; name is the opening bracket
	nOther // something skipped (a dict, a lambda); only its extent is known
	nFor   // Scala's for (generators) yield x: args are the generators' collections, x what it yields
)

// A node is an expression of the small Python/Scala subset the reader understands: names,
// literals, attribute access, calls, indexing, binary operators and lists.
type node struct {
	kind nodeKind
	name string
	x, y *node
	args []arg
	lit  *strLit
	// off and end are the text offsets of the expression; dot is the offset of the "." of
	// an nAttr.
	off, end, dot int
}

// An arg is a call argument, named for Python keyword arguments and Scala named arguments.
type arg struct {
	name string
	val  *node
	// partial is set when tokens after val were skipped to reach the next comma or closer (a
	// comprehension's "for …", a lambda's body): val is then only the argument's start.
	partial bool
}

// maxDepth bounds the parser's recursion (brackets and unary operators), so that hostile
// input cannot exhaust the stack.
const maxDepth = 100

// maxHeight bounds the height of an expression tree, which chains of binary operators and
// of calls grow without recursing in the parser: the evaluator recurses on the tree.
const maxHeight = 1000

// An exprParser reads expressions from a token slice, stopping at the first token that
// cannot continue one.
type exprParser struct {
	scala bool
	toks  tokens
	i     int
	depth int
	// deep is the offset of the first token at which the recursion reached maxDepth, -1
	// when it has not.
	deep int
	// cur is token i (the one tok returns) when curAt is i+1: the parser asks for the same
	// token several times before it moves on. 0 when none is held.
	cur   token
	curAt int
	// argBuf holds the arguments of the lists being read, innermost last (args): each list's
	// arguments are copied out once it ends, into a slice of their number.
	argBuf []arg
}

// tooDeep reports whether the recursion is at maxDepth, recording where it first got there.
func (p *exprParser) tooDeep() bool {
	if p.depth <= maxDepth {
		return false
	}
	if p.deep < 0 {
		p.deep = p.tok().off
	}
	return true
}

// tooLong reports whether a chain of operators or calls has grown to maxHeight links, which
// would make a tree too high for the evaluator, recording where.
func (p *exprParser) tooLong(links int) bool {
	if links < maxHeight {
		return false
	}
	if p.deep < 0 {
		p.deep = p.tok().off
	}
	return true
}

// height is the height of the tree n, computed without recursion; it stops counting past
// maxHeight.
func height(n *node) int {
	type item struct {
		n *node
		h int
	}
	if n == nil {
		return 0
	}
	most := 0
	stack := []item{{n, 1}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if it.h > most {
			most = it.h
			if most > maxHeight {
				return most
			}
		}
		for _, c := range []*node{it.n.x, it.n.y} {
			if c != nil {
				stack = append(stack, item{c, it.h + 1})
			}
		}
		for _, a := range it.n.args {
			if a.val != nil {
				stack = append(stack, item{a.val, it.h + 1})
			}
		}
	}
	return most
}

// tok returns the token at the parser's position (tEOF past the end).
func (p *exprParser) tok() token {
	if p.curAt != p.i+1 {
		p.load()
	}
	return p.cur
}

// load makes cur the token at the parser's position. It is not inlined, so that tok and isOp,
// which call it only when the parser has moved, are.
//
//go:noinline
func (p *exprParser) load() { p.cur, p.curAt = p.toks.at(p.i), p.i+1 }

// next returns the token at the parser's position and moves past it (not past the tEOF).
func (p *exprParser) next() token {
	t := p.tok()
	p.skip()
	return t
}

// skip moves past the token at the parser's position, as next does.
func (p *exprParser) skip() {
	if p.i >= 0 && p.i < p.toks.n {
		p.i++
	}
}

// isOp reports whether the token at the parser's position is the operator s.
func (p *exprParser) isOp(s string) bool {
	if p.curAt != p.i+1 {
		p.load()
	}
	return p.cur.kind == tOp && p.cur.text == s
}

// binPrec is the precedence of a binary operator token, 0 when it is not one.
func binPrec(t token) int {
	if t.kind != tOp && t.kind != tIdent {
		return 0
	}
	switch t.text {
	case "or", "||":
		return 1
	case "and", "&&":
		return 2
	}
	if t.kind != tOp {
		return 0
	}
	switch t.text {
	case "|":
		return 3
	case "&":
		return 4
	case "==", "!=", "===", "=!=", "<", ">", "<=", ">=", "<=>", "->":
		return 5
	case "+", "-", "++":
		return 6
	case "*", "/", "%", "//":
		return 7
	}
	return 0
}

// expr parses an expression of at least precedence minPrec; nil when none starts here.
func (p *exprParser) expr(minPrec int) *node {
	if p.tooDeep() {
		return nil
	}
	p.depth++
	defer func() { p.depth-- }()
	x := p.unary()
	if x == nil {
		return nil
	}
	for links := 0; ; links++ {
		t := p.tok()
		prec := binPrec(t)
		if p.scala && t.kind == tIdent && (t.text == "until" || t.text == "to") {
			prec = 1 // Scala's ranges, 0 until n: a word operator binds loosest
		}
		if prec == 0 || prec < minPrec || p.tooLong(links) {
			return x
		}
		save := p.i
		p.skip()
		y := p.expr(prec + 1)
		if y == nil {
			p.i = save
			return x
		}
		x = &node{kind: nBin, name: t.text, x: x, y: y, off: x.off, end: y.end}
	}
}

func (p *exprParser) unary() *node {
	if p.tooDeep() {
		return nil
	}
	p.depth++
	defer func() { p.depth-- }()
	t := p.tok()
	if (t.kind == tOp && (t.text == "-" || t.text == "+" || t.text == "~" || t.text == "!" ||
		t.text == "*" || t.text == "**")) || (t.kind == tIdent && t.text == "not") {
		p.skip()
		x := p.unary()
		if x == nil {
			return nil
		}
		return &node{kind: nUnary, name: t.text, x: x, off: t.off, end: x.end}
	}
	x := p.primary()
	if x == nil {
		return nil
	}
	return p.postfix(x)
}

func (p *exprParser) primary() *node {
	t := p.tok()
	switch t.kind {
	case tIdent:
		if p.scala && t.text == "for" {
			if n := p.forYield(); n != nil {
				return n
			}
		}
		p.skip()
		return &node{kind: nIdent, name: t.text, off: t.off, end: t.end}
	case tNumber:
		p.skip()
		return &node{kind: nNum, name: t.text, off: t.off, end: t.end}
	case tString:
		p.skip()
		x := &node{kind: nStr, lit: t.lit, off: t.off, end: t.end}
		// Adjacent literals concatenate ("a" "b"), as in Python.
		for links := 0; p.tok().kind == tString && !p.tooLong(links); links++ {
			u := p.next()
			y := &node{kind: nStr, lit: u.lit, off: u.off, end: u.end}
			x = &node{kind: nBin, name: "+", x: x, y: y, off: x.off, end: y.end}
		}
		return x
	case tOp:
		return p.primaryOp(t)
	}
	return nil
}

func (p *exprParser) primaryOp(t token) *node {
	switch t.text {
	case "(", "[":
		p.skip()
		closer := ")"
		if t.text == "[" {
			closer = "]"
		}
		base, trailing := p.readArgs(closer)
		if t.text == "(" && len(p.argBuf) == base+1 && !trailing && p.argBuf[base].name == "" {
			x := p.argBuf[base].val // (x) is x
			p.popArgs(base)
			return x
		}
		return &node{kind: nList, name: t.text, args: p.popArgs(base), off: t.off, end: p.toks.at(p.i - 1).end}
	case "{":
		if p.scala {
			// A Scala block holds statements: the statement loop reads into it.
			return nil
		}
		p.skip()
		p.skipTo("}")
		return &node{kind: nOther, off: t.off, end: p.toks.at(p.i - 1).end}
	case "$", "'":
		// Scala's $"col" and 'col column syntax.
		u := p.toks.at(p.i + 1)
		if (t.text == "$" && u.kind == tString) || (t.text == "'" && u.kind == tIdent) {
			p.skip()
			p.skip()
			arg0 := &node{kind: nStr, lit: &strLit{parts: []strPart{{lit: u.text}}}, off: u.off, end: u.end}
			if u.kind == tString {
				arg0.lit = u.lit
			}
			fn := &node{kind: nIdent, name: t.text, off: t.off, end: t.end}
			return &node{kind: nCall, x: fn, args: []arg{{val: arg0}}, off: t.off, end: u.end}
		}
	}
	return nil
}

func (p *exprParser) postfix(x *node) *node {
	for links := 0; !p.tooLong(links); links++ {
		t := p.tok()
		// A Scala chain continues on the next line when that line starts with ".".
		if t.kind == tNewline && p.toks.at(p.i+1).kind == tOp && p.toks.at(p.i+1).text == "." {
			p.skip()
			t = p.tok()
		}
		if t.kind != tOp {
			return x
		}
		switch t.text {
		case ".":
			u := p.toks.at(p.i + 1)
			skip := 0
			if u.kind == tNewline {
				// A chain whose line ends with the dot continues on the next line.
				u, skip = p.toks.at(p.i+2), 1
			}
			if u.kind != tIdent {
				return x
			}
			p.i += 2 + skip
			x = &node{kind: nAttr, name: u.text, x: x, off: x.off, end: u.end, dot: t.off}
		case "(", "[":
			p.skip()
			closer := ")"
			kind := nCall
			if t.text == "[" {
				closer, kind = "]", nIndex
			}
			args, _ := p.args(closer)
			x = &node{kind: kind, x: x, args: args, off: x.off, end: p.toks.at(p.i - 1).end}
		default:
			return x
		}
	}
	return x
}

// args reads comma-separated arguments up to and including closer. Arguments it cannot
// read are skipped up to the next comma or closer at their level. trailing reports a final
// comma, which makes "(a,)" a tuple.
func (p *exprParser) args(closer string) (args []arg, trailing bool) {
	base, trailing := p.readArgs(closer)
	return p.popArgs(base), trailing
}

// readArgs is args leaving the arguments on p.argBuf, from base (its length when called) on.
func (p *exprParser) readArgs(closer string) (base int, trailing bool) {
	base = len(p.argBuf)
	for {
		t := p.tok()
		if t.kind == tEOF {
			return base, trailing
		}
		if p.isOp(closer) {
			p.skip()
			return base, trailing
		}
		if t.kind == tOp && (t.text == ")" || t.text == "]" || t.text == "}") {
			// A stray closer ends the list without being consumed.
			return base, trailing
		}
		trailing = false
		var a arg
		if t.kind == tIdent && p.toks.at(p.i+1).kind == tOp && p.toks.at(p.i+1).text == "=" {
			a.name = t.text
			p.i += 2
		}
		a.val = p.expr(1)
		if a.val != nil && (p.isOp(",") || p.isOp(closer)) {
			p.argBuf = append(p.argBuf, a)
		} else {
			start := p.i
			p.skipArg()
			if a.val == nil && p.i > start {
				a.val = &node{kind: nOther, off: p.toks.at(start).off, end: p.toks.at(p.i - 1).end}
			}
			a.partial = p.i > start
			if a.val != nil {
				p.argBuf = append(p.argBuf, a)
			}
		}
		if p.isOp(",") {
			p.skip()
			trailing = true
		}
	}
}

// popArgs removes the arguments from base on from p.argBuf and returns them, nil when there
// are none.
func (p *exprParser) popArgs(base int) []arg {
	var out []arg
	if len(p.argBuf) > base {
		out = slices.Clone(p.argBuf[base:])
	}
	clear(p.argBuf[base:])
	p.argBuf = p.argBuf[:base]
	return out
}

// skipArg skips tokens up to (not including) a comma or a closing bracket at the current
// level.
func (p *exprParser) skipArg() {
	depth := 0
	for {
		t := p.tok()
		if t.kind == tEOF {
			return
		}
		if t.kind == tOp {
			switch t.text {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				if depth == 0 {
					return
				}
				depth--
			case ",":
				if depth == 0 {
					return
				}
			}
		}
		p.skip()
	}
}

// skipTo skips tokens up to and including closer at the current level.
func (p *exprParser) skipTo(closer string) {
	p.skipArg()
	for p.isOp(",") {
		p.skip()
		p.skipArg()
	}
	if p.isOp(closer) {
		p.skip()
	}
}

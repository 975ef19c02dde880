package code

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

func (p *exprParser) tok() token { return p.toks.at(p.i) }

func (p *exprParser) next() token {
	t := p.toks.at(p.i)
	if t.kind != tEOF {
		p.i++
	}
	return t
}

func (p *exprParser) isOp(s string) bool {
	t := p.toks.at(p.i)
	return t.kind == tOp && t.text == s
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
		p.next()
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
		p.next()
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
		p.next()
		return &node{kind: nIdent, name: t.text, off: t.off, end: t.end}
	case tNumber:
		p.next()
		return &node{kind: nNum, name: t.text, off: t.off, end: t.end}
	case tString:
		p.next()
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
		p.next()
		closer := ")"
		if t.text == "[" {
			closer = "]"
		}
		args, trailing := p.args(closer)
		if t.text == "(" && len(args) == 1 && !trailing && args[0].name == "" {
			return args[0].val
		}
		return &node{kind: nList, name: t.text, args: args, off: t.off, end: p.toks.at(p.i - 1).end}
	case "{":
		if p.scala {
			// A Scala block holds statements: the statement loop reads into it.
			return nil
		}
		p.next()
		p.skipTo("}")
		return &node{kind: nOther, off: t.off, end: p.toks.at(p.i - 1).end}
	case "$", "'":
		// Scala's $"col" and 'col column syntax.
		u := p.toks.at(p.i + 1)
		if (t.text == "$" && u.kind == tString) || (t.text == "'" && u.kind == tIdent) {
			p.next()
			p.next()
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
			p.next()
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
			p.next()
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
	for {
		t := p.tok()
		if t.kind == tEOF {
			return args, trailing
		}
		if p.isOp(closer) {
			p.next()
			return args, trailing
		}
		if t.kind == tOp && (t.text == ")" || t.text == "]" || t.text == "}") {
			// A stray closer ends the list without being consumed.
			return args, trailing
		}
		trailing = false
		var a arg
		if t.kind == tIdent && p.toks.at(p.i+1).kind == tOp && p.toks.at(p.i+1).text == "=" {
			a.name = t.text
			p.next()
			p.next()
		}
		a.val = p.expr(1)
		if a.val != nil && (p.isOp(",") || p.isOp(closer)) {
			args = append(args, a)
		} else {
			start := p.i
			p.skipArg()
			if a.val == nil && p.i > start {
				a.val = &node{kind: nOther, off: p.toks.at(start).off, end: p.toks.at(p.i - 1).end}
			}
			a.partial = p.i > start
			if a.val != nil {
				args = append(args, a)
			}
		}
		if p.isOp(",") {
			p.next()
			trailing = true
		}
	}
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
		p.next()
	}
}

// skipTo skips tokens up to and including closer at the current level.
func (p *exprParser) skipTo(closer string) {
	p.skipArg()
	for p.isOp(",") {
		p.next()
		p.skipArg()
	}
	if p.isOp(closer) {
		p.next()
	}
}

package code

// forYield reads a Scala for-comprehension that yields, for { a <- xs; b <- ys; if c } yield
// e (or with parentheses), at the parser's "for": an nFor whose args are the generators'
// collections (the expressions after "<-") and whose x is the yielded expression. Guards and
// definitions (x = e) are read and not kept: a guard only drops elements, so the generators'
// sizes still bound the result. nil, with the parser where it was, when "for" does not start
// one (a for loop without yield, something not read).
func (p *exprParser) forYield() *node {
	start := p.i
	t := p.next() // for
	if !p.isOp("{") && !p.isOp("(") {
		p.i = start
		return nil
	}
	closer := "}"
	if p.isOp("(") {
		closer = ")"
	}
	p.skip()
	var gens []arg
	for !p.isOp(closer) {
		k := p.tok()
		switch {
		case k.kind == tEOF:
			p.i = start
			return nil
		case k.kind == tNewline || k.kind == tOp && k.text == ";":
			p.skip()
			continue
		case k.kind == tIdent && p.toks.at(p.i+1).kind == tOp && p.toks.at(p.i+1).text == "<-":
			p.i += 2
			g := p.expr(1)
			if g == nil {
				p.i = start
				return nil
			}
			gens = append(gens, arg{val: g})
			continue
		}
		if p.expr(1) == nil && p.skipNonExpr(closer) {
			continue
		}
	}
	p.skip() // the closer
	for p.tok().kind == tNewline {
		p.skip()
	}
	if y := p.tok(); y.kind != tIdent || y.text != "yield" || len(gens) == 0 {
		p.i = start
		return nil
	}
	p.skip()
	x := p.expr(1)
	if x == nil {
		p.i = start
		return nil
	}
	return &node{kind: nFor, args: gens, x: x, off: t.off, end: x.end}
}

// skipNonExpr moves past one token that starts no expression inside a for-comprehension's
// generators ("if" of a guard, "=" of a definition, a pattern's parenthesis…), unless it is
// the closer; it reports whether it moved.
func (p *exprParser) skipNonExpr(closer string) bool {
	if p.isOp(closer) || p.tok().kind == tEOF {
		return false
	}
	p.skip()
	return true
}

package sql

// Expressions, after SqlBaseParser.g4's booleanExpression (OR, AND, NOT, EXISTS), predicate
// (BETWEEN, IN, LIKE/ILIKE/RLIKE with ANY/ALL/SOME, IS …) and valueExpression (signs, the
// arithmetic, concatenation, shift and bitwise operators, comparisons). Operands are in
// rd_primary.go.

// expression is booleanExpression's OR level.
func (p *rd) expression() *expr {
	if !p.enter() {
		return &expr{}
	}
	defer p.leave()
	b := node(p, func(n *nodeSlabs) *slab[operand] { return &n.operands })
	e := &b.e
	e.Pos = p.pos()
	e.Or = b.or[:0]
	e.Or = append(e.Or, p.andExpr(b))
	for p.err == nil && p.is("OR") {
		p.next()
		e.Or = append(e.Or, p.andExpr(nil))
	}
	e.EndPos = p.endPos()
	return e
}

// operand is the nodes of an expression's first operand at every level, from the OR down
// to the unary, with the first element of the OR's and the AND's lists: every operand has
// them all, and one allocation instead of seven keeps the parser's time in parsing. The
// later operands of an OR or AND, and nested expressions, take their own.
type operand struct {
	e   expr
	a   andExpr
	c   cmpExpr
	ar  arith
	u   unary
	pr  primary
	or  [1]*andExpr
	and [1]*cmpExpr
}

// andExpr is booleanExpression's AND level; its nodes come from b when not nil.
func (p *rd) andExpr(b *operand) *andExpr {
	var a *andExpr
	var first []*cmpExpr
	if b != nil {
		a, first = &b.a, b.and[:0]
	} else {
		a = new(andExpr)
	}
	a.Pos = p.pos()
	a.And = first
	a.And = append(a.And, p.notExpr(b))
	for p.err == nil && (p.is("AND") || p.is("&&")) {
		p.next()
		a.And = append(a.And, p.notExpr(nil))
	}
	a.EndPos = p.endPos()
	return a
}

// notExpr is [NOT] valueExpression [predicate]. A second NOT (NOT NOT x) nests the rest as
// a parenthesised operand, as the grammar's recursion does.
// Its nodes come from b when not nil.
func (p *rd) notExpr(b *operand) *cmpExpr {
	var c *cmpExpr
	if b != nil {
		c = &b.c
	} else {
		c = new(cmpExpr)
	}
	c.Pos = p.pos()
	if p.is("NOT") || p.is("!") {
		p.next()
		c.Not = true
		if p.is("NOT") || p.is("!") {
			if !p.enter() {
				return c
			}
			inner := p.notExpr(nil)
			p.leave()
			c.Left = wrapCmp(inner)
			c.EndPos = p.endPos()
			return c
		}
	}
	c.Left = p.arithIn(b)
	p.predicates(c)
	c.EndPos = p.endPos()
	return c
}

// predicates reads comparisons and predicates after an operand: a = b, a IN (…), a IS NULL;
// each one after the first applies to what precedes it ((a = b) IS NULL).
func (p *rd) predicates(c *cmpExpr) {
	for p.err == nil {
		before := p.endPos()
		r := p.predicate()
		if r == nil {
			return
		}
		if c.RHS != nil {
			c.Left = wrapCmp(&cmpExpr{Pos: c.Left.Pos, EndPos: before, Left: c.Left, RHS: c.RHS})
		}
		c.RHS = r
	}
}

// wrapCmp turns a comparison into an operand, as if it had been written in parentheses.
func wrapCmp(c *cmpExpr) *arith {
	e := &expr{Pos: c.Pos, EndPos: c.EndPos, Or: []*andExpr{{Pos: c.Pos, EndPos: c.EndPos, And: []*cmpExpr{c}}}}
	pr := &primary{Pos: c.Pos, EndPos: c.EndPos, Tuple: []*expr{e}}
	u := &unary{Pos: c.Pos, EndPos: c.EndPos, Primary: pr}
	return &arith{Pos: c.Pos, EndPos: c.EndPos, Left: u}
}

// predicate reads one comparison or predicate, or returns nil when none follows.
func (p *rd) predicate() *cmpRHS {
	if k := p.tok().kind; k != tIdent && k != tOp {
		return nil // a predicate starts with a word or an operator
	}
	switch t := p.tok(); {
	case t.kind == tOp && isComparison(t.text):
		// <=> is one token; < = is not <=.
		p.next()
		return &cmpRHS{Op: t.text, Right: p.arith()}
	case p.is("IS"):
		p.next()
		return &cmpRHS{Is: p.isPredicate()}
	}
	negated := (p.is("NOT") || p.is("!")) && isPredicateWord(p.ahead(1))
	if !negated && !isPredicateWord(p.tok()) {
		return nil // most operands have none: allocate only for one
	}
	r := &cmpRHS{}
	if negated {
		if p.is("!") {
			p.use(featBangNot, p.tok().off)
		}
		p.next()
		r.Not = true
	}
	switch {
	case p.is("IN"):
		p.next()
		r.In = p.inList()
	case p.is("BETWEEN"):
		p.next()
		b := &between{Low: p.arith()}
		p.expect("AND")
		b.High = p.arith()
		r.Between = b
	case p.isAny("LIKE", "ILIKE", "RLIKE", "REGEXP"):
		r.Like = p.likePredicate()
	default:
		return nil
	}
	return r
}

func isComparison(op string) bool {
	switch op {
	case "=", "==", "<=>", "<>", "!=", "<=", ">=", "<", ">":
		return true
	}
	return false
}

func isPredicateWord(t token) bool {
	if t.kind != tIdent {
		return false
	}
	switch len(t.text) {
	case 2:
		return foldEq(t.text, "IN")
	case 4:
		return foldEq(t.text, "LIKE")
	case 5:
		return foldEq(t.text, "ILIKE") || foldEq(t.text, "RLIKE")
	case 6:
		return foldEq(t.text, "REGEXP")
	case 7:
		return foldEq(t.text, "BETWEEN")
	}
	return false
}

// isPredicate reads what follows IS.
func (p *rd) isPredicate() *isPred {
	if p.is("!") {
		p.use(featBangNot, p.tok().off)
	}
	ip := &isPred{Not: p.accept("NOT") || p.accept("!")}
	switch {
	case p.isAny("NULL", "TRUE", "FALSE", "UNKNOWN"):
		ip.What = p.next().text
	case p.is("DISTINCT"):
		p.next()
		p.expect("FROM")
		ip.Other = p.arith()
	default:
		p.fail("NULL, TRUE, FALSE, UNKNOWN or DISTINCT FROM")
	}
	return ip
}

// inList reads ( query ) or ( expression, … ) after IN.
func (p *rd) inList() *inList {
	l := &inList{}
	if !p.expect("(") {
		return l
	}
	if p.startsQuery() {
		l.Query = p.queryStmt()
	} else {
		l.Items = p.expressionList()
	}
	p.expect(")")
	return l
}

// expressionList reads expression (, expression)*.
func (p *rd) expressionList() []*expr {
	out := []*expr{p.expression()}
	for p.err == nil && p.accept(",") {
		out = append(out, p.expression())
	}
	return out
}

// likePredicate reads LIKE|ILIKE|RLIKE|REGEXP [ANY|ALL|SOME] pattern [ESCAPE 'c'].
func (p *rd) likePredicate() *likePred {
	if p.is("ILIKE") {
		p.use(featILike, p.tok().off)
	}
	l := &likePred{Op: p.next().text}
	switch {
	case p.isAny("ANY", "ALL", "SOME") && isTok(p.ahead(1), "(") && isTok(p.ahead(2), ")"):
		// Spark 3.0 had no LIKE ANY: ANY() is a call there.
		p.use(featLikeAnyEmpty, p.tok().off)
	case p.isAny("ANY", "ALL", "SOME") && isTok(p.ahead(1), "("):
		l.Quant = p.next().text
	}
	l.Pattern = p.arith()
	if p.accept("ESCAPE") {
		if p.tok().kind != tString {
			p.fail("a string")
		}
		p.next()
	}
	return l
}

// arith is valueExpression without comparisons: operands joined by * / % DIV + - || << >>
// >>> & ^ |, kept as a flat chain (trees.arith applies the precedence).
func (p *rd) arith() *arith { return p.arithIn(nil) }

// arithIn is arith with its nodes from b when not nil.
func (p *rd) arithIn(b *operand) *arith {
	var a *arith
	if b != nil {
		a = &b.ar
	} else {
		a = new(arith)
	}
	a.Pos = p.pos()
	a.Left = p.unary(b)
	for p.err == nil {
		op := p.arithOp()
		if op == "" {
			break
		}
		a.Rest = append(a.Rest, &arithOp{Op: op, Right: p.unary(nil)})
	}
	a.EndPos = p.endPos()
	return a
}

// arithOp consumes and returns the binary operator at the cursor, or "".
func (p *rd) arithOp() string {
	t := p.tok()
	if t.kind == tIdent && isTok(t, "DIV") {
		p.next()
		return t.text
	}
	if t.kind != tOp {
		return ""
	}
	if op := p.shiftOp(); op != "" {
		p.use(featShift, t.off)
		p.i += len(op)
		return op
	}
	switch t.text {
	case "+", "-", "*", "/", "%", "||", "&", "^":
		p.next()
		return t.text
	case "|":
		if p.isPipe() {
			return ""
		}
		p.next()
		return t.text
	}
	return ""
}

// unary is signs, an operand, and its postfixes; its nodes come from b when not nil.
func (p *rd) unary(b *operand) *unary {
	var u *unary
	var pr *primary
	if b != nil {
		u, pr = &b.u, &b.pr
	} else {
		ub := node(p, func(n *nodeSlabs) *slab[unaryBlock] { return &n.unaries })
		u, pr = &ub.u, &ub.pr
	}
	u.Pos = p.pos()
	for t := p.tok(); t.kind == tOp && len(t.text) == 1 && (t.text[0] == '-' || t.text[0] == '+' || t.text[0] == '~'); t = p.tok() {
		t := p.next()
		u.Sign = append(u.Sign, &sign{Pos: pos{Offset: t.off}, Op: t.text})
	}
	numTok := p.tok()
	u.Primary = p.primaryIn(pr)
	if u.Primary.Number != "" {
		n := len(u.Sign)
		p.checkNumber(numTok, n > 0 && u.Sign[n-1].Op == "-")
	}
	for p.err == nil {
		pf := p.postfix(u.Pos)
		if pf == nil {
			break
		}
		u.Postfix = append(u.Postfix, pf)
	}
	u.EndPos = p.endPos()
	return u
}

// atPostfix reports whether a postfix starts at the cursor.
func (p *rd) atPostfix() bool {
	switch t := p.tok(); t.kind {
	case tOp:
		switch t.text {
		case "::", "[":
			return true
		case ".":
			return isName(p.ahead(1))
		case ":":
			return isName(p.ahead(1)) || isTok(p.ahead(1), "[")
		}
	case tIdent:
		return isTok(t, "COLLATE") && isName(p.ahead(1))
	}
	return false
}

// postfix reads ::type, [index], .field, :path or COLLATE name after an operand.
func (p *rd) postfix(from pos) *postfix {
	if !p.atPostfix() {
		return nil // most operands have none: allocate only for one
	}
	pf := &postfix{Pos: from}
	switch {
	case p.is("::"):
		p.use(featDoubleColon, p.next().off)
		pf.Cast = p.dataType()
	case p.is("["):
		p.next()
		pf.Index = p.expression()
		p.expect("]")
	case p.is(".") && p.identLiteAt(1):
		p.next()
		pf.Field = p.identLite()
	case p.is(".") && isName(p.ahead(1)):
		p.next()
		pf.Field = p.next().text
	case p.is("COLLATE") && isName(p.ahead(1)):
		p.use(featCollate, p.next().off)
		pf.collate = p.collation()
	case p.is(":"):
		// v:a.b[0], the extraction of a VARIANT or JSON value (semiStructuredExtract): its
		// path's first key here, the .key and [i] parts after it as the postfixes they read as.
		p.use(featJSONPath, p.next().off)
		if p.accept("[") {
			pf.Index = p.expression()
			p.expect("]")
		} else {
			pf.Field = p.next().text
		}
	default:
		return nil
	}
	pf.EndPos = p.endPos()
	return pf
}

package sql

import (
	"strings"
)

// Operands, after SqlBaseParser.g4's primaryExpression: CAST and TRY_CAST, CASE, EXISTS,
// INTERVAL literals, typed literals (DATE '…', X'…'), subqueries, tuples and structs,
// numbers, strings, * [EXCEPT (…)], lambdas, function calls (read in rd_call.go), column
// references, IDENTIFIER(…) and parameters.

// primary reads one operand.
func (p *rd) primary() *primary { return p.primaryIn(new(primary)) }

// primaryIn is primary reading into pr, a zero primary.
func (p *rd) primaryIn(pr *primary) *primary {
	pr.Pos = p.pos()
	t := p.tok()
	switch {
	case t.kind == tNumber:
		pr.Number = p.next().text
	case t.kind == tString:
		if t.text[0] == 'r' || t.text[0] == 'R' {
			p.use(featRawString, t.off)
		}
		for p.tok().kind == tString {
			pr.Str = append(pr.Str, p.next().text)
		}
	case isTok(t, "*"):
		p.next()
		pr.Star = true
		pr.except = p.starExcept()
	case p.isLambda():
		pr.Lambda = p.lambda()
	case isTok(t, "("):
		p.parenthesised(pr)
	case isTok(t, "?"):
		p.use(featPositionalParameter, t.off)
		pr.Param = p.next().text
	case isTok(t, ":") && p.ahead(1).kind == tIdent && p.adjacent(p.i):
		p.use(featParameter, p.next().off)
		pr.Param = ":" + p.next().text
	case t.kind == tIdent:
		p.keywordPrimary(pr)
	case isName(t):
		p.namePrimary(pr)
	default:
		p.fail("an expression")
	}
	pr.EndPos = p.endPos()
	return pr
}

// keywordPrimary reads an operand that starts with an identifier: a keyword form or a name.
func (p *rd) keywordPrimary(pr *primary) {
	t, nx := p.tok(), p.ahead(1)
	switch {
	case (isTok(t, "CAST") || isTok(t, "TRY_CAST")) && isTok(nx, "("):
		if isTok(t, "TRY_CAST") {
			p.use(featTryCast, t.off)
		}
		pr.Cast = p.cast()
	case isTok(t, "CASE"):
		pr.Case = p.caseExpr()
	case isTok(t, "EXISTS") && isTok(nx, "(") && p.startsStatementQueryAt(2):
		p.i += 2
		pr.Exists = p.queryStmt()
		p.expect(")")
	case isTok(t, "INTERVAL") && (nx.kind == tString || nx.kind == tNumber || isTok(nx, "-") || isTok(nx, "+")):
		pr.Interval = p.interval()
		p.checkInterval(pr.Interval, t.off)
	case nx.kind == tString && isTypedLiteral(t.text):
		pr.Typed = []string{p.next().text, p.next().text}
		p.checkTyped(t, nx)
		switch {
		case isTok(t, "TIME"):
			p.use(featTime, t.off)
		case isTok(t, "TIMESTAMP_NTZ") || isTok(t, "TIMESTAMP_LTZ"):
			p.use(featTimestampNTZ, t.off)
		}
	default:
		p.namePrimary(pr)
	}
}

// isTypedLiteral reports the type names that may precede a string to make a literal.
func isTypedLiteral(w string) bool {
	switch strings.ToUpper(w) {
	case "DATE", "TIMESTAMP", "TIMESTAMP_NTZ", "TIMESTAMP_LTZ", "X", "TIME", "INTERVAL":
		return true
	}
	return false
}

// namePrimary reads a function call, a column reference (q.* included) or IDENTIFIER(…).
func (p *rd) namePrimary(pr *primary) {
	start := p.i
	q := p.qnameExpr()
	if p.err != nil {
		return
	}
	if p.is("(") {
		p.i = start
		pr.Func = p.funcCall()
		return
	}
	pr.Column = q
	if p.is(".") && isTok(p.ahead(1), "*") {
		p.i += 2
		pr.AllCols = true
		pr.except = p.starExcept()
	}
}

// starExcept reads EXCEPT (columns) after a star, when what follows EXCEPT is a column list
// rather than a query (SELECT * EXCEPT SELECT … is a set operation).
func (p *rd) starExcept() []*innerTok {
	if !p.is("EXCEPT") || !isTok(p.ahead(1), "(") || startsQueryTok(p.ahead(2), p.ahead(3)) || isTok(p.ahead(2), "(") {
		return nil
	}
	p.use(featStarExcept, p.next().off)
	if isTok(p.ahead(1), ")") {
		p.i++
		p.fail("a column")
		return nil
	}
	return p.skipGroup()
}

// parenthesised reads ( query ), or a tuple or struct ( expr [AS name], … ).
func (p *rd) parenthesised(pr *primary) {
	p.next()
	if p.startsQuery() {
		pr.Sub = p.queryStmt()
		p.expect(")")
		return
	}
	for {
		pr.Tuple = append(pr.Tuple, p.expression())
		if p.accept("AS") {
			p.alias()
		}
		if p.err != nil || !p.accept(",") {
			break
		}
	}
	p.expect(")")
}

// alias consumes a name after AS.
func (p *rd) alias() string {
	if !isName(p.tok()) {
		p.fail("a name")
		return ""
	}
	return p.next().text
}

// isLambda reports whether a lambda starts here: x -> … or (x, y) -> ….
func (p *rd) isLambda() bool {
	if p.tok().kind == tIdent && isTok(p.ahead(1), "->") {
		return true
	}
	if !p.is("(") {
		return false
	}
	for k := 1; ; k += 2 {
		if p.ahead(k).kind != tIdent {
			return false
		}
		switch n := p.ahead(k + 1); {
		case isTok(n, ")"):
			return isTok(p.ahead(k+2), "->")
		case !isTok(n, ","):
			return false
		}
	}
}

// lambda reads x -> body or (x, …) -> body.
func (p *rd) lambda() *lambda {
	l := &lambda{}
	param := func() {
		t := p.next()
		l.Params = append(l.Params, &lambdaParam{Pos: pos{Offset: t.off}, EndPos: pos{Offset: t.end}, Name: t.text})
	}
	if p.accept("(") {
		param()
		for p.accept(",") {
			param()
		}
		p.expect(")")
	} else {
		param()
	}
	p.expect("->")
	l.Body = p.expression()
	return l
}

// cast reads CAST|TRY_CAST ( expr AS type ).
func (p *rd) cast() *castExpr {
	c := &castExpr{Fn: p.next().text}
	p.expect("(")
	c.X = p.expression()
	p.expect("AS")
	c.Type = p.dataType()
	p.expect(")")
	return c
}

// caseExpr reads CASE [subject] WHEN … THEN … [ELSE …] END.
func (p *rd) caseExpr() *caseExpr {
	p.next()
	c := &caseExpr{}
	if !p.is("WHEN") {
		c.Subject = p.expression()
	}
	for p.err == nil && p.accept("WHEN") {
		w := &whenThen{When: p.expression()}
		p.expect("THEN")
		w.Then = p.expression()
		c.Whens = append(c.Whens, w)
	}
	if len(c.Whens) == 0 {
		p.fail(`"WHEN"`)
	}
	if p.accept("ELSE") {
		c.Else = p.expression()
	}
	p.expect("END")
	return c
}

// isUnit reports the units of an interval literal or type, singular and plural.
func isUnit(t token) bool { return t.kind == tIdent && intervalUnit(t.text) }

// intervalUnit reports whether w names an interval field.
func intervalUnit(w string) bool {
	switch strings.TrimSuffix(strings.ToUpper(w), "S") {
	case "YEAR", "MONTH", "WEEK", "DAY", "HOUR", "MINUTE", "SECOND", "MILLISECOND", "MICROSECOND", "NANOSECOND":
		return true
	}
	return false
}

// interval reads INTERVAL value [unit [TO unit]] (value unit)*: the tokens after INTERVAL,
// as SqlBaseParser.g4's interval (multiUnitsInterval, unitToUnitInterval) has them.
func (p *rd) interval() []string {
	p.next()
	var out []string
	for p.err == nil {
		k := 0
		if p.isAny("-", "+") {
			k = 1
		}
		v := p.ahead(k)
		if v.kind != tString && v.kind != tNumber {
			break
		}
		if len(out) > 0 && !isUnit(p.ahead(k+1)) {
			break // what follows is not another field of this literal
		}
		if k == 1 {
			if v.kind == tString {
				p.use(featIntervalSign, p.tok().off)
			}
			out = append(out, p.next().text)
		}
		p.next()
		out = append(out, v.text)
		if !isUnit(p.tok()) {
			if v.kind == tNumber {
				p.fail("an interval unit")
			}
			break
		}
		out = append(out, p.next().text)
		if p.is("TO") && isUnit(p.ahead(1)) {
			out = append(out, p.next().text, p.next().text)
			break
		}
	}
	if len(out) == 0 {
		p.fail("an interval value")
	}
	return out
}

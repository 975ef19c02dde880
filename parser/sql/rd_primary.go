package sql

import (
	"strings"
)

// Operands, after SqlBaseParser.g4's primaryExpression: CAST and TRY_CAST, CASE, EXISTS,
// INTERVAL literals, typed literals (DATE '…', X'…'), subqueries, tuples and structs,
// numbers, strings, * [EXCEPT (…)], lambdas, function calls (functionCall, with FILTER,
// WITHIN GROUP, IGNORE NULLS and OVER), column references, IDENTIFIER(…) and parameters.

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
		pr.Param = p.next().text
	case isTok(t, ":") && p.ahead(1).kind == tIdent && p.adjacent(p.i):
		p.next()
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
	q := p.qname()
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
	p.next()
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

// funcCall reads name ( args ) [WITHIN GROUP (…)] [FILTER (WHERE …)] [IGNORE|RESPECT NULLS]
// [OVER …].
func (p *rd) funcCall() *funcCall {
	f := &funcCall{Pos: p.pos()}
	f.Name = p.qname()
	f.List = p.argList(f.Name)
	p.checkDatetimeUnit(f.Name, f.List)
	if p.at("WITHIN", "GROUP", "(") {
		p.i += 2
		f.Within = p.skipGroup()
	}
	if p.at("FILTER", "(") {
		fl := &filter{Pos: p.pos()}
		p.i += 2
		p.expect("WHERE")
		fl.Cond = p.expression()
		p.expect(")")
		fl.EndPos = p.endPos()
		f.Filter = fl
	}
	if p.isAny("IGNORE", "RESPECT") && isTok(p.ahead(1), "NULLS") {
		f.Nulls = p.next().text
		p.next()
	}
	if p.accept("OVER") {
		f.Over = p.over()
	}
	f.EndPos = p.endPos()
	return f
}

// argList reads a call's ( [DISTINCT|ALL] args ), (*), or the keyword forms of EXTRACT,
// SUBSTRING, TRIM, POSITION and OVERLAY, and table arguments, which are kept as tokens.
func (p *rd) argList(name *qname) *argList {
	l := &argList{Pos: p.pos()}
	open := p.i
	p.expect("(")
	if p.isAny("DISTINCT", "ALL") && !isTok(p.ahead(1), ")") && !isTok(p.ahead(1), ",") {
		l.Quant = p.next().text
	}
	switch {
	case p.is("*") && isTok(p.ahead(1), ")"):
		t := p.next()
		l.Star = &star{Pos: pos{Offset: t.off}, EndPos: pos{Offset: t.end}, Star: true}
	case p.is(")"):
	case keywordArgs(name):
		if end := p.matching(open); end > 0 && p.hasKeywordArg(open, end) {
			l.Raw = rawToks(p.toks[open+1 : end])
			p.i = end
			break
		}
		p.args(l, name)
	default:
		p.args(l, name)
	}
	p.expect(")")
	l.EndPos = p.endPos()
	return l
}

// keywordArgs reports the functions whose arguments may be written with keywords.
func keywordArgs(name *qname) bool {
	if name == nil || len(name.Parts) != 1 {
		return false
	}
	switch strings.ToUpper(name.Parts[0]) {
	case "EXTRACT", "SUBSTRING", "SUBSTR", "TRIM", "POSITION", "OVERLAY", "BTRIM", "LTRIM", "RTRIM":
		return true
	}
	return false
}

// hasKeywordArg reports whether the call's brackets (open, end) hold FROM, FOR, IN, PLACING,
// BOTH, LEADING or TRAILING at their own level.
func (p *rd) hasKeywordArg(open, end int) bool {
	depth := 0
	for j := open + 1; j < end; j++ {
		t := p.toks[j]
		switch {
		case isTok(t, "(") || isTok(t, "["):
			depth++
		case isTok(t, ")") || isTok(t, "]"):
			depth--
		case depth == 0:
			for _, w := range []string{"FROM", "FOR", "IN", "PLACING", "BOTH", "LEADING", "TRAILING"} {
				if isTok(t, w) {
					return true
				}
			}
		}
	}
	return false
}

// args reads a call's arguments: expressions, name => value, STRUCT's aliased fields, and
// TABLE arguments of table-valued functions (which turn the list into tokens).
func (p *rd) args(l *argList, name *qname) {
	isStruct := name != nil && len(name.Parts) == 1 && strings.EqualFold(name.Parts[0], "struct")
	from, table := p.i, false
	for p.err == nil {
		n := ""
		if isName(p.tok()) && isTok(p.ahead(1), "=>") {
			n = p.next().text
			p.next()
		}
		if p.is("TABLE") && (isName(p.ahead(1)) || isTok(p.ahead(1), "(")) {
			table = true
			p.tableArg()
		} else {
			l.Args = append(l.Args, p.expression())
			l.named = append(l.named, n)
		}
		if isStruct && p.accept("AS") {
			p.alias()
		} else if isStruct && isName(p.tok()) && p.tok().kind != tIdent {
			p.next()
		}
		if !p.accept(",") {
			break
		}
	}
	if table && p.err == nil {
		l.Args, l.named = nil, nil
		l.Raw = rawToks(p.toks[from:p.i])
	}
}

// tableArg reads a table argument: TABLE name | TABLE (query), then [WITH SINGLE PARTITION |
// PARTITION BY …] [ORDER BY …] (functionTableArgument).
func (p *rd) tableArg() {
	p.next()
	if p.accept("(") {
		if p.startsQuery() {
			p.queryStmt()
		} else {
			p.qname()
		}
		p.expect(")")
	} else {
		p.qname()
	}
	switch {
	case p.acceptSeq("WITH", "SINGLE", "PARTITION"):
	case p.isAny("PARTITION", "DISTRIBUTE") && isTok(p.ahead(1), "BY"):
		p.i += 2
		p.expressionList()
	}
	if p.isAny("ORDER", "SORT") && isTok(p.ahead(1), "BY") {
		p.i += 2
		if p.accept("(") {
			p.sortItems()
			p.expect(")")
		} else {
			p.sortItems()
		}
	}
}

// over reads a window after OVER: a name or (spec).
func (p *rd) over() *over {
	o := &over{}
	if p.accept("(") {
		o.Spec = p.windowSpec()
		p.expect(")")
		return o
	}
	if !isName(p.tok()) {
		p.fail("a window name or (")
		return o
	}
	o.Name = p.next().text
	return o
}

// windowSpec reads [base] [PARTITION|DISTRIBUTE BY …] [ORDER|SORT BY …] [frame] inside the
// brackets of OVER or WINDOW (windowSpec, windowFrame).
func (p *rd) windowSpec() *windowSpec {
	s := &windowSpec{Pos: p.pos()}
	if p.tok().kind == tIdent && !p.isAny("PARTITION", "DISTRIBUTE", "ORDER", "SORT", "ROWS", "RANGE") {
		s.Base = p.next().text
	}
	if p.isAny("PARTITION", "DISTRIBUTE") && isTok(p.ahead(1), "BY") {
		p.i += 2
		s.Partition = p.expressionList()
	}
	if p.isAny("ORDER", "SORT") && isTok(p.ahead(1), "BY") {
		p.i += 2
		s.Order = p.sortItems()
	}
	if p.isAny("ROWS", "RANGE") {
		s.FrameKind = p.next().text
		from := p.i
		for p.err == nil && !p.is(")") && p.tok().kind != tEOF {
			if p.is("(") {
				p.skipGroup()
				continue
			}
			p.next()
		}
		s.Frame = rawToks(p.toks[from:p.i])
		p.checkFrameBound(p.toks[from:p.i])
	}
	s.EndPos = p.endPos()
	return s
}

// sortItems reads expr [ASC|DESC] [NULLS FIRST|LAST], ….
func (p *rd) sortItems() []*sortItem {
	var out []*sortItem
	for {
		it := &sortItem{Pos: p.pos(), Expr: p.expression()}
		if p.isAny("ASC", "DESC") {
			it.Dir = p.next().text
		}
		if p.is("NULLS") && (isTok(p.ahead(1), "FIRST") || isTok(p.ahead(1), "LAST")) {
			p.next()
			it.Nulls = p.next().text
		}
		it.EndPos = p.endPos()
		out = append(out, it)
		if p.err != nil || !p.accept(",") {
			return out
		}
	}
}

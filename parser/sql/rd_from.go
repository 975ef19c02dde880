package sql

import (
	"strings"

	"github.com/alecthomas/participle/v2/lexer"
)

// FROM and what reads rows, after SqlBaseParser.g4's fromClause, relation, joinRelation
// (joinType, joinCriteria), relationPrimary (tables with temporalClause, optionsClause and
// sample; subqueries; nested relations; inlineTable; functionTable; LATERAL), tableAlias,
// lateralView, pivotClause and unpivotClause, transformClause with rowFormat, and the
// operators of operatorPipeRightSide.

// fromClause reads relation (, relation)* LATERAL VIEW … PIVOT … UNPIVOT ….
func (p *rd) fromClause() *fromClause {
	f := &fromClause{First: p.joinChain()}
	for p.err == nil && p.accept(",") {
		f.More = append(f.More, p.joinChain())
	}
	for p.err == nil && p.at("LATERAL", "VIEW") {
		f.Lateral = append(f.Lateral, p.lateralView())
	}
	for p.err == nil && p.isAny("PIVOT", "UNPIVOT") {
		f.pivot = append(f.pivot, p.pivot())
	}
	return f
}

// lateralView reads LATERAL VIEW [OUTER] f(args) [table] [AS col, …].
func (p *rd) lateralView() *lateralView {
	v := &lateralView{Pos: p.pos()}
	p.i += 2
	v.Outer = p.accept("OUTER")
	f := &funcCall{Pos: p.pos()}
	f.Name = p.qname()
	f.List = p.argList(nil)
	f.EndPos = p.endPos()
	v.Func = f
	if p.isAlias() {
		v.Table = p.next().text
	}
	if p.accept("AS") || p.isAlias() {
		for p.err == nil {
			v.Cols = append(v.Cols, p.ident())
			if !p.accept(",") {
				break
			}
		}
	}
	v.EndPos = p.endPos()
	return v
}

// pivot reads PIVOT (aggregates FOR column IN (values)) or UNPIVOT [INCLUDE|EXCLUDE NULLS]
// (values FOR name IN (columns)), with an optional alias.
func (p *rd) pivot() *pivotClause {
	c := &pivotClause{Pos: p.pos()}
	from := p.i
	c.Unpivot = strings.EqualFold(p.next().text, "UNPIVOT")
	if c.Unpivot {
		p.use(featUnpivot, p.toks[from].off)
	}
	if c.Unpivot && p.isAny("INCLUDE", "EXCLUDE") {
		p.next()
		p.expect("NULLS")
	}
	p.expect("(")
	if p.is("(") {
		p.identList()
	} else {
		c.Aggs = p.selectItems()
	}
	p.expect("FOR")
	if p.is("(") {
		c.For = p.identList()
	} else {
		if q := p.qname(); q.Ident == nil && len(q.Parts) == 1 {
			c.For = []*ident{{Pos: lexer.Position{Offset: q.Pos.Offset}, Name: q.Parts[0]}}
		}
	}
	p.expect("IN")
	p.expect("(")
	c.Values = p.selectItems()
	p.expect(")")
	p.expect(")")
	p.tableAlias(&c.alias)
	c.EndPos = p.endPos()
	return c
}

// joinChain reads relationPrimary followed by joins.
func (p *rd) joinChain() *joinChain {
	ch := &joinChain{Left: p.tableFactor()}
	for p.err == nil && p.startsJoin() {
		ch.Joins = append(ch.Joins, p.joinPart())
	}
	return ch
}

// startsJoin reports whether a join follows.
func (p *rd) startsJoin() bool {
	for k := 0; k < 4; k++ {
		t := p.ahead(k)
		switch {
		case isTok(t, "JOIN"):
			return true
		case isTok(t, "NATURAL") || isTok(t, "INNER") || isTok(t, "CROSS") || isTok(t, "LEFT") ||
			isTok(t, "RIGHT") || isTok(t, "FULL") || isTok(t, "OUTER") || isTok(t, "SEMI") || isTok(t, "ANTI"):
		default:
			return false
		}
	}
	return false
}

// joinPart reads [NATURAL] [type] JOIN [LATERAL] relation [ON cond | USING (cols)].
func (p *rd) joinPart() *joinPart {
	j := &joinPart{Pos: p.pos()}
	j.Natural = p.accept("NATURAL")
	switch {
	case p.isAny("INNER", "CROSS"):
		j.Type = []string{p.next().text}
	case p.isAny("LEFT", "RIGHT", "FULL"):
		j.Type = []string{p.next().text}
		if p.isAny("OUTER", "SEMI", "ANTI") {
			j.Type = append(j.Type, p.next().text)
		}
	case p.isAny("SEMI", "ANTI"):
		j.Type = []string{p.next().text}
	}
	p.expect("JOIN")
	j.Right = p.tableFactor()
	switch {
	case p.accept("ON"):
		j.On = p.expression()
	case p.is("USING"):
		if j.Right.lateral {
			p.fail("ON: a LATERAL join has no USING")
		}
		p.next()
		j.Using = p.identList()
	}
	if j.Natural && j.Right.lateral {
		p.failAt(j.Pos.Offset, "a NATURAL join cannot be LATERAL")
	}
	j.EndPos = p.endPos()
	return j
}

// tableFactor reads one relationPrimary with its alias.
func (p *rd) tableFactor() *tableFactor {
	t := node(p, func(n *nodeSlabs) *slab[tableFactor] { return &n.factors })
	t.Pos = p.pos()
	if !p.enter() {
		return t
	}
	defer p.leave()
	if p.is("LATERAL") {
		first := p.i > 0 && isTok(p.toks[p.i-1], "FROM")
		switch at := p.next().off; {
		case p.is("("):
			p.use(featLateralSubquery, at)
		case !first:
			// 3.2 and 3.3 accept it as the first table of FROM (recorded: SELECT * FROM
			// LATERAL EXPLODE(ARRAY(1, 2)) of Spark's join-lateral.sql).
			p.use(featLateralFunction, at)
		}
		t.lateral = true
	}
	switch {
	case p.is("(") && p.subqueryFollows():
		p.next()
		t.Sub = p.queryStmt()
		p.expect(")")
	case p.is("("):
		p.next()
		t.Nested = p.fromClause()
		p.expect(")")
	case p.is("VALUES"):
		p.next()
		from := p.i
		rows := p.expressionList()
		t.Values = rawToks(p.toks[from:p.i])
		defer func() { p.checkValues(rows, t.ColAlias) }()
	case p.isName() && p.callFollows():
		t.Func = p.funcCall()
		if t.Func.Over != nil {
			p.failAt(t.Func.Pos.Offset, "a table-valued function has no OVER window")
		}
	case p.isName() && !p.isAny("WHERE", "GROUP", "ORDER", "HAVING", "LIMIT", "UNION", "JOIN", "ON", "SELECT"):
		t.Name = p.qname()
		if p.at("WITH", "(") {
			p.use(featRelationOptions, p.next().off)
			p.skipGroup()
		}
	default:
		p.fail("a table")
		return t
	}
	t.Temporal = p.temporal()
	if p.is("WATERMARK") && p.delayFollows() {
		p.watermark()
	}
	p.tableAlias(t)
	for p.err == nil && p.isAny("PIVOT", "UNPIVOT") && isTok(p.ahead(1), "(") {
		t.pivot = append(t.pivot, p.pivot())
	}
	t.EndPos = p.endPos()
	return t
}

// isName reports whether the current token can start a name.
func (p *rd) isName() bool { return isName(p.tok()) }

// subqueryFollows reports whether the "(" at the cursor opens a query rather than a nested
// relation: a query word follows it, or a bracketed query that is followed by the closing
// bracket or by what continues a query (((SELECT …) UNION …) is a query, ((SELECT …) s JOIN
// t) a relation).
func (p *rd) subqueryFollows() bool { return p.subqueryAt(p.i) }

func (p *rd) subqueryAt(i int) bool {
	return p.memo(1, i, func() bool { return p.subqueryAtNow(i) })
}

func (p *rd) subqueryAtNow(i int) bool {
	if i+1 >= len(p.toks) {
		return false
	}
	if startsQueryTok(p.toks[i+1], p.toks[min(i+2, len(p.toks)-1)]) {
		return true
	}
	if !isTok(p.toks[i+1], "(") || !p.subqueryAt(i+1) {
		return false
	}
	end := p.matching(i + 1)
	return end > 0 && (isTok(p.toks[min(end+1, len(p.toks)-1)], ")") || p.continuesQuery(end+1))
}

// callFollows reports whether a (qualified) name followed by "(" is at the cursor.
func (p *rd) callFollows() bool {
	if p.is("IDENTIFIER") && isTok(p.ahead(1), "(") {
		end := p.matching(p.i + 1)
		return end > 0 && isTok(p.toks[min(end+1, len(p.toks)-1)], "(")
	}
	k := 0
	for isName(p.ahead(k)) && isTok(p.ahead(k+1), ".") {
		k += 2
	}
	// s.IDENTIFIER('t') names a table (4.1), s.IDENTIFIER('t')(…) is still a call.
	return isName(p.ahead(k)) && isTok(p.ahead(k+1), "(") && (!p.identLiteAt(k) || isTok(p.ahead(k+4), "("))
}

// temporal reads TABLESAMPLE (…) [REPEATABLE (…)], [FOR] VERSION|SYSTEM_VERSION AS OF v, or
// [FOR] TIMESTAMP|SYSTEM_TIME AS OF expr, as tokens.
func (p *rd) temporal() []*innerTok {
	from := p.i
	switch {
	case p.at("TABLESAMPLE", "("):
		p.next()
		if end := p.matching(p.i); end > p.i {
			p.checkSample(p.toks[p.i+1:end], p.toks[p.i].off)
		}
		p.skipGroup()
		if p.at("REPEATABLE", "(") {
			p.next()
			p.skipGroup()
		}
	case p.at("FOR", "SYSTEM_VERSION", "AS", "OF") || p.at("FOR", "VERSION", "AS", "OF") ||
		p.at("FOR", "SYSTEM_TIME", "AS", "OF") || p.at("FOR", "TIMESTAMP", "AS", "OF"):
		p.use(featTimeTravel, p.tok().off)
		p.i += 4
		p.expression()
	case p.at("VERSION", "AS", "OF") || p.at("TIMESTAMP", "AS", "OF") || p.at("SYSTEM_VERSION", "AS", "OF") || p.at("SYSTEM_TIME", "AS", "OF"):
		p.use(featTimeTravel, p.tok().off)
		p.i += 3
		p.expression()
	default:
		return nil
	}
	return rawToks(p.toks[from:p.i])
}

// tableAlias reads [AS] name [(cols)].
func (p *rd) tableAlias(t *tableFactor) {
	switch {
	case p.at("AS", "("):
		p.next()
		t.ColAlias = p.identList()
		return
	case p.accept("AS"):
		t.As = p.alias()
	case p.isAlias():
		a := aliasName(p.next().text)
		t.Alias = &a
	default:
		return
	}
	if p.is("(") {
		t.ColAlias = p.identList()
	}
}

// transformClause reads SELECT TRANSFORM (exprs) | MAP exprs | REDUCE exprs, then [ROW
// FORMAT …] [RECORDWRITER '…'] USING 'script' [AS (cols) | AS cols] [ROW FORMAT …]
// [RECORDREADER '…'], and returns the tokens read.
func (p *rd) transformClause() []*innerTok {
	from := p.i
	if p.accept("TRANSFORM") {
		p.expect("(")
		if !p.is(")") {
			p.transformInputs()
		}
		p.expect(")")
	} else {
		p.next()
		p.expressionList()
	}
	p.rowFormat(true)
	if p.accept("RECORDWRITER") {
		p.str()
	}
	p.expect("USING")
	p.str()
	if p.accept("AS") {
		if p.accept("(") {
			p.columnsMaybeTyped()
			p.expect(")")
		} else {
			p.columnsMaybeTyped()
		}
	}
	p.rowFormat(true)
	if p.accept("RECORDREADER") {
		p.str()
	}
	return rawToks(p.toks[from:p.i])
}

// transformInputs reads TRANSFORM's inputs, expression (, expression)*. Before 3.2 they were
// a namedExpressionSeq: each may have an alias (TRANSFORM(DISTINCT a) is the column DISTINCT
// named a there).
func (p *rd) transformInputs() {
	for p.err == nil {
		p.expression()
		if at := p.tok().off; p.accept("AS") {
			p.alias()
			p.use(featTransformAlias, at)
		} else if p.isAlias() {
			p.next()
			p.use(featTransformAlias, at)
		}
		if !p.accept(",") {
			return
		}
	}
}

// columnsMaybeTyped reads name [type], ….
func (p *rd) columnsMaybeTyped() {
	for p.err == nil {
		p.ident()
		if p.tok().kind == tIdent && !p.isAny("ROW", "RECORDREADER", "FROM", "WHERE") {
			p.dataType()
		}
		if !p.accept(",") {
			return
		}
	}
}

// str consumes a string literal.
func (p *rd) str() {
	if p.tok().kind != tString {
		p.fail("a string")
		return
	}
	p.next()
}

// rowFormat reads ROW FORMAT SERDE '…' [WITH SERDEPROPERTIES (…)] | ROW FORMAT DELIMITED
// [FIELDS TERMINATED BY '…' [ESCAPED BY '…']] [COLLECTION ITEMS …] [MAP KEYS …] [LINES …]
// [NULL DEFINED AS '…'], if there. transform says it is TRANSFORM's: Spark before 3.1 did not
// check its LINES TERMINATED BY.
func (p *rd) rowFormat(transform bool) {
	if !p.acceptSeq("ROW", "FORMAT") {
		return
	}
	if p.accept("SERDE") {
		p.str()
		if p.acceptSeq("WITH", "SERDEPROPERTIES") {
			p.skipGroup()
		}
		return
	}
	p.expect("DELIMITED")
	for p.err == nil {
		switch {
		case p.acceptSeq("FIELDS", "TERMINATED", "BY"):
			p.str()
			if p.acceptSeq("ESCAPED", "BY") {
				p.str()
			}
		case p.acceptSeq("LINES", "TERMINATED", "BY"):
			switch t := p.tok(); {
			case t.kind != tString || unquoteString(t.text) == "\n":
			case transform:
				p.use(featLinesTerminated, t.off)
			default:
				p.failAt(t.off, "LINES TERMINATED BY supports only '\\n'")
			}
			p.str()
		case p.acceptSeq("COLLECTION", "ITEMS", "TERMINATED", "BY"), p.acceptSeq("MAP", "KEYS", "TERMINATED", "BY"),
			p.acceptSeq("NULL", "DEFINED", "AS"):
			p.str()
		default:
			return
		}
	}
}

// watermark reads WATERMARK expr [AS name] DELAY OF interval after a relation, the event-time
// column and delay of a streaming relation (watermarkClause).
func (p *rd) watermark() {
	p.use(featWatermark, p.next().off)
	p.expression()
	if p.accept("AS") {
		p.alias()
	}
	p.expect("DELAY")
	p.expect("OF")
	p.expression()
}

// delayFollows reports whether DELAY OF follows the WATERMARK at the cursor within its
// relation (before a comma, a closing bracket or the end), so that a relation aliased
// watermark stays one.
func (p *rd) delayFollows() bool {
	for j := p.i + 1; j < len(p.toks) && j < p.i+256; j++ {
		t := p.toks[j]
		switch {
		case isTok(t, "("):
			if end := p.matching(j); end > j {
				j = end
			}
		case isTok(t, ",") || isTok(t, ")") || t.kind == tEOF:
			return false
		case isTok(t, "DELAY") && isTok(p.toks[min(j+1, len(p.toks)-1)], "OF"):
			return true
		}
	}
	return false
}

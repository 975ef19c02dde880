package sql

import "strconv"

// Queries, after SqlBaseParser.g4's query (ctes, queryTerm with set operators,
// queryOrganization, the |> operators of operatorPipeRightSide), insertInto, queryPrimary
// (querySpecification, inlineTable, TABLE t, a parenthesised query) and
// querySpecification's clauses (selectClause, transformClause, whereClause,
// aggregationClause, havingClause, windowClause, qualifyClause). FROM is in rd_from.go.

// startsQueryTok reports whether t, followed by n, starts a query: MAP and REDUCE only when
// no "(" follows (map(…) is a function), TABLE only before a name.
func startsQueryTok(t, n token) bool {
	if t.kind != tIdent {
		return false
	}
	switch {
	case isTok(t, "MAP") || isTok(t, "REDUCE"):
		return !isTok(n, "(") && !isTok(n, ",") && !isTok(n, ")")
	case isTok(t, "TABLE"):
		return isName(n)
	}
	return isTok(t, "SELECT") || isTok(t, "WITH") || isTok(t, "VALUES") || isTok(t, "FROM")
}

// startsQuery reports whether a query starts at the cursor in an expression: a query word,
// or brackets around one that are followed by what only a query can continue with (a set
// operator, ORDER BY, LIMIT, |>).
func (p *rd) startsQuery() bool { return p.startsQueryAt(0) }

func (p *rd) startsQueryAt(k int) bool {
	return p.memo(0, p.i+k, func() bool { return p.startsQueryAtNow(k) })
}

func (p *rd) startsQueryAtNow(k int) bool {
	t := p.ahead(k)
	if startsQueryTok(t, p.ahead(k+1)) {
		return true
	}
	if !isTok(t, "(") || !p.startsQueryAt(k+1) {
		return false
	}
	end := p.matching(p.i + k)
	if end < 0 {
		return false
	}
	return p.continuesQuery(end + 1)
}

// continuesQuery reports whether the token at index j continues a query that ended just
// before it: a set operator, ORDER BY …, LIMIT, OFFSET or |>.
func (p *rd) continuesQuery(j int) bool {
	n := p.toks[min(j, len(p.toks)-1)]
	if n.kind != tIdent {
		return isTok(n, "|") && isTok(p.toks[min(j+1, len(p.toks)-1)], ">")
	}
	for _, w := range []string{"UNION", "EXCEPT", "INTERSECT", "MINUS", "ORDER", "LIMIT", "OFFSET", "SORT", "CLUSTER", "DISTRIBUTE"} {
		if isTok(n, w) {
			return true
		}
	}
	return isTok(n, "|") && isTok(p.toks[min(j+1, len(p.toks)-1)], ">")
}

// startsStatementQuery reports whether a query starts at the cursor where nothing but a
// query can (a statement, a view's body): brackets may open it.
func (p *rd) startsStatementQuery() bool {
	k := 0
	for isTok(p.ahead(k), "(") {
		k++
	}
	return startsQueryTok(p.ahead(k), p.ahead(k+1))
}

// queryStmt reads [WITH ctes] [INSERT …] [WITH ctes] query [queryOrganization] (|> op)*.
func (p *rd) queryStmt() *queryStmt {
	q := &queryStmt{Pos: p.pos()}
	if !p.enter() {
		return q
	}
	defer p.leave()
	if p.is("WITH") {
		q.With = p.ctes()
	}
	if p.is("INSERT") {
		q.Insert = p.insertInto()
		if p.is("WITH") {
			q.With = append(q.With, p.ctes()...)
		}
	}
	q.Body = p.setExpr()
	if p.err == nil && p.startsOrganization() {
		from := p.i
		p.organization(&selectBlock{})
		q.org = rawToks(p.toks[from:p.i])
	}
	var ops []*pipeOp
	for p.err == nil && p.isPipe() {
		if len(ops) == maxNesting {
			// Each operator may nest the query before it one level deeper.
			p.failAt(p.tok().off, "more than "+strconv.Itoa(maxNesting)+" |> operators in one query are not read")
			break
		}
		p.use(featPipe, p.tok().off)
		p.i += 2
		ops = append(ops, p.pipeOperator())
		if p.err == nil && !p.isPipe() && p.startsOrganization() {
			op := &pipeOp{Pos: p.pos(), Kind: "ORDER", Org: &selectBlock{}}
			p.organization(op.Org)
			op.EndPos = p.endPos()
			ops = append(ops, op)
		}
	}
	if len(ops) > 0 && p.err == nil {
		q.Body = applyPipes(q.Body, ops)
	}
	q.EndPos = p.endPos()
	return q
}

// ctes reads WITH [RECURSIVE] name [(cols)] [AS] (query), ….
func (p *rd) ctes() []*cte {
	p.next()
	if p.is("RECURSIVE") {
		p.use(featWithRecursive, p.next().off)
	}
	var out []*cte
	seen := map[string]bool{}
	for p.err == nil {
		c := &cte{Pos: p.pos()}
		c.Name = p.ident().Name
		if n := unquoteIdent(c.Name); seen[n] {
			p.failAt(c.Pos.Offset, "the WITH clause defines "+c.Name+" twice")
		} else {
			seen[n] = true
		}
		if p.is("(") {
			c.Cols = p.identList()
		}
		p.accept("AS")
		p.expect("(")
		c.Query = p.queryStmt()
		p.expect(")")
		c.EndPos = p.endPos()
		out = append(out, c)
		if !p.accept(",") {
			break
		}
	}
	return out
}

// insertInto reads INSERT INTO|OVERWRITE [TABLE] name [PARTITION (…)] [IF NOT EXISTS]
// [(cols) | BY NAME] [REPLACE WHERE …], or INSERT OVERWRITE [LOCAL] DIRECTORY …, which
// writes no table and gives nil.
func (p *rd) insertInto() *insertInto {
	p.next()
	in := &insertInto{}
	for p.tok().kind == tHint {
		in.Hints = append(in.Hints, p.next().text)
	}
	switch {
	case p.accept("OVERWRITE"):
		in.Overwrite = true
		if p.is("LOCAL") || p.is("DIRECTORY") {
			p.insertDirectory()
			return nil
		}
	case p.accept("INTO"):
	default:
		p.fail(`"INTO" or "OVERWRITE"`)
		return in
	}
	p.accept("TABLE")
	in.Table = p.qname()
	if p.at("PARTITION", "(") {
		p.next()
		in.Partition = p.skipGroup()
	}
	p.acceptSeq("IF", "NOT", "EXISTS")
	switch {
	case p.at("BY", "NAME"):
		p.use(featInsertByName, p.tok().off)
		p.i += 2
	case p.is("(") && !p.startsStatementQuery():
		in.Cols = p.identList()
	}
	if p.at("REPLACE", "WHERE") {
		p.use(featReplaceWhere, p.tok().off)
		p.i += 2
		p.expression()
	} else if p.at("REPLACE", "USING") {
		p.use(featReplaceUsing, p.tok().off)
		p.i += 2
		p.identList()
	}
	return in
}

// insertDirectory reads the rest of INSERT OVERWRITE [LOCAL] DIRECTORY ['path'] [USING fmt]
// [OPTIONS (…)] [ROW FORMAT …] [STORED AS …].
func (p *rd) insertDirectory() {
	p.accept("LOCAL")
	p.expect("DIRECTORY")
	if p.tok().kind == tString {
		p.next()
	}
	for p.err == nil {
		switch {
		case p.accept("USING"):
			p.qname()
		case p.is("OPTIONS"):
			p.next()
			p.skipGroup()
		case p.at("ROW", "FORMAT"):
			p.rowFormat(false)
		case p.is("STORED"):
			p.next()
			p.expect("AS")
			p.qname()
		default:
			return
		}
	}
}

// setExpr reads queryTerm ((UNION|EXCEPT|MINUS|INTERSECT) [ALL|DISTINCT] queryTerm)*.
func (p *rd) setExpr() *setExpr {
	s := &setExpr{Pos: p.pos()}
	s.Left = p.queryTerm()
	for p.err == nil && p.isAny("UNION", "EXCEPT", "MINUS", "INTERSECT") {
		o := &setOp{Op: p.next().text}
		if p.isAny("ALL", "DISTINCT") {
			o.Quant = p.next().text
		}
		o.Right = p.queryTerm()
		s.Ops = append(s.Ops, o)
	}
	s.EndPos = p.endPos()
	return s
}

// queryTerm reads a SELECT block, a parenthesised query, VALUES … or TABLE name.
func (p *rd) queryTerm() *queryTerm {
	t := &queryTerm{Pos: p.pos()}
	switch {
	case p.isAny("SELECT", "MAP", "REDUCE"):
		t.Select = p.selectBlock()
	case p.is("FROM"):
		t.Select = p.fromFirst()
	case p.is("("):
		p.next()
		t.Paren = p.queryStmt()
		p.expect(")")
	case p.is("VALUES"):
		t.Values = p.values()
	case p.is("TABLE"):
		p.next()
		t.Table = p.qname()
	default:
		p.fail("a query")
	}
	t.EndPos = p.endPos()
	return t
}

// values reads VALUES row, … [[AS] alias [(cols)]] as tokens (inlineTable).
func (p *rd) values() []*innerTok {
	from := p.i
	p.next()
	rows := p.expressionList()
	alias := &tableFactor{}
	p.tableAlias(alias)
	p.checkValues(rows, alias.ColAlias)
	return rawToks(p.toks[from:p.i])
}

// selectBlock reads SELECT … and its clauses (querySpecification).
func (p *rd) selectBlock() *selectBlock {
	s := node(p, func(n *nodeSlabs) *slab[selectBlock] { return &n.selects })
	s.Pos = p.pos()
	if p.isAny("MAP", "REDUCE") {
		s.transform = p.transformClause()
	} else {
		p.next()
		for p.tok().kind == tHint {
			s.Hints = append(s.Hints, p.next().text)
		}
		if p.isAny("DISTINCT", "ALL") && !isTok(p.ahead(1), ",") && !isTok(p.ahead(1), "FROM") {
			s.Quant = p.next().text
		}
		if p.transformFollows() {
			s.transform = p.transformClause()
		} else {
			s.Items = p.selectItems()
		}
	}
	if p.accept("FROM") {
		s.From = p.fromClause()
	}
	p.clauses(s)
	s.EndPos = p.endPos()
	return s
}

// fromFirst reads Hive's FROM relation followed by SELECT …, by one or more INSERT … SELECT
// … (a multi-insert, kept as tokens: the tables it writes are not modelled), or by nothing
// (a query of its own before |>) (fromStatement, fromClause as queryPrimary).
func (p *rd) fromFirst() *selectBlock {
	start := p.pos()
	p.next()
	from := p.fromClause()
	switch {
	case p.isAny("SELECT", "MAP", "REDUCE"):
		s := p.selectBlock()
		s.Pos, s.From = start, from
		return s
	case p.is("INSERT"):
		s := &selectBlock{Pos: start, From: from}
		k := p.i
		for p.err == nil && p.is("INSERT") {
			p.insertInto()
			body := p.selectBlock()
			if body.From != nil {
				p.failAt(p.toks[k].off, "a multi-insert's SELECT has no FROM of its own")
			}
		}
		s.transform = rawToks(p.toks[k:p.i])
		s.EndPos = p.endPos()
		return s
	}
	s := &selectBlock{Pos: start, From: from}
	p.clauses(s)
	if !p.isPipe() {
		// Followed by |>, the pipe is what the version error names.
		p.use(featFromQuery, start.Offset)
	}
	s.EndPos = p.endPos()
	return s
}

// clauses reads WHERE, GROUP BY, HAVING, WINDOW, QUALIFY and the query organization.
func (p *rd) clauses(s *selectBlock) {
	if p.accept("WHERE") {
		s.Where = p.expression()
	}
	if p.at("GROUP", "BY") {
		p.i += 2
		s.GroupBy = p.groupBy()
	}
	if p.accept("HAVING") {
		s.Having = p.expression()
	}
	if p.is("WINDOW") {
		s.Windows = p.windows()
	}
	if p.is("QUALIFY") {
		p.use(featQualify, p.next().off)
		s.Qualify = p.expression()
	}
	p.organization(s)
}

// startsOrganization reports whether ORDER BY, CLUSTER BY, … LIMIT or OFFSET follows.
func (p *rd) startsOrganization() bool {
	return p.at("ORDER", "BY") || p.at("CLUSTER", "BY") || p.at("DISTRIBUTE", "BY") ||
		p.at("SORT", "BY") || p.isAny("LIMIT", "OFFSET") || p.is("WINDOW")
}

// organization reads [ORDER BY …] [CLUSTER BY …] [DISTRIBUTE BY …] [SORT BY …] [WINDOW …]
// [LIMIT ALL|n] [OFFSET n] (queryOrganization).
func (p *rd) organization(s *selectBlock) {
	start := p.tok().off
	if p.at("ORDER", "BY") {
		p.i += 2
		s.OrderBy = p.sortItems()
	}
	if p.at("CLUSTER", "BY") {
		p.i += 2
		s.ClusterBy = p.expressionList()
	}
	if p.at("DISTRIBUTE", "BY") {
		p.i += 2
		s.DistributeBy = p.expressionList()
	}
	if p.at("SORT", "BY") {
		p.i += 2
		s.SortBy = p.sortItems()
	}
	for p.err == nil && p.is("WINDOW") {
		s.Windows = append(s.Windows, p.windows()...)
	}
	if p.accept("LIMIT") {
		s.Limit = p.expression()
	}
	if p.is("OFFSET") {
		p.use(featOffset, p.next().off)
		s.Offset = p.expression()
	}
	p.checkOrganization(s, start)
}

// selectItems reads namedExpressionSeq.
func (p *rd) selectItems() []*selectItem {
	var out []*selectItem
	for p.err == nil {
		it := node(p, func(n *nodeSlabs) *slab[selectItem] { return &n.items })
		it.Pos = p.pos()
		it.Expr = p.expression()
		switch {
		case p.accept("AS"):
			if p.is("(") {
				for _, id := range p.identList() {
					it.As = append(it.As, id.Name)
				}
			} else {
				it.As = []string{p.alias()}
			}
		case p.isAlias():
			a := aliasName(p.next().text)
			it.Alias = &a
		case p.is("(") && isName(p.ahead(1)) && (isTok(p.ahead(2), ",") || isTok(p.ahead(2), ")")):
			// expr (a, b): names for a generator's columns, AS left out.
			for _, id := range p.identList() {
				it.As = append(it.As, id.Name)
			}
		}
		it.EndPos = p.endPos()
		out = append(out, it)
		if !p.accept(",") {
			break
		}
	}
	return out
}

// isAlias reports whether the current token is an alias written without AS.
func (p *rd) isAlias() bool {
	t := p.tok()
	switch t.kind {
	case tQuoted:
		return true
	case tIdent:
		return isIdentStart(t.text[0]) && !followsAlias(upper(t.text))
	}
	return false
}

// startsStatementQueryAt is startsStatementQuery k tokens ahead.
func (p *rd) startsStatementQueryAt(k int) bool {
	for isTok(p.ahead(k), "(") {
		k++
	}
	return startsQueryTok(p.ahead(k), p.ahead(k+1))
}

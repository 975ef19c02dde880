package sql

// CREATE VIEW, after SqlBaseParser.g4's createView statement alternative: CREATE [OR
// REPLACE] [GLOBAL] TEMPORARY|TEMP VIEW [IF NOT EXISTS] name [identifierCommentList]
// [COMMENT … | TBLPROPERTIES (…) | PARTITIONED ON (…) | WITH SCHEMA …]* [USING provider
// [OPTIONS (…)]] [AS query]. The clauses bucketlint does not model are checked for their
// shape and skipped; checkStatement (rd_other.go) checks the column list and what the
// configured Spark accepts.

// createView parses the whole of p's tokens as CREATE VIEW; uses are those of its query.
func (p *rd) createView() (*createView, *rdErr) {
	v := &createView{}
	p.expect("CREATE")
	if p.is("OR") && !p.at("OR", "REPLACE") {
		p.fail("")
	}
	p.acceptSeq("OR", "REPLACE")
	v.Global = p.accept("GLOBAL")
	v.Temp = p.accept("TEMPORARY") || p.accept("TEMP")
	p.expect("VIEW")
	p.acceptSeq("IF", "NOT", "EXISTS")
	if p.err == nil && !isName(p.tok()) {
		p.fail("")
	}
	if p.err == nil {
		v.Name = p.qname()
	}
	if p.err == nil && p.is("(") {
		v.Cols = p.skipGroup()
	}
	p.viewClauses()
	if p.err == nil && p.accept("USING") {
		p.viewUsing(v)
	}
	if p.err == nil && p.accept("AS") {
		if !p.startsStatementQuery() {
			p.fail("a query")
		} else {
			n := len(p.uses)
			v.Query = p.queryStmt()
			v.Query.uses = p.uses[n:]
		}
	}
	if p.err == nil && p.tok().kind != tEOF {
		p.fail("")
	}
	return v, p.err
}

// viewClauses skips COMMENT 'text', TBLPROPERTIES (…), PARTITIONED ON (…) and WITH SCHEMA
// BINDING|COMPENSATION|[TYPE] EVOLUTION, in any order and number.
func (p *rd) viewClauses() {
	for p.err == nil {
		switch {
		case p.accept("COMMENT"):
			p.str()
		case p.accept("TBLPROPERTIES"):
			p.skipGroup()
		case p.accept("PARTITIONED"):
			if p.expect("ON") {
				p.skipGroup()
			}
		case p.accept("WITH"):
			p.withSchema()
		default:
			return
		}
	}
}

// withSchema reads the rest of WITH SCHEMA BINDING|COMPENSATION|[TYPE] EVOLUTION.
func (p *rd) withSchema() {
	switch {
	case !p.accept("SCHEMA"):
		p.fail("")
	case p.accept("TYPE"):
		p.expect("EVOLUTION")
	case !p.accept("BINDING") && !p.accept("COMPENSATION") && !p.accept("EVOLUTION"):
		p.fail("BINDING, COMPENSATION or EVOLUTION")
	}
}

// viewUsing skips a temporary view's data source after USING: a (dotted) provider name and
// OPTIONS (…).
func (p *rd) viewUsing(v *createView) {
	for first := true; p.err == nil && (first || p.accept(".")); first = false {
		if p.is("(") {
			v.Using = append(v.Using, &innerTok{Group: p.skipGroup()})
			continue
		}
		if t := p.tok(); t.kind == tEOF || isTok(t, ")") {
			p.fail("a data source")
			return
		}
		v.Using = append(v.Using, &innerTok{Tok: p.next().text})
	}
	if p.err == nil && p.accept("OPTIONS") {
		p.skipGroup()
	}
}

package sql

import "github.com/alecthomas/participle/v2/lexer"

// DROP TABLE, ANALYZE TABLE and CACHE TABLE, read by the hand-written parser where the
// participle grammar (grammar_stmt.go's dropTable, analyzeTable, cacheTable) read them:
// each costs a full re-tokenization and reflection for a few tokens. They fill the same
// structs, held to the grammar by TestGrammarDifferential.

// lexPos is the participle position of a token offset, as the DDL structs carry it.
func lexPos(off int) lexer.Position { return lexer.Position{Offset: off} }

// end records an error at the first token left when the statement should have ended.
func (p *rd) end() {
	if p.err == nil && p.tok().kind != tEOF {
		p.fail("")
	}
}

// tableName reads the name of the table a statement is about; expected is what the grammar
// named when none is there.
func (p *rd) tableName(expected string) *qname {
	if p.err != nil {
		return nil
	}
	if !isName(p.tok()) {
		p.fail(expected)
		return nil
	}
	return p.qname()
}

// dropTable parses the whole of p's tokens as DROP TABLE [IF EXISTS] name [PURGE].
func (p *rd) dropTable() (*dropTable, *rdErr) {
	d := &dropTable{Pos: lexPos(p.tok().off)}
	p.expect("DROP")
	p.expect("TABLE")
	if p.err == nil {
		d.IfExists = p.acceptSeq("IF", "EXISTS")
	}
	// the participle grammar's words, which the messages keep
	d.Name = p.tableName(`qname "PURGE"?`)
	if p.err == nil {
		p.accept("PURGE")
	}
	p.end()
	return d, p.err
}

// analyzeTable parses the whole of p's tokens as ANALYZE TABLE name [PARTITION (…)] COMPUTE
// STATISTICS …, whose rest is skipped.
func (p *rd) analyzeTable() (*analyzeTable, *rdErr) {
	a := &analyzeTable{Pos: lexPos(p.tok().off)}
	p.expect("ANALYZE")
	p.expect("TABLE")
	a.Name = p.tableName("a name")
	if p.err == nil && p.accept("PARTITION") {
		a.Part = p.skipGroup()
	}
	if p.err == nil && p.expect("COMPUTE") && p.expect("STATISTICS") {
		a.Rest = rawToks(p.toks[p.i : len(p.toks)-1])
		p.i = len(p.toks) - 1
	}
	return a, p.err
}

// cacheTable parses the whole of p's tokens as CACHE [LAZY] TABLE name [OPTIONS (…)] [[AS]
// query]; uses are those of its query.
func (p *rd) cacheTable() (*cacheTable, *rdErr) {
	c := &cacheTable{Pos: lexPos(p.tok().off)}
	p.expect("CACHE")
	if p.err == nil {
		c.Lazy = p.accept("LAZY")
	}
	p.expect("TABLE")
	c.Name = p.tableName("a name")
	if p.err == nil && p.accept("OPTIONS") {
		c.Options = p.propertyList()
	}
	if p.err == nil {
		c.As = p.asQuery()
	}
	p.end()
	return c, p.err
}

// asQuery reads [AS] query at the end of CREATE TABLE or CACHE TABLE, nil when there is
// none; uses are those of the query.
func (p *rd) asQuery() *queryStmt {
	as := p.accept("AS")
	if !p.startsStatementQuery() {
		if as {
			p.fail("a query")
		}
		return nil
	}
	n := len(p.uses)
	q := p.queryStmt()
	q.uses = p.uses[n:]
	return q
}

// propertyList reads ( [property ( , property )*] ) of OPTIONS or TBLPROPERTIES: key [=]
// value, the key a string or a dotted name, the value a string, number or identifier; nil
// for an empty list.
func (p *rd) propertyList() []*property {
	if !p.expect("(") {
		return nil
	}
	var out []*property // none for ( ): as the grammar left it
	if p.accept(")") {
		return nil
	}
	for p.err == nil {
		out = append(out, p.property())
		if !p.accept(",") {
			p.expect(")")
			break
		}
	}
	return out
}

// property reads key [=] value.
func (p *rd) property() *property {
	pr := &property{}
	switch p.tok().kind {
	case tString:
		pr.Key = []string{p.next().text}
	case tIdent, tQuoted:
		pr.Key = []string{p.next().text}
		for p.is(".") && (p.ahead(1).kind == tIdent || p.ahead(1).kind == tQuoted) {
			p.next()
			pr.Key = append(pr.Key, p.next().text)
		}
	default:
		p.fail("a key")
		return pr
	}
	eq := p.is("=")
	k := 0
	if eq {
		k = 1
	}
	switch v := p.ahead(k); v.kind {
	case tString, tNumber, tIdent:
		p.i += k
		pr.Value = p.next().text
	default:
		if eq {
			p.next()
			p.fail("a string, a number or a name")
		}
	}
	return pr
}

package sql

// CREATE TABLE, after SqlBaseParser.g4's createTableHeader, createTableClauses and
// bucketSpec, read by the hand-written parser where the participle grammar (grammar_ddl.go's
// createTable) read it: participle tokenized the statement again and walked it by
// reflection, most of the time of a long CREATE TABLE. It fills the same structs, held to
// the grammar by TestGrammarDifferential.

// createTable parses the whole of p's tokens as CREATE [OR REPLACE] [TEMPORARY] [EXTERNAL]
// TABLE [IF NOT EXISTS] name [LIKE name] [(columns)] clause* [[AS] query], or REPLACE TABLE.
func (p *rd) createTable() (*createTable, *rdErr) {
	ct := &createTable{Pos: lexPos(p.tok().off)}
	switch {
	case p.accept("CREATE"):
		if p.is("OR") {
			p.next()
			ct.Replace = p.expect("REPLACE")
		}
	case p.accept("REPLACE"):
		ct.Replace = true
	default:
		p.fail("")
	}
	if p.err == nil {
		ct.Temporary = p.accept("TEMPORARY") || p.accept("TEMP")
		ct.External = p.accept("EXTERNAL")
	}
	p.expect("TABLE")
	if p.err == nil {
		ct.IfNotExists = p.acceptSeq("IF", "NOT", "EXISTS")
	}
	ct.Name = p.tableName("a name")
	if p.err == nil && p.accept("LIKE") {
		ct.Like = p.tableName("a name")
	}
	if p.err == nil && p.is("(") {
		ct.Elements = &tableElements{list: p.tableElements()}
	}
	for p.err == nil {
		cl := p.createClause()
		if cl == nil {
			break
		}
		ct.Clauses = append(ct.Clauses, cl)
	}
	if p.err == nil {
		ct.As = p.asQuery()
	}
	p.end()
	ct.EndPos = lexPos(p.endPos().Offset)
	return ct, p.err
}

// createClause reads one clause of CREATE TABLE (createTableClauses), in any order; nil when
// none starts here.
func (p *rd) createClause() *createClause {
	cl := &createClause{Pos: lexPos(p.tok().off)}
	switch {
	case p.accept("USING"):
		cl.Using = p.tableName("a name")
	case p.accept("OPTIONS"):
		cl.Options = p.propertyList()
	case p.accept("PARTITIONED") || p.accept("PARTITION"):
		if p.expect("BY") {
			cl.Partitioned = p.partFields()
		}
	case p.is("CLUSTERED"):
		cl.Bucket = p.bucketClause()
	case p.is("CLUSTER") && isTok(p.ahead(1), "BY"):
		cl.Cluster = p.clusterBy()
	case p.accept("SKEWED"):
		cl.Skewed = p.skewed()
	case p.acceptSeq("ROW", "FORMAT"):
		cl.RowFormat = p.tableRowFormat()
	case p.accept("STORED"):
		cl.Stored = p.storedAs()
	case p.accept("LOCATION"):
		cl.Location = p.strTok()
	case p.accept("COMMENT"):
		cl.Comment = p.strTok()
	case p.is("COLLATION") || p.is("DEFAULT"):
		if p.accept("DEFAULT") && !p.expect("COLLATION") {
			break
		}
		p.accept("COLLATION")
		if t := p.tok(); t.kind == tIdent || t.kind == tString {
			cl.Collation = p.next().text
		} else {
			p.fail("a name or a string")
		}
	case p.accept("TBLPROPERTIES"):
		cl.Props = p.propertyList()
	default:
		return nil
	}
	cl.EndPos = lexPos(p.endPos().Offset)
	return cl
}

// strTok reads a string literal and returns it as written.
func (p *rd) strTok() *string {
	if p.tok().kind != tString {
		p.fail("a string")
		return nil
	}
	s := p.next().text
	return &s
}

// partFields reads ( field, … ) of PARTITIONED BY: transforms, or columns with an optional
// Hive type and comment.
func (p *rd) partFields() []*partField {
	if !p.expect("(") {
		return nil
	}
	var out []*partField
	for p.err == nil {
		f := &partField{Pos: lexPos(p.tok().off)}
		switch t := p.tok(); {
		case t.kind == tIdent && isTok(p.ahead(1), "("):
			f.Transform = p.transform()
		case isName(t):
			f.Column = p.partCol()
		default:
			p.fail("a column or a transform")
		}
		f.EndPos = lexPos(p.endPos().Offset)
		out = append(out, f)
		if !p.accept(",") {
			p.expect(")")
			break
		}
	}
	return out
}

// transform reads name(arg, …), an argument a number, a string or a dotted name.
func (p *rd) transform() *transform {
	tr := &transform{Pos: lexPos(p.tok().off), Name: p.next().text}
	p.next()
	if !p.accept(")") {
		for p.err == nil {
			a := &transformArg{Pos: lexPos(p.tok().off)}
			switch p.tok().kind {
			case tNumber, tString, tIdent, tQuoted:
				a.Parts = append(a.Parts, p.next().text)
				for p.is(".") && (p.ahead(1).kind == tIdent || p.ahead(1).kind == tQuoted) {
					p.next()
					a.Parts = append(a.Parts, p.next().text)
				}
			default:
				p.fail("")
			}
			a.EndPos = lexPos(p.endPos().Offset)
			tr.Args = append(tr.Args, a)
			if !p.accept(",") {
				p.expect(")")
				break
			}
		}
	}
	tr.EndPos = lexPos(p.endPos().Offset)
	return tr
}

// partCol reads a partition column: name [type] [COMMENT 'text'].
func (p *rd) partCol() *partCol {
	c := &partCol{Name: p.next().text}
	if p.tok().kind == tIdent && !p.is("COMMENT") {
		c.Type = p.dataType()
	}
	if p.err == nil && p.accept("COMMENT") {
		if s := p.strTok(); s != nil {
			c.Comment = *s
		}
	}
	return c
}

// bucketClause reads CLUSTERED BY (cols) [SORTED BY (cols [ASC|DESC])] INTO n BUCKETS.
func (p *rd) bucketClause() *bucketClause {
	b := &bucketClause{Pos: lexPos(p.tok().off), colsOpen: -1, colsClose: -1, countAt: -1}
	p.next()
	p.expect("BY")
	if p.is("(") {
		b.colsOpen = p.tok().end
	}
	b.Columns = p.identList()
	if p.err == nil {
		b.colsClose = p.toks[p.i-1].off
	}
	if p.err == nil && p.acceptSeq("SORTED", "BY") && p.expect("(") {
		for p.err == nil {
			s := &sortCol{Pos: lexPos(p.tok().off)}
			if !isName(p.tok()) {
				p.fail("")
				break
			}
			s.Name = p.next().text
			if p.is("ASC") || p.is("DESC") {
				s.Dir = p.next().text
			}
			b.Sorted = append(b.Sorted, s)
			if !p.accept(",") {
				p.expect(")")
				break
			}
		}
	}
	if p.err == nil && p.expect("INTO") {
		if t := p.tok(); t.kind == tNumber || t.kind == tTemplate {
			b.countAt = t.off
			b.Num = p.next().text
			p.expect("BUCKETS")
		} else {
			p.fail(`(<number> | <template>) "BUCKETS"`) // the grammar's words, which messages keep
		}
	}
	b.EndPos = lexPos(p.endPos().Offset)
	return b
}

// clusterBy reads CLUSTER BY (names) | AUTO | NONE.
func (p *rd) clusterBy() *clusterBy {
	cb := &clusterBy{Pos: lexPos(p.tok().off)}
	p.i += 2
	switch {
	case p.is("AUTO") || p.is("NONE"):
		cb.Mode = p.next().text
	case p.accept("("):
		for p.err == nil {
			cb.Columns = append(cb.Columns, p.tableName("a name"))
			if !p.accept(",") {
				p.expect(")")
				break
			}
		}
	default:
		p.fail(`"(", AUTO or NONE`)
	}
	return cb
}

// skewed reads the rest of SKEWED BY x ON y, … [STORED AS DIRECTORIES], keeping x and the
// ys as tokens.
func (p *rd) skewed() []*skipTok {
	p.expect("BY")
	var out []*skipTok
	one := func() {
		switch t := p.tok(); {
		case isTok(t, "("):
			out = append(out, &skipTok{Group: p.skipGroup()})
		case t.kind == tEOF || isTok(t, ")") || isTok(t, ","):
			p.fail("")
		default:
			out = append(out, &skipTok{Tok: p.next().text})
		}
	}
	if p.err == nil {
		one()
	}
	if p.err == nil && p.expect("ON") {
		for one(); p.err == nil && p.accept(","); {
			one()
		}
	}
	if p.err == nil && p.is("STORED") && isTok(p.ahead(1), "AS") && isTok(p.ahead(2), "DIRECTORIES") {
		p.i += 3
	}
	return out
}

// tableRowFormat reads the rest of ROW FORMAT SERDE 'class' [WITH SERDEPROPERTIES (…)] |
// ROW FORMAT DELIMITED [FIELDS TERMINATED BY '…' [ESCAPED BY '…'] | COLLECTION ITEMS … | MAP
// KEYS … | LINES … | NULL DEFINED AS '…']*.
func (p *rd) tableRowFormat() *rowFormat {
	rf := &rowFormat{}
	switch {
	case p.accept("SERDE"):
		s := &serde{}
		if c := p.strTok(); c != nil {
			s.Class = *c
		}
		if p.err == nil && p.acceptSeq("WITH", "SERDEPROPERTIES") {
			s.Props = p.propertyList()
		}
		rf.Serde = s
	case p.accept("DELIMITED"):
		rf.Delimited = []string{}
		for p.err == nil {
			from := p.i
			switch {
			case p.accept("FIELDS"), p.acceptSeq("COLLECTION", "ITEMS"), p.acceptSeq("MAP", "KEYS"), p.accept("LINES"):
				p.expect("TERMINATED")
				p.expect("BY")
				p.strTok()
				if p.err == nil && p.accept("ESCAPED") {
					p.expect("BY")
					p.strTok()
				}
			case p.accept("NULL"):
				p.expect("DEFINED")
				p.expect("AS")
				p.strTok()
			default:
				if len(rf.Delimited) == 0 {
					rf.Delimited = nil
				}
				return rf
			}
			for _, t := range p.toks[from:p.i] {
				rf.Delimited = append(rf.Delimited, t.text)
			}
		}
	default:
		p.fail("SERDE or DELIMITED")
	}
	return rf
}

// storedAs reads the rest of STORED AS format | STORED AS INPUTFORMAT '…' OUTPUTFORMAT '…' |
// STORED BY 'handler' [WITH SERDEPROPERTIES (…)].
func (p *rd) storedAs() *storedAs {
	s := &storedAs{}
	switch {
	case p.accept("AS"):
		switch {
		case p.accept("INPUTFORMAT"):
			if in := p.strTok(); in != nil {
				s.Input = *in
			}
			p.expect("OUTPUTFORMAT")
			p.strTok()
		case p.tok().kind == tIdent:
			s.Format = p.next().text
		default:
			p.fail("a format or INPUTFORMAT")
		}
	case p.accept("BY"):
		by := &storeBy{}
		if h := p.strTok(); h != nil {
			by.Handler = *h
		}
		if p.err == nil && p.acceptSeq("WITH", "SERDEPROPERTIES") {
			by.Props = p.propertyList()
		}
		s.By = by
	default:
		p.fail("AS or BY")
	}
	return s
}

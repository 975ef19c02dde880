package sql

import "strings"

// Function calls and windows, after SqlBaseParser.g4's functionCall (with WITHIN GROUP,
// FILTER, IGNORE|RESPECT NULLS and OVER), functionArgument and functionTableArgument (named
// arguments, TABLE arguments with their partitioning and order), windowSpec and sortItem.

// funcCall reads name ( args ) [WITHIN GROUP (…)] [FILTER (WHERE …)] [IGNORE|RESPECT NULLS]
// [OVER …].
func (p *rd) funcCall() *funcCall {
	f := &funcCall{Pos: p.pos()}
	f.Name = p.qname()
	f.List = p.argList(f.Name)
	p.checkDatetimeUnit(f.Name, f.List)
	if p.at("WITHIN", "GROUP", "(") {
		if n := upper(f.Name.plain()); n != "PERCENTILE_CONT" && n != "PERCENTILE_DISC" {
			p.use(featWithinGroup, p.tok().off)
		} else {
			p.use(featPercentileWithinGroup, p.tok().off)
		}
		p.i += 2
		from := p.i
		f.Within = p.skipGroup()
		p.trimCollations(p.toks[from:p.i])
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
		p.use(featNullsAfterCall, p.tok().off)
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
			p.use(featNamedArgument, p.tok().off)
			n = p.next().text
			p.next()
		}
		if p.is("TABLE") && (isName(p.ahead(1)) || isTok(p.ahead(1), "(")) {
			table = true
			p.tableArg()
		} else {
			l.Args = append(l.Args, p.expression())
			if n != "" || l.named != nil {
				for len(l.named) < len(l.Args)-1 {
					l.named = append(l.named, "")
				}
				l.named = append(l.named, n)
			}
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
	case p.at("WITH", "SINGLE", "PARTITION"):
		p.use(featTableArgPartition, p.tok().off)
		p.i += 3
	case p.isAny("PARTITION", "DISTRIBUTE") && isTok(p.ahead(1), "BY"):
		p.use(featTableArgPartition, p.tok().off)
		p.i += 2
		p.expressionList()
	}
	if p.isAny("ORDER", "SORT") && isTok(p.ahead(1), "BY") {
		p.use(featTableArgPartition, p.tok().off)
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
	o.Name = p.ident().Name
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

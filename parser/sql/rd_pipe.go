package sql

import "strings"

// The pipe operators, after SqlBaseParser.g4's operatorPipeRightSide: what follows |> in
// a query. Each is kept as a pipeOp, which pipe.go applies to the query before it.

// pipeOp is one |> operator.
type pipeOp struct {
	Pos    pos
	EndPos pos
	// Kind is the operator's keyword, upper case: SELECT, EXTEND, SET, DROP, AS, WHERE,
	// PIVOT, UNPIVOT, TABLESAMPLE, JOIN, UNION (any set operator), ORDER (ORDER BY, LIMIT,
	// OFFSET, …) or AGGREGATE.
	Kind    string
	Quant   string
	Items   []*selectItem
	Group   []*selectItem
	Windows []*namedWindow
	Where   *expr
	Join    *joinPart
	Alias   string
	SetOp   *setOp
	Org     *selectBlock
	Pivot   *pivotClause
}

// pipeOperator reads what follows |> (operatorPipeRightSide).
func (p *rd) pipeOperator() *pipeOp {
	op := &pipeOp{Pos: p.pos()}
	switch {
	case p.is("SELECT"):
		op.Kind = "SELECT"
		p.next()
		for p.tok().kind == tHint {
			p.next()
		}
		if p.isAny("DISTINCT", "ALL") {
			op.Quant = p.next().text
		}
		op.Items = p.selectItems()
		for p.err == nil && p.is("WINDOW") {
			op.Windows = append(op.Windows, p.windows()...)
		}
	case p.is("EXTEND"):
		op.Kind = "EXTEND"
		p.next()
		op.Items = p.selectItems()
	case p.is("SET"), p.is("DROP"):
		op.Kind = upper(p.tok().text)
		p.pipeSetDrop()
	case p.is("AS"):
		op.Kind = "AS"
		p.next()
		op.Alias = p.ident().Name
	case p.is("WHERE"):
		op.Kind = "WHERE"
		p.next()
		op.Where = p.expression()
		if p.is("WINDOW") {
			p.fail("another |> operator: |> WHERE has no WINDOW clause")
		}
	case p.isAny("PIVOT", "UNPIVOT"):
		op.Kind = upper(p.tok().text)
		op.Pivot = p.pivot()
	case p.is("TABLESAMPLE"):
		op.Kind = "TABLESAMPLE"
		p.temporal()
	case p.startsJoin():
		op.Kind = "JOIN"
		op.Join = p.joinPart()
	case p.isAny("UNION", "EXCEPT", "MINUS", "INTERSECT"):
		op.Kind = "UNION"
		op.SetOp = &setOp{Op: p.next().text}
		if p.isAny("ALL", "DISTINCT") {
			op.SetOp.Quant = p.next().text
		}
		op.SetOp.Right = p.queryTerm()
	case p.startsOrganization():
		op.Kind = "ORDER"
		at := p.tok().off
		s := &selectBlock{}
		p.organization(s)
		if (len(s.OrderBy) > 0 || len(s.SortBy) > 0 || len(s.ClusterBy) > 0 || len(s.DistributeBy) > 0) && (s.Limit != nil || s.Offset != nil) {
			p.failAt(at, "one |> operator sorts or limits, not both: write |> ORDER BY … |> LIMIT …")
		}
		op.Org = s
	case p.is("AGGREGATE"):
		op.Kind = "AGGREGATE"
		op.Items, op.Group = p.pipeAggregate()
	default:
		p.fail("a pipe operator")
	}
	op.EndPos = p.endPos()
	return op
}

// pipeSetDrop reads SET column = expr, … or DROP column, ….
func (p *rd) pipeSetDrop() {
	set := p.next().text
	for p.err == nil {
		if strings.EqualFold(set, "SET") {
			p.unqualified(p.qname(), "|> SET")
			p.expect("=")
			p.expression()
		} else if q := p.qname(); len(q.Parts) > 1 {
			p.use(featPipeDropQualified, q.Pos.Offset)
		}
		if !p.accept(",") {
			return
		}
	}
}

// unqualified rejects a qualified column name where a |> operator wants a plain one.
func (p *rd) unqualified(q *qname, op string) {
	if len(q.Parts) > 1 {
		p.failAt(q.Pos.Offset, op+" takes a column name, not the qualified "+strings.Join(q.Parts, "."))
	}
}

// pipeAggregate reads |> AGGREGATE [items] [GROUP BY items] and returns the two lists;
// Spark's pipe aggregation has no GROUP BY ALL, ROLLUP, CUBE or GROUPING SETS, no GROUPING()
// or GROUPING_ID(), no windows, and needs at least one of its two lists.
func (p *rd) pipeAggregate() (items, group []*selectItem) {
	at := p.next().off
	ends := func() bool { return p.tok().kind == tEOF || p.isPipe() || p.is(")") }
	if !p.at("GROUP", "BY") && !ends() {
		items = p.selectItems()
	}
	if !p.at("GROUP", "BY") {
		if len(items) == 0 {
			p.failAt(at, "|> AGGREGATE needs aggregate expressions or GROUP BY")
		}
	} else {
		p.i += 2
		if p.isAny("ALL", "ROLLUP", "CUBE", "GROUPING") {
			p.failAt(p.tok().off, "|> AGGREGATE has no GROUP BY ALL, ROLLUP, CUBE or GROUPING SETS")
			return items, nil
		}
		if !ends() {
			group = p.selectItems()
		}
	}
	for _, it := range items {
		walkFuncs(it.Expr, func(f *funcCall) {
			switch name := upper(f.Name.plain()); {
			case f.Over != nil:
				p.failAt(f.Pos.Offset, "|> AGGREGATE has no window functions")
			case name == "GROUPING" || name == "GROUPING_ID":
				p.failAt(f.Pos.Offset, "|> AGGREGATE has no "+name+"()")
			}
		})
	}
	return items, group
}

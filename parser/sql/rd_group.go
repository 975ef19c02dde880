package sql

// Grouping and windows, after SqlBaseParser.g4's aggregationClause (groupByClause,
// groupingAnalytics, groupingSet, WITH ROLLUP|CUBE, Hive's trailing GROUPING SETS) and
// windowClause (namedWindow); and the test that tells TRANSFORM (…) USING from the function.

// groupBy reads the GROUP BY list: expressions, ROLLUP (…), CUBE (…), GROUPING SETS (…),
// then WITH ROLLUP|CUBE or Hive's trailing GROUPING SETS (…) (aggregationClause). Grouping
// analytics are kept as tokens in Sets.
func (p *rd) groupBy() *groupBy {
	g := &groupBy{}
	start, mixed := p.tok().off, false
	for p.err == nil {
		switch {
		case p.at("GROUPING", "SETS", "("):
			g.Sets = append(g.Sets, p.groupingAnalytics()...)
		default:
			g.Items = append(g.Items, p.expression())
		}
		if !p.accept(",") {
			break
		}
		mixed = true
	}
	if mixed && len(g.Sets) > 0 {
		p.use(featMixedGroupingSets, start)
	}
	switch {
	case p.is("WITH") && (isTok(p.ahead(1), "ROLLUP") || isTok(p.ahead(1), "CUBE")):
		p.next()
		g.With = p.next().text
	case p.at("GROUPING", "SETS", "("):
		g.Sets = append(g.Sets, p.groupingAnalytics()...)
	}
	return g
}

// transformFollows reports whether TRANSFORM (…) at the cursor is a script transform (USING,
// ROW FORMAT or RECORDWRITER after its brackets) rather than the higher-order function.
func (p *rd) transformFollows() bool {
	if !p.at("TRANSFORM", "(") {
		return false
	}
	end := p.matching(p.i + 1)
	if end < 0 {
		return false
	}
	n := p.toks[min(end+1, len(p.toks)-1)]
	return isTok(n, "USING") || isTok(n, "ROW") || isTok(n, "RECORDWRITER")
}

// groupingAnalytics reads ROLLUP (sets), CUBE (sets) or GROUPING SETS (elements), where a
// set is an expression or ( [expr, …] ) and a GROUPING SETS element may itself be ROLLUP,
// CUBE or GROUPING SETS; it returns the tokens read.
func (p *rd) groupingAnalytics() []*innerTok {
	from := p.i
	if !p.enter() {
		return nil
	}
	defer p.leave()
	sets := p.is("GROUPING")
	if sets {
		p.i += 2
	} else {
		p.next()
	}
	p.expect("(")
	for p.err == nil && !p.is(")") {
		switch {
		case sets && (p.at("GROUPING", "SETS", "(") || p.isAny("ROLLUP", "CUBE") && isTok(p.ahead(1), "(")):
			p.groupingAnalytics()
		case p.is("(") && !p.startsQuery():
			p.next()
			if !p.is(")") {
				p.expressionList()
			}
			p.expect(")")
		default:
			p.expression()
		}
		if !p.accept(",") {
			break
		}
	}
	p.expect(")")
	return rawToks(p.toks[from:p.i])
}

// windows reads WINDOW name AS (spec) | name AS name, ….
func (p *rd) windows() []*namedWindow {
	p.next()
	var out []*namedWindow
	seen := map[string]bool{}
	for p.err == nil {
		at := p.tok().off
		w := &namedWindow{Name: p.ident().Name}
		if n := unquoteIdent(w.Name); seen[n] {
			p.use(featWindowTwice, at)
		} else {
			seen[n] = true
		}
		p.expect("AS")
		if p.accept("(") {
			w.Spec = p.windowSpec()
			p.expect(")")
		} else {
			w.Spec = &windowSpec{Pos: p.pos(), Base: p.ident().Name}
			w.Spec.EndPos = p.endPos()
		}
		out = append(out, w)
		if !p.accept(",") {
			break
		}
	}
	return out
}

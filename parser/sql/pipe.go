package sql

// The |> operators as the query they stand for. Spark applies each operator to the result
// of the query before it (operatorPipeRightSide); here each becomes the SELECT block that
// says the same: a |> WHERE, |> JOIN, |> AGGREGATE or |> SELECT over a query of FROM alone
// fills that block's clause (FROM t |> JOIN u ON … |> AGGREGATE count(*) GROUP BY k reads as
// SELECT k, count(*) FROM t JOIN u ON … GROUP BY k), and one over any other query makes the
// query a subquery of a new block. The plan, name resolution, the simulator and the rules
// then see the joins, keys and aggregations of the pipe form as they see its SELECT form.
// |> PIVOT and UNPIVOT apply to the query before them as they do in FROM; SET, DROP and
// TABLESAMPLE keep the rows' relation (their column changes are not modelled).

// applyPipes returns body with ops applied, in order.
func applyPipes(body *setExpr, ops []*pipeOp) *setExpr {
	if t := body.Left; len(body.Ops) == 0 && t != nil && t.Table != nil {
		// TABLE t is FROM t.
		tf := &tableFactor{Pos: t.Pos, EndPos: t.EndPos, Name: t.Table}
		s := &selectBlock{Pos: t.Pos, EndPos: t.EndPos, From: &fromClause{First: &joinChain{Left: tf}}}
		body = &setExpr{Pos: body.Pos, EndPos: body.EndPos, Left: &queryTerm{Pos: t.Pos, EndPos: t.EndPos, Select: s}}
	}
	for _, op := range ops {
		body = applyPipe(body, op)
	}
	if s := pipeBlock(body); s != nil && len(s.Items) == 0 && s.transform == nil {
		// A query of FROM alone returns every column, as SELECT * does.
		s.pipeStar = true
	}
	return body
}

// applyPipe applies one operator.
func applyPipe(body *setExpr, op *pipeOp) *setExpr {
	s := pipeBlock(body)
	switch op.Kind {
	case "WHERE":
		if s == nil || !bare(s) || s.Where != nil {
			s = wrapQuery(body, "")
		}
		s.Where = op.Where
	case "JOIN":
		if s == nil || !bare(s) || s.Where != nil || len(s.From.More) > 0 || len(s.From.Lateral) > 0 || len(s.From.pivot) > 0 {
			s = wrapQuery(body, "")
		}
		s.From.First.Joins = append(s.From.First.Joins, op.Join)
	case "AGGREGATE":
		if s == nil || !bare(s) {
			s = wrapQuery(body, "")
		}
		s.Items = append(append([]*selectItem{}, op.Group...), op.Items...)
		s.GroupBy = groupOf(op.Group)
		s.pipeStar = false
	case "SELECT", "EXTEND":
		if s == nil || !bare(s) {
			s = wrapQuery(body, "")
		}
		s.Items, s.Windows = op.Items, op.Windows
		s.Quant, s.pipeStar = op.Quant, op.Kind == "EXTEND"
	case "AS":
		if s != nil && bare(s) && s.Where == nil && aliasable(s.From) {
			s.From.First.Left.As = op.Alias
		} else {
			s = wrapQuery(body, op.Alias)
		}
	case "ORDER":
		if s == nil || !organizes(s, op.Org) {
			s = wrapQuery(body, "")
		}
		organize(s, op.Org)
	case "PIVOT", "UNPIVOT":
		s = wrapQuery(body, "")
		s.From.First.Left.pivot = []*pivotClause{op.Pivot}
	case "UNION":
		paren := &queryTerm{Pos: body.Pos, EndPos: body.EndPos, Paren: &queryStmt{Pos: body.Pos, EndPos: body.EndPos, Body: body}}
		return &setExpr{Pos: body.Pos, EndPos: op.EndPos, Left: paren, Ops: []*setOp{op.SetOp}}
	default:
		s = wrapQuery(body, "")
	}
	s.EndPos = op.EndPos
	return &setExpr{Pos: s.Pos, EndPos: op.EndPos, Left: &queryTerm{Pos: s.Pos, EndPos: op.EndPos, Select: s}}
}

// pipeBlock returns the SELECT block a query body is made of, nil when it is anything else.
func pipeBlock(body *setExpr) *selectBlock {
	if body != nil && len(body.Ops) == 0 && body.Left != nil && body.Left.Select != nil {
		return body.Left.Select
	}
	return nil
}

// bare reports whether s is a query of FROM alone, with at most a WHERE (and the implied
// select list of an earlier |> operator): a later operator can fill its clauses.
func bare(s *selectBlock) bool {
	return s.From != nil && s.From.First != nil && len(s.Items) == 0 &&
		s.transform == nil && s.GroupBy == nil && s.Having == nil && len(s.Windows) == 0 && s.Qualify == nil &&
		s.Quant == "" && len(s.Hints) == 0 && !hasOrganization(s)
}

// organizes reports whether block s can take the organization o as its own: it does not
// sort, distribute or limit yet, or o only limits what s sorts without limiting.
func organizes(s, o *selectBlock) bool {
	sorts := len(o.OrderBy) > 0 || len(o.ClusterBy) > 0 || len(o.DistributeBy) > 0 || len(o.SortBy) > 0
	return !hasOrganization(s) || !sorts && len(o.Windows) == 0 && s.Limit == nil && s.Offset == nil
}

// organize sets the ORDER BY, CLUSTER BY, DISTRIBUTE BY, SORT BY, WINDOW, LIMIT and OFFSET o
// has on s.
func organize(s, o *selectBlock) {
	if len(o.OrderBy) > 0 {
		s.OrderBy = o.OrderBy
	}
	if len(o.ClusterBy) > 0 {
		s.ClusterBy = o.ClusterBy
	}
	if len(o.DistributeBy) > 0 {
		s.DistributeBy = o.DistributeBy
	}
	if len(o.SortBy) > 0 {
		s.SortBy = o.SortBy
	}
	s.Windows = append(s.Windows, o.Windows...)
	if o.Limit != nil {
		s.Limit = o.Limit
	}
	if o.Offset != nil {
		s.Offset = o.Offset
	}
}

// hasOrganization reports whether s sorts, distributes or limits.
func hasOrganization(s *selectBlock) bool {
	return len(s.OrderBy) > 0 || len(s.ClusterBy) > 0 || len(s.DistributeBy) > 0 || len(s.SortBy) > 0 ||
		s.Limit != nil || s.Offset != nil
}

// aliasable reports whether a FROM clause is one relation without joins or an alias, which a
// |> AS can name.
func aliasable(f *fromClause) bool {
	t := f.First.Left
	return len(f.More) == 0 && len(f.First.Joins) == 0 && len(f.Lateral) == 0 && len(f.pivot) == 0 &&
		t.As == "" && t.Alias == nil && len(t.ColAlias) == 0 && len(t.pivot) == 0
}

// wrapQuery makes the query body the FROM of a new block that selects all its columns, named
// alias when one is given: the next operator applies to the query's result.
func wrapQuery(body *setExpr, alias string) *selectBlock {
	sub := &queryStmt{Pos: body.Pos, EndPos: body.EndPos, Body: body}
	tf := &tableFactor{Pos: body.Pos, EndPos: body.EndPos, Sub: sub, As: alias}
	return &selectBlock{Pos: body.Pos, EndPos: body.EndPos, pipeStar: true, From: &fromClause{First: &joinChain{Left: tf}}}
}

// groupOf is the GROUP BY of |> AGGREGATE … GROUP BY items, nil for none.
func groupOf(items []*selectItem) *groupBy {
	if len(items) == 0 {
		return nil
	}
	g := &groupBy{}
	for _, it := range items {
		g.Items = append(g.Items, it.Expr)
	}
	return g
}

package sql

// The query tree as the parser reads it (rd_query.go, rd_from.go, rd_group.go): Spark's
// query, queryTerm, querySpecification and relation rules, kept to what tells which tables a
// query reads, how they are joined and on which keys, and how each block groups, windows,
// distributes and sorts; the rest (PIVOT, LATERAL VIEW, TRANSFORM) is kept as tokens, and the
// |> operators become the SELECT blocks they stand for (pipe.go). hintBody and hintItem are still a participle grammar (the inside of /*+ … */).

// queryStmt is [WITH …] [INSERT …] query.
type queryStmt struct {
	Pos    pos
	EndPos pos
	With   []*cte
	Insert *insertInto
	Body   *setExpr
	// org is the ORDER BY, LIMIT … of a query that is not a SELECT block (read by rd only);
	// the |> operators that follow a query are applied to Body (pipe.go).
	org []*innerTok
	// uses are the version-dependent constructs of a query read for the DDL grammar.
	uses []featUse
}

// cte is name [(cols)] AS (query).
type cte struct {
	Pos    pos
	EndPos pos
	Name   string
	Cols   []*ident
	Query  *queryStmt
}

// insertInto is INSERT INTO|OVERWRITE [TABLE] name [PARTITION (…)] [(cols)].
type insertInto struct {
	Hints     []string
	Overwrite bool
	Table     *qname
	Partition []*innerTok
	Cols      []*ident
}

// setExpr is term (UNION|INTERSECT|EXCEPT [ALL|DISTINCT] term)*.
type setExpr struct {
	Pos    pos
	EndPos pos
	Left   *queryTerm
	Ops    []*setOp
}

type setOp struct {
	Op    string
	Quant string
	Right *queryTerm
}

// queryTerm is a SELECT block, a parenthesised query, VALUES or TABLE t.
type queryTerm struct {
	Pos    pos
	EndPos pos
	Select *selectBlock
	Paren  *queryStmt
	Values []*innerTok
	Table  *qname
}

// selectBlock is one SELECT … FROM … WHERE … GROUP BY … block with its trailing clauses.
type selectBlock struct {
	Pos          pos
	EndPos       pos
	Hints        []string
	Quant        string
	Items        []*selectItem
	From         *fromClause
	Where        *expr
	GroupBy      *groupBy
	Having       *expr
	Windows      []*namedWindow
	Qualify      *expr
	OrderBy      []*sortItem
	ClusterBy    []*expr
	DistributeBy []*expr
	SortBy       []*sortItem
	Limit        *expr
	Offset       *expr
	// transform is a SELECT TRANSFORM / MAP / REDUCE … USING clause as tokens (read by rd only).
	transform []*innerTok
	// pipeStar is the * a |> operator's block selects before Items (pipe.go).
	pipeStar bool
}

// selectItem is expr [[AS] alias].
type selectItem struct {
	Pos    pos
	EndPos pos
	Expr   *expr
	As     []string
	Alias  *aliasName
}

// groupBy is the GROUP BY list, GROUPING SETS, or GROUP BY ALL.
type groupBy struct {
	Sets  []*innerTok
	Items []*expr
	With  string
}

// namedWindow is name AS (spec) of a WINDOW clause.
type namedWindow struct {
	Name string
	Spec *windowSpec
}

// hintBody is the inside of a /*+ … */ comment: hints separated by commas or blanks.
type hintBody struct {
	Hints []*hintItem `parser:"( @@ ','? )*"`
}

// hintItem is one hint: NAME or NAME(args).
type hintItem struct {
	Name string  `parser:"@Ident"`
	Args []*expr `parser:"( '(' ( @@ ( ',' @@ )* )? ')' )?"`
}

// sortItem is expr [ASC|DESC] [NULLS FIRST|LAST].
type sortItem struct {
	Pos    pos
	EndPos pos
	Expr   *expr
	Dir    string
	Nulls  string
}

// fromClause is a comma list of join chains, then LATERAL VIEWs, PIVOT and UNPIVOT.
type fromClause struct {
	First   *joinChain
	More    []*joinChain
	Lateral []*lateralView
	// pivot holds PIVOT and UNPIVOT clauses (read by rd only).
	pivot []*pivotClause
}

// lateralView is LATERAL VIEW [OUTER] f(…) alias [AS cols].
type lateralView struct {
	Pos    pos
	EndPos pos
	Outer  bool
	Func   *funcCall
	Table  string
	Cols   []*ident
}

// pivotClause is PIVOT (aggregates FOR column IN (values)) [alias] or UNPIVOT …, whose
// parts are not kept.
type pivotClause struct {
	Pos     pos
	EndPos  pos
	Unpivot bool
	Aggs    []*selectItem
	// For are the pivot columns: one name, or a bracketed list.
	For    []*ident
	Values []*selectItem
	// alias holds the clause's alias, if any.
	alias tableFactor
}

// joinChain is relation (join relation [ON|USING])*.
type joinChain struct {
	Left  *tableFactor
	Joins []*joinPart
}

// joinPart is one [NATURAL] [type] JOIN relation [ON cond | USING (cols)].
type joinPart struct {
	Pos     pos
	EndPos  pos
	Natural bool
	Type    []string
	Right   *tableFactor
	On      *expr
	Using   []*ident
}

// tableFactor is a table name, a subquery, a parenthesised join, a table-valued function or
// VALUES, with an optional alias.
type tableFactor struct {
	Pos      pos
	EndPos   pos
	Sub      *queryStmt
	Nested   *fromClause
	Values   []*innerTok
	Func     *funcCall
	Name     *qname
	Temporal []*innerTok
	As       string
	Alias    *aliasName
	ColAlias []*ident
	// lateral is LATERAL before a subquery or function; pivot holds PIVOT and UNPIVOT
	// clauses after the relation, as tokens (read by rd only).
	lateral bool
	pivot   []*pivotClause
}

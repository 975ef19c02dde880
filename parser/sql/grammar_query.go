package sql

import "github.com/alecthomas/participle/v2/lexer"

// The query grammar: enough of Spark's queryTerm / querySpecification / relation rules to
// know which tables a query reads, how they are joined and on which keys, and how each block
// groups, windows, distributes and sorts.

// queryStmt is [WITH …] [INSERT …] query.
type queryStmt struct {
	Pos    lexer.Position
	EndPos lexer.Position
	With   []*cte      `parser:"( 'WITH' 'RECURSIVE'? @@ ( ',' @@ )* )?"`
	Insert *insertInto `parser:"@@?"`
	Body   *setExpr    `parser:"@@"`
	// pipe are the |> operators that follow the query, as tokens; org is the ORDER BY, LIMIT …
	// of a query that is not a SELECT block (read by rd only).
	pipe, org []*innerTok
}

// cte is name [(cols)] AS (query).
type cte struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Name   string     `parser:"@(Ident | Quoted)"`
	Cols   []*ident   `parser:"( '(' @@ ( ',' @@ )* ')' )? 'AS'?"`
	Query  *queryStmt `parser:"'(' @@ ')'"`
}

// insertInto is INSERT INTO|OVERWRITE [TABLE] name [PARTITION (…)] [(cols)].
type insertInto struct {
	Hints     []string    `parser:"'INSERT' @Hint*"`
	Overwrite bool        `parser:"( @'OVERWRITE' | 'INTO' ) 'TABLE'?"`
	Table     *qname      `parser:"@@"`
	Partition []*innerTok `parser:"( 'PARTITION' '(' @@* ')' )? ( 'IF' 'NOT' 'EXISTS' )?"`
	Cols      []*ident    `parser:"( '(' @@ ( ',' @@ )* ')' )?"`
}

// setExpr is term (UNION|INTERSECT|EXCEPT [ALL|DISTINCT] term)*.
type setExpr struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Left   *queryTerm `parser:"@@"`
	Ops    []*setOp   `parser:"@@*"`
}

type setOp struct {
	Op    string     `parser:"@( 'UNION' | 'INTERSECT' | 'EXCEPT' | 'MINUS' )"`
	Quant string     `parser:"@( 'ALL' | 'DISTINCT' )?"`
	Right *queryTerm `parser:"@@"`
}

// queryTerm is a SELECT block, a parenthesised query, VALUES or TABLE t.
type queryTerm struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Select *selectBlock `parser:"  @@"`
	Paren  *queryStmt   `parser:"| '(' @@ ')'"`
	Values []*innerTok  `parser:"| 'VALUES' @@+"`
	Table  *qname       `parser:"| 'TABLE' @@"`
}

// selectBlock is one SELECT … FROM … WHERE … GROUP BY … block with its trailing clauses.
type selectBlock struct {
	Pos          lexer.Position
	EndPos       lexer.Position
	Hints        []string       `parser:"'SELECT' @Hint*"`
	Quant        string         `parser:"@( 'DISTINCT' | 'ALL' )?"`
	Items        []*selectItem  `parser:"@@ ( ',' @@ )*"`
	From         *fromClause    `parser:"( 'FROM' @@ )?"`
	Where        *expr          `parser:"( 'WHERE' @@ )?"`
	GroupBy      *groupBy       `parser:"( 'GROUP' 'BY' @@ )?"`
	Having       *expr          `parser:"( 'HAVING' @@ )?"`
	Windows      []*namedWindow `parser:"( 'WINDOW' @@ ( ',' @@ )* )?"`
	Qualify      *expr          `parser:"( 'QUALIFY' @@ )?"`
	OrderBy      []*sortItem    `parser:"( 'ORDER' 'BY' @@ ( ',' @@ )* )?"`
	ClusterBy    []*expr        `parser:"( 'CLUSTER' 'BY' @@ ( ',' @@ )* )?"`
	DistributeBy []*expr        `parser:"( 'DISTRIBUTE' 'BY' @@ ( ',' @@ )* )?"`
	SortBy       []*sortItem    `parser:"( 'SORT' 'BY' @@ ( ',' @@ )* )?"`
	Limit        *expr          `parser:"( 'LIMIT' @@ )?"`
	Offset       *expr          `parser:"( 'OFFSET' @@ )?"`
	// transform is a SELECT TRANSFORM / MAP / REDUCE … USING clause as tokens (read by rd only).
	transform []*innerTok
}

// selectItem is expr [[AS] alias].
type selectItem struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Expr   *expr      `parser:"@@"`
	As     []string   `parser:"( 'AS' ( @(Ident | Quoted) | '(' @(Ident | Quoted) ( ',' @(Ident | Quoted) )* ')' )"`
	Alias  *aliasName `parser:"| @@ )?"`
}

// groupBy is the GROUP BY list, GROUPING SETS, or GROUP BY ALL.
type groupBy struct {
	Sets  []*innerTok `parser:"( 'GROUPING' 'SETS' '(' @@* ')'"`
	Items []*expr     `parser:"| @@ ( ',' @@ )* )"`
	With  string      `parser:"( 'WITH' @( 'ROLLUP' | 'CUBE' ) )?"`
}

// namedWindow is name AS (spec) of a WINDOW clause.
type namedWindow struct {
	Name string      `parser:"@Ident 'AS'"`
	Spec *windowSpec `parser:"'(' @@ ')'"`
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
	Pos    lexer.Position
	EndPos lexer.Position
	Expr   *expr  `parser:"@@"`
	Dir    string `parser:"@( 'ASC' | 'DESC' )?"`
	Nulls  string `parser:"( 'NULLS' @( 'FIRST' | 'LAST' ) )?"`
}

// fromClause is a comma list of join chains, with LATERAL VIEWs kept as text.
type fromClause struct {
	First   *joinChain     `parser:"@@"`
	More    []*joinChain   `parser:"( ',' @@ )*"`
	Lateral []*lateralView `parser:"@@*"`
	// pivot holds PIVOT and UNPIVOT clauses as tokens (read by rd only).
	pivot []*innerTok
}

// lateralView is LATERAL VIEW [OUTER] f(…) alias [AS cols], skipped.
type lateralView struct {
	Tokens []*innerTok `parser:"'LATERAL' 'VIEW' 'OUTER'? @@ @@ @@? ( 'AS' Ident ( ',' Ident )* )?"`
}

// joinChain is relation (join relation [ON|USING])*.
type joinChain struct {
	Left  *tableFactor `parser:"@@"`
	Joins []*joinPart  `parser:"@@*"`
}

// joinPart is one [NATURAL] [type] JOIN relation [ON cond | USING (cols)].
type joinPart struct {
	Pos     lexer.Position
	EndPos  lexer.Position
	Natural bool         `parser:"@'NATURAL'?"`
	Type    []string     `parser:"( @( 'INNER' | 'CROSS' ) | @( 'LEFT' | 'RIGHT' | 'FULL' ) @( 'OUTER' | 'SEMI' | 'ANTI' )? | @( 'SEMI' | 'ANTI' ) )? 'JOIN'"`
	Right   *tableFactor `parser:"@@"`
	On      *expr        `parser:"( 'ON' @@"`
	Using   []*ident     `parser:"| 'USING' '(' @@ ( ',' @@ )* ')' )?"`
}

// tableFactor is a table name, a subquery, a parenthesised join, a table-valued function or
// VALUES, with an optional alias.
type tableFactor struct {
	Pos      lexer.Position
	EndPos   lexer.Position
	Sub      *queryStmt  `parser:"( '(' (?= 'SELECT' | 'WITH' | 'VALUES' | 'TABLE' | 'FROM' | '(' ) @@ ')'"`
	Nested   *fromClause `parser:"| '(' @@ ')'"`
	Values   []*innerTok `parser:"| 'VALUES' @@ ( ',' @@ )*"`
	Func     *funcCall   `parser:"| (?= ( Ident | Quoted ) ( '.' ( Ident | Quoted ) )* '(' ) @@"`
	Name     *qname      `parser:"| (?! ( 'WHERE' | 'GROUP' | 'ORDER' | 'HAVING' | 'LIMIT' | 'UNION' | 'JOIN' | 'ON' | 'SELECT' ) ) @@ )"`
	Temporal []*innerTok `parser:"( ( 'TABLESAMPLE' | 'VERSION' 'AS' 'OF' | 'TIMESTAMP' 'AS' 'OF' | 'FOR' ( 'SYSTEM_TIME' | 'SYSTEM_VERSION' ) 'AS' 'OF' ) @@ )?"`
	As       string      `parser:"( 'AS' @(Ident | Quoted)"`
	Alias    *aliasName  `parser:"| @@ )?"`
	ColAlias []*ident    `parser:"( '(' @@ ( ',' @@ )* ')' )?"`
	// lateral is LATERAL before a subquery or function; pivot holds PIVOT and UNPIVOT
	// clauses after the relation, as tokens (read by rd only).
	lateral bool
	pivot   []*innerTok
}

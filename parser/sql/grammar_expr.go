package sql

import "github.com/alecthomas/participle/v2/lexer"

// The expression grammar, by precedence: OR, AND, NOT, comparison (=, <=>, IN, BETWEEN, LIKE,
// IS), arithmetic and concatenation (one level: keys need structure, not evaluation), unary
// and postfix (::type, [i], .field), then primaries.

type expr struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Or     []*andExpr `parser:"@@ ( 'OR' @@ )*"`
}

type andExpr struct {
	Pos    lexer.Position
	EndPos lexer.Position
	And    []*cmpExpr `parser:"@@ ( ( 'AND' | '&&' ) @@ )*"`
}

// cmpExpr is [NOT] operand [comparison]; NOT is folded in here to keep the tree shallow.
type cmpExpr struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Not    bool    `parser:"@( 'NOT' | '!' )?"`
	Left   *arith  `parser:"@@"`
	RHS    *cmpRHS `parser:"@@?"`
}

// cmpRHS is the right-hand side of a comparison or predicate.
type cmpRHS struct {
	Op      string    `parser:"  @( '=' | '==' | '<=>' | '<>' | '!=' | '<=' | '>=' | '<' | '>' )"`
	Right   *arith    `parser:"  @@"`
	Is      *isPred   `parser:"| 'IS' @@"`
	Not     bool      `parser:"| @'NOT'?"`
	In      *inList   `parser:"  ( 'IN' @@"`
	Between *between  `parser:"  | 'BETWEEN' @@"`
	Like    *likePred `parser:"  | @@ )"`
}

type isPred struct {
	Not   bool   `parser:"@'NOT'?"`
	What  string `parser:"( @( 'NULL' | 'TRUE' | 'FALSE' | 'UNKNOWN' )"`
	Other *arith `parser:"| 'DISTINCT' 'FROM' @@ )"`
}

type inList struct {
	Query *queryStmt `parser:"'(' ( (?= 'SELECT' | 'WITH' | 'VALUES' | 'TABLE' | 'FROM' ) @@"`
	Items []*expr    `parser:"| @@ ( ',' @@ )* ) ')'"`
}

type between struct {
	Low  *arith `parser:"@@ 'AND'"`
	High *arith `parser:"@@"`
}

type likePred struct {
	Op      string `parser:"@( 'LIKE' | 'RLIKE' | 'ILIKE' | 'REGEXP' )"`
	Quant   string `parser:"@( 'ANY' | 'ALL' | 'SOME' )?"`
	Pattern *arith `parser:"@@ ( 'ESCAPE' String )?"`
}

type arith struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Left   *unary     `parser:"@@"`
	Rest   []*arithOp `parser:"@@*"`
}

type arithOp struct {
	Op    string `parser:"@( '+' | '-' | '*' | '/' | '%' | '||' | '&' | '|' | '^' | 'DIV' )"`
	Right *unary `parser:"@@"`
}

type unary struct {
	Pos     lexer.Position
	EndPos  lexer.Position
	Sign    []*sign    `parser:"@@*"`
	Primary *primary   `parser:"@@"`
	Postfix []*postfix `parser:"@@*"`
}

// sign is one prefix operator of an operand.
type sign struct {
	Pos lexer.Position
	Op  string `parser:"@( '-' | '+' | '~' )"`
}

// postfix is ::type, [index] or .field after an operand; EndPos ends the operand so far.
type postfix struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Cast   *dataType `parser:"  '::' @@"`
	Index  *expr     `parser:"| '[' @@ ']'"`
	Field  string    `parser:"| '.' @(Ident | Quoted)"`
	// collate is the collation of a COLLATE postfix (read by rd only).
	collate string
}

// primary is an operand: a cast, CASE, EXISTS, a subquery, a tuple, a literal, a function
// call, a column reference, * or a template.
type primary struct {
	Pos      lexer.Position
	EndPos   lexer.Position
	Lambda   *lambda    `parser:"  (?= ( Ident | '(' Ident ( ',' Ident )* ')' ) '->' ) @@"`
	Cast     *castExpr  `parser:"| @@"`
	Case     *caseExpr  `parser:"| @@"`
	Exists   *queryStmt `parser:"| 'EXISTS' '(' @@ ')'"`
	Interval []string   `parser:"| 'INTERVAL' @( ( String | Number ) ( 'YEAR' | 'YEARS' | 'MONTH' | 'MONTHS' | 'WEEK' | 'WEEKS' | 'DAY' | 'DAYS' | 'HOUR' | 'HOURS' | 'MINUTE' | 'MINUTES' | 'SECOND' | 'SECONDS' | 'MILLISECOND' | 'MILLISECONDS' | 'MICROSECOND' | 'MICROSECONDS' )? ( 'TO' Ident )? )+"`
	Typed    []string   `parser:"| @( 'DATE' | 'TIMESTAMP' | 'TIMESTAMP_NTZ' | 'TIMESTAMP_LTZ' | 'X' ) @String"`
	Sub      *queryStmt `parser:"| '(' (?= 'SELECT' | 'WITH' | 'VALUES' | 'TABLE' | 'FROM' ) @@ ')'"`
	Tuple    []*expr    `parser:"| '(' @@ ( ',' @@ )* ')'"`
	Number   string     `parser:"| @Number"`
	Str      []string   `parser:"| @String+"`
	Star     bool       `parser:"| @'*'"`
	Func     *funcCall  `parser:"| (?= ( Ident | Quoted ) ( '.' ( Ident | Quoted ) )* '(' ) @@"`
	Column   *qname     `parser:"| @@"`
	AllCols  bool       `parser:"  ( '.' @'*' )?"`
	Param    string     `parser:"| @( '?' | ':' Ident )"`
	// except are the columns of * EXCEPT (…) (read by rd only).
	except []*innerTok
}

// lambda is x -> expr or (x, y) -> expr, an argument of a higher-order function.
type lambda struct {
	Params []*lambdaParam `parser:"( @@ | '(' @@ ( ',' @@ )* ')' ) '->'"`
	Body   *expr          `parser:"@@"`
}

// lambdaParam is one parameter of a lambda.
type lambdaParam struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Name   string `parser:"@Ident"`
}

type castExpr struct {
	Fn   string    `parser:"@( 'CAST' | 'TRY_CAST' ) '('"`
	X    *expr     `parser:"@@ 'AS'"`
	Type *dataType `parser:"@@ ')'"`
}

type caseExpr struct {
	Subject *expr       `parser:"'CASE' ( (?! 'WHEN' ) @@ )?"`
	Whens   []*whenThen `parser:"@@+"`
	Else    *expr       `parser:"( 'ELSE' @@ )? 'END'"`
}

type whenThen struct {
	When *expr `parser:"'WHEN' @@"`
	Then *expr `parser:"'THEN' @@"`
}

// funcCall is name([DISTINCT] args) [FILTER (WHERE …)] [IGNORE NULLS] [OVER (…) | OVER w].
type funcCall struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Name   *qname      `parser:"@@"`
	List   *argList    `parser:"@@"`
	Filter *filter     `parser:"@@?"`
	Nulls  string      `parser:"( @( 'IGNORE' | 'RESPECT' ) 'NULLS' )?"`
	Within []*innerTok `parser:"( 'WITHIN' 'GROUP' '(' @@* ')' )?"`
	Over   *over       `parser:"( 'OVER' @@ )?"`
}

// filter is an aggregate's FILTER (WHERE cond).
type filter struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Cond   *expr `parser:"'FILTER' '(' 'WHERE' @@ ')'"`
}

// argList is a call's parenthesised arguments: ([DISTINCT|ALL] args), (*), or tokens that are
// not expressions (extract(year FROM d)). Its EndPos ends the call before FILTER or OVER.
type argList struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Quant  string      `parser:"'(' @( 'DISTINCT' | 'ALL' )?"`
	Star   *star       `parser:"( @@ ')'"`
	Args   []*expr     `parser:"| ( @@ ( ',' @@ )* )? ')'"`
	Raw    []*innerTok `parser:"| @@* ')' )"`
	// named are the names of name => value arguments, "" for positional ones (read by rd only).
	named []string
}

// star is the * of f(*).
type star struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Star   bool `parser:"@'*'"`
}

// over is OVER (spec) or OVER name.
type over struct {
	Spec *windowSpec `parser:"  '(' @@ ')'"`
	Name string      `parser:"| @Ident"`
}

// windowSpec is [base] [PARTITION BY …] [ORDER BY …] [frame].
type windowSpec struct {
	Pos       lexer.Position
	EndPos    lexer.Position
	Base      string      `parser:"( (?! ( 'PARTITION' | 'DISTRIBUTE' | 'ORDER' | 'SORT' | 'ROWS' | 'RANGE' ) ) @Ident )?"`
	Partition []*expr     `parser:"( ( 'PARTITION' | 'DISTRIBUTE' ) 'BY' @@ ( ',' @@ )* )?"`
	Order     []*sortItem `parser:"( ( 'ORDER' | 'SORT' ) 'BY' @@ ( ',' @@ )* )?"`
	FrameKind string      `parser:"( @( 'ROWS' | 'RANGE' )"`
	Frame     []*innerTok `parser:"  @@* )?"`
}

package sql

import (
	"github.com/alecthomas/participle/v2/lexer"

	"github.com/bucketlint/bucketlint/plan"
)

// The expression tree as the parser reads it, by precedence: OR, AND, NOT, comparison (=, <=>,
// IN, BETWEEN, LIKE, IS), arithmetic, concatenation, shifts and bitwise operators (one flat
// chain: trees.arith applies the precedence), unary and postfix (::type, [i], .field,
// COLLATE), then primaries. The hand-written parser (rd_expr.go, rd_primary.go) fills these
// structs, with Pos the offset of a node's first token and EndPos the end of its last; *expr
// is also how the participle DDL grammar reaches an expression (rd_bridge.go).

// A pos is an offset in a statement's text. The structs the hand-written parser fills carry
// a pos (one word) where participle's carry a lexer.Position (five: file, offset, line,
// column), of which only the offset is read; every operand has seven such structs.
type pos struct{ Offset int }

// lpos is the pos of a participle position.
func lpos(p lexer.Position) pos { return pos{Offset: p.Offset} }

type expr struct {
	Pos    pos
	EndPos pos
	Or     []*andExpr
	// built is its tree once trees converted it (nil before).
	built *plan.X
}

type andExpr struct {
	Pos    pos
	EndPos pos
	And    []*cmpExpr
}

// cmpExpr is [NOT] operand [comparison]; NOT is folded in here to keep the tree shallow.
type cmpExpr struct {
	Pos    pos
	EndPos pos
	Not    bool
	Left   *arith
	RHS    *cmpRHS
	built  *plan.X
}

// cmpRHS is the right-hand side of a comparison or predicate.
type cmpRHS struct {
	Op      string
	Right   *arith
	Is      *isPred
	Not     bool
	In      *inList
	Between *between
	Like    *likePred
}

type isPred struct {
	Not   bool
	What  string
	Other *arith
}

type inList struct {
	Query *queryStmt
	Items []*expr
}

type between struct {
	Low  *arith
	High *arith
}

type likePred struct {
	Op      string
	Quant   string
	Pattern *arith
}

type arith struct {
	Pos    pos
	EndPos pos
	Left   *unary
	Rest   []*arithOp
	built  *plan.X
}

type arithOp struct {
	Op    string
	Right *unary
}

type unary struct {
	Pos     pos
	EndPos  pos
	Sign    []*sign
	Primary *primary
	Postfix []*postfix
}

// sign is one prefix operator of an operand.
type sign struct {
	Pos pos
	Op  string
}

// postfix is ::type, [index] or .field after an operand; EndPos ends the operand so far.
type postfix struct {
	Pos    pos
	EndPos pos
	Cast   *dataType
	Index  *expr
	Field  string
	// collate is the collation of a COLLATE postfix (read by rd only).
	collate string
}

// primary is an operand: a cast, CASE, EXISTS, a subquery, a tuple, a literal, a function
// call, a column reference, * or a template.
type primary struct {
	Pos      pos
	EndPos   pos
	Lambda   *lambda
	Cast     *castExpr
	Case     *caseExpr
	Exists   *queryStmt
	Interval []string
	Typed    []string
	Sub      *queryStmt
	Tuple    []*expr
	Number   string
	Str      []string
	Star     bool
	Func     *funcCall
	Column   *qname
	AllCols  bool
	Param    string
	// except are the columns of * EXCEPT (…) (read by rd only).
	except []*innerTok
}

// lambda is x -> expr or (x, y) -> expr, an argument of a higher-order function.
type lambda struct {
	Params []*lambdaParam
	Body   *expr
}

// lambdaParam is one parameter of a lambda.
type lambdaParam struct {
	Pos    pos
	EndPos pos
	Name   string
}

type castExpr struct {
	Fn   string
	X    *expr
	Type *dataType
}

type caseExpr struct {
	Subject *expr
	Whens   []*whenThen
	Else    *expr
}

type whenThen struct {
	When *expr
	Then *expr
}

// funcCall is name([DISTINCT] args) [FILTER (WHERE …)] [IGNORE NULLS] [OVER (…) | OVER w].
type funcCall struct {
	Pos    pos
	EndPos pos
	Name   *qname
	List   *argList
	Filter *filter
	Nulls  string
	Within []*innerTok
	Over   *over
	built  *plan.X
}

// filter is an aggregate's FILTER (WHERE cond).
type filter struct {
	Pos    pos
	EndPos pos
	Cond   *expr
}

// argList is a call's parenthesised arguments: ([DISTINCT|ALL] args), (*), or tokens that are
// not expressions (extract(year FROM d)). Its EndPos ends the call before FILTER or OVER.
type argList struct {
	Pos    pos
	EndPos pos
	Quant  string
	Star   *star
	Args   []*expr
	Raw    []*innerTok
	// named are the names of name => value arguments, "" for positional ones, from the first
	// named one (nil when none is named; read by rd only).
	named []string
}

// star is the * of f(*).
type star struct {
	Pos    pos
	EndPos pos
	Star   bool
}

// over is OVER (spec) or OVER name.
type over struct {
	Spec *windowSpec
	Name string
}

// windowSpec is [base] [PARTITION BY …] [ORDER BY …] [frame].
type windowSpec struct {
	Pos       pos
	EndPos    pos
	Base      string
	Partition []*expr
	Order     []*sortItem
	FrameKind string
	Frame     []*innerTok
}

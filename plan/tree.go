package plan

import "strings"

// An Op says what kind of node an expression tree node is.
type Op uint8

// The expression node kinds. Parsers build trees of these from SQL (parser/sql) and from
// what Spark prints in explain output (parser/explain); no package outside parser/ reads
// expression text.
const (
	// OpOther is an expression that is not modelled; Raw keeps its text and Args its
	// sub-expressions where they could be told apart. Name says which form it is where the
	// parser knows: "subquery", "exists", "tuple" ((a, b)), "subscript" (a[i]), "field"
	// (f(x).f), "lambda" (Args: the parameters, then the body), "lambdavar" (a lambda's
	// parameter used in its body), "over" (Args[0] a windowed call, then the PARTITION BY
	// and ORDER BY expressions (OpOrder nodes), and from explain text the frame, a
	// specifiedwindowframe call), "filter" (Args[0] an aggregate call, Args[1] its FILTER
	// condition), "param" (? or :name), "template" ({{ … }}), "like any" / "like all" …,
	// a function's name when its arguments are not expressions (extract(year FROM d)), or
	// "deep" for a sub-tree cut off because it nests deeper than a parser keeps.
	OpOther Op = iota
	// OpColumn is a column reference: Name is the column, Qualifier what qualified it as
	// written, ID the expression id Spark printed (explain only), Relation the relation it
	// resolves to once resolved.
	OpColumn
	// OpLiteral is a literal: Value is its value as text (a string literal unquoted and
	// unescaped), Type its Spark type ("int", "bigint", "string", "decimal(3,1)", "boolean",
	// "date", "timestamp", "null" for NULL).
	OpLiteral
	// OpCast is CAST(Args[0] AS Type) (also try_cast, and the shorthands Spark prints such
	// as cast(x as bigint)); Name is "cast" or "try_cast".
	OpCast
	// OpCall is a function call: Name is the function name in lower case, Args the arguments,
	// Distinct set for f(DISTINCT …), Star for f(*).
	OpCall
	// OpBinary is a binary operator: Name is the operator in lower case ("and", "or", "=",
	// "<=>", "!=", "<", "<=", ">", ">=", "+", "-", "*", "/", "%", "div", "||", "&", "|",
	// "^", "<<", ">>", ">>>", "like", "rlike", "ilike"); Args are the two operands.
	OpBinary
	// OpUnary is a unary operator: Name is "not", "-", "+", "~", "isnull", "isnotnull"
	// (IS NULL and IS NOT NULL), "istrue", "isfalse"…; Args[0] is the operand.
	OpUnary
	// OpIn is Args[0] IN (Args[1:]…); Negated for NOT IN.
	OpIn
	// OpBetween is Args[0] BETWEEN Args[1] AND Args[2]; Negated for NOT BETWEEN.
	OpBetween
	// OpCase is CASE [Args[0] when Operand] WHEN … THEN … [ELSE …] END: Args holds the
	// operand (when Operand is set), then when/then pairs, then the else value (when Else is
	// set).
	OpCase
	// OpStar is * or q.* in a select list; Qualifier holds q.
	OpStar
	// OpAlias is Args[0] AS Name, as Spark prints a named expression ("x#1 AS y#2"): Name is
	// the alias (lower case), ID and Long the attribute it defines (explain only).
	OpAlias
	// OpOrder is a sort key inside an expression ("k#1 ASC NULLS FIRST" in a window
	// specification): Name is "asc" or "desc", Value "nulls first" or "nulls last" when
	// printed, Args[0] the key.
	OpOrder
)

// String names the kind: "column", "call" ….
func (o Op) String() string {
	names := [...]string{
		"other", "column", "literal", "cast", "call", "binary", "unary", "in",
		"between", "case", "star", "alias", "order",
	}
	if int(o) < len(names) {
		return names[o]
	}
	return "op?"
}

// An X is one node of an expression tree. The zero value is an OpOther with no text.
type X struct {
	Op Op
	// Name is the column name (OpColumn, lower case as Spark's analyzer compares it), the
	// function name (OpCall, OpCast, lower case) or the operator (OpBinary, OpUnary).
	Name string
	// Qualifier is the qualifier of a column or star as written, lower case, parts joined by
	// "." ("o", "db.orders"), empty when none.
	Qualifier string
	// ID is the expression id Spark printed for a column (explain only: "12" of name#12,
	// "x" in normalised output); Long is the L suffix of bigint attributes.
	ID   string
	Long bool
	// Relation is the relation the column resolves to (its alias or table name in scope),
	// set by name resolution; Table is that relation's table when it is a table scan.
	Relation string
	Table    string
	// Value and Type describe a literal; Type is also the target type of a cast, canonical
	// (see CanonicalType).
	Value string
	Type  string
	// Args are the sub-expressions, in order.
	Args []*X
	// Distinct, Star, Negated, Operand and Else qualify calls, IN/BETWEEN and CASE.
	Distinct, Star, Negated, Operand, Else bool
	// Raw is the expression as written or printed, kept for printing.
	Raw string
	// Span is the expression's extent in its file, zero when unknown (explain text).
	Span Span
}

// Walk calls f on x and then on each sub-expression, depth first, while f returns true.
func (x *X) Walk(f func(*X) bool) {
	if x == nil || !f(x) {
		return
	}
	for _, a := range x.Args {
		a.Walk(f)
	}
}

// Columns returns the column references under x, in order of appearance.
func (x *X) Columns() []*X {
	var out []*X
	x.Walk(func(n *X) bool {
		if n.Op == OpColumn {
			out = append(out, n)
		}
		return true
	})
	return out
}

// Conjuncts splits x at top-level ANDs: "a AND (b AND c)" is [a, b, c]. A nil x has none.
func (x *X) Conjuncts() []*X {
	if x == nil {
		return nil
	}
	if x.Op == OpBinary && x.Name == "and" && len(x.Args) == 2 {
		return append(x.Args[0].Conjuncts(), x.Args[1].Conjuncts()...)
	}
	return []*X{x}
}

// Uncast returns the expression under any casts: the column of cast(k as bigint).
func (x *X) Uncast() *X {
	for x != nil && x.Op == OpCast && len(x.Args) == 1 {
		x = x.Args[0]
	}
	return x
}

// IsColumn reports whether x is a column reference, possibly under casts.
func (x *X) IsColumn() bool {
	u := x.Uncast()
	return u != nil && u.Op == OpColumn
}

// CanonicalType returns a Spark SQL type name in the form Spark's analyzer gives it: lower
// case, no spaces, aliases folded ("integer" and "int" are "int", "long" is "bigint", "short"
// is "smallint", "byte" is "tinyint", "real" is "float", "dec"/"numeric"/"decimal" without
// arguments is "decimal(10,0)", "bool" is "boolean"), recursively inside array<…>, map<…>
// and struct<…>. A type it does not know is returned lower case without spaces.
func CanonicalType(t string) string {
	t = strings.ToLower(strings.Join(strings.Fields(t), " "))
	if t == "" {
		return ""
	}
	if i := strings.IndexByte(t, '<'); i > 0 && strings.HasSuffix(t, ">") {
		return canonicalNested(t[:i], t[i+1:len(t)-1])
	}
	if i := strings.IndexByte(t, '('); i > 0 && strings.HasSuffix(t, ")") {
		base := strings.TrimSpace(t[:i])
		args := strings.ReplaceAll(t[i:], " ", "")
		switch base {
		case "dec", "numeric", "decimal":
			if !strings.Contains(args, ",") {
				args = strings.TrimSuffix(args, ")") + ",0)"
			}
			return "decimal" + args
		}
		return base + args
	}
	if c, ok := typeAlias(t); ok {
		return c
	}
	return strings.ReplaceAll(t, " ", "")
}

// typeAlias returns the canonical name of a type without arguments.
func typeAlias(t string) (string, bool) {
	switch t {
	case "int", "integer":
		return "int", true
	case "long", "bigint":
		return "bigint", true
	case "short", "smallint":
		return "smallint", true
	case "byte", "tinyint":
		return "tinyint", true
	case "real", "float":
		return "float", true
	case "dec", "numeric", "decimal":
		return "decimal(10,0)", true
	case "bool", "boolean":
		return "boolean", true
	case "timestamp", "timestamp_ltz":
		return "timestamp", true
	case "null", "void":
		return "void", true
	}
	return "", false
}

// canonicalNested canonicalises the element types of array<…>, map<…> and struct<…>.
func canonicalNested(base, inner string) string {
	parts := SplitTypeList(inner)
	for i, p := range parts {
		p = strings.TrimSpace(p)
		if base == "struct" {
			if j := strings.IndexAny(p, ": "); j > 0 {
				name, typ := strings.TrimSpace(p[:j]), strings.TrimLeft(p[j:], ": ")
				parts[i] = name + ":" + CanonicalType(typ)
				continue
			}
		}
		parts[i] = CanonicalType(p)
	}
	return base + "<" + strings.Join(parts, ",") + ">"
}

// SplitTypeList splits a comma-separated list of Spark types or column definitions
// ("int,decimal(10,2)", "k bigint, m map<string,int>") at the commas outside parentheses and
// angle brackets. The parts keep their spaces.
func SplitTypeList(s string) []string {
	var parts []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '<', '(':
			depth++
		case '>', ')':
			depth--
		case ',':
			if depth == 0 {
				parts = append(parts, s[start:i])
				start = i + 1
			}
		}
	}
	return append(parts, s[start:])
}

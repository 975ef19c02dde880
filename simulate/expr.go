package simulate

import (
	"strconv"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// An attr is one output column of an operator: its name as the query refers to it, the
// relation (alias) it comes from, its Spark type and the expression that produces it. Two
// attrs are the same Spark attribute when their expressions' Raw texts are equal (Raw carries
// the expression id, as Spark's semantic equality compares ids).
type attr struct {
	name     string
	relation string
	typ      string
	expr     plan.Expr
}

// ids hands out expression ids, as Spark's NamedExpression.newExprId does, per simulation.
type ids struct{ next int }

func (g *ids) newAttr(name, relation, typ string) attr {
	g.next++
	id := strconv.Itoa(g.next)
	long := typ == "bigint"
	raw := name + "#" + id
	if long {
		raw += "L"
	}
	return attr{name: name, relation: relation, typ: typ, expr: plan.NewExpr(raw, name, []plan.Attr{{Name: name, ID: id, Long: long}}, &plan.X{Op: plan.OpColumn, Name: strings.ToLower(name), ID: id, Long: long, Raw: raw})}
}

// sameExpr is Spark's semanticEquals for the expressions the model builds.
func sameExpr(a, b plan.Expr) bool { return a.Raw == b.Raw }

func containsExpr(es []plan.Expr, e plan.Expr) bool {
	for _, x := range es {
		if sameExpr(x, e) {
			return true
		}
	}
	return false
}

func sameExprs(a, b []plan.Expr) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !sameExpr(a[i], b[i]) {
			return false
		}
	}
	return true
}

// castExpr wraps e in a cast to typ, as Spark's type coercion does for join keys of different
// numeric types (a cast key is a different expression: it never matches a bucket column).
func castExpr(e plan.Expr, typ string) plan.Expr {
	raw := "cast(" + e.Raw + " as " + typ + ")"
	var x *plan.X
	if ex := e.Tree(); ex != nil {
		x = &plan.X{Op: plan.OpCast, Name: "cast", Type: plan.CanonicalType(typ), Args: []*plan.X{ex}, Raw: raw}
	}
	return plan.NewExpr(raw, "cast("+e.Text()+" as "+typ+")", e.Refs(), x)
}

// renamed is e shown under an alias: the same attribute for partitioning purposes (Spark's
// AliasAwareOutputPartitioning maps a child's partitioning through aliases), shown by its new
// name.
func renamed(e plan.Expr, name string) plan.Expr {
	if e.Text() == name {
		return e
	}
	return plan.NewExpr(e.Raw, name, e.Refs(), e.Tree())
}

func exprsText(es []plan.Expr) string { return strings.Join(plan.Texts(es), ", ") }

func ascending(es []plan.Expr) []plan.SortOrder {
	out := make([]plan.SortOrder, len(es))
	for i, e := range es {
		out[i] = plan.SortOrder{Expr: e, NullsFirst: true}
	}
	return out
}

// TypeRank orders numeric types for join-key coercion (TypeCoercion's findWiderTypeForTwo):
// the narrower key is cast to the wider type. It is 0 for a type that is not numeric.
func TypeRank(t string) int {
	switch t {
	case "tinyint":
		return 1
	case "smallint":
		return 2
	case "int":
		return 3
	case "bigint":
		return 4
	case "float":
		return 5
	case "double":
		return 6
	}
	return 0
}

// defaultSize is DataType.defaultSize, the per-row width Spark's size estimate uses.
func defaultSize(t string) int64 {
	switch {
	case t == "boolean", t == "tinyint":
		return 1
	case t == "smallint":
		return 2
	case t == "int", t == "date", t == "float":
		return 4
	case t == "bigint", t == "double", t == "timestamp", t == "timestamp_ntz":
		return 8
	case strings.HasPrefix(t, "decimal"):
		return 16
	}
	return 20
}

package code

import (
	"strconv"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// keyX is the tree of a key colRef read from n: the column (under its cast) when c is one,
// a literal for lit(v) and number literals, else an OpOther keeping the code's text.
func (ev *evaluator) keyX(n *node, c plan.ColumnRef) *plan.X {
	span := func(m *node) plan.Span { return plan.Span{Start: ev.src.pos(m.off), End: ev.src.pos(m.end)} }
	if c.Column != "" {
		inner := unwrapKey(n)
		x := &plan.X{Op: plan.OpColumn, Name: c.Column, Qualifier: strings.ToLower(c.Qualifier), Raw: ev.text(inner), Span: span(inner)}
		if c.Cast != "" {
			x = &plan.X{Op: plan.OpCast, Name: "cast", Type: c.Cast, Args: []*plan.X{x}}
		}
		if x.Raw != c.Text || x.Op == plan.OpCast {
			x.Raw, x.Span = c.Text, span(n)
		}
		return x
	}
	if v, typ, ok := ev.literal(n); ok {
		return &plan.X{Op: plan.OpLiteral, Value: v, Type: typ, Raw: c.Text, Span: span(n)}
	}
	return &plan.X{Op: plan.OpOther, Raw: c.Text, Span: span(n)}
}

// unwrapKey returns the column expression under .cast(…), .alias(…), .asc() and the like.
func unwrapKey(n *node) *node {
	for d := 0; d < 8 && n.kind == nCall && n.x.kind == nAttr && !isFunctions(n.x.x); d++ {
		switch n.x.name {
		case "cast", "astype", "desc", "desc_nulls_first", "desc_nulls_last", "alias", "as",
			"name", "asc", "asc_nulls_first", "asc_nulls_last":
			n = n.x.x
			continue
		}
		break
	}
	return n
}

// literal reads lit(v) and typedLit(v) of a constant, and a number: its value and Spark type
// (a Python or Scala int is an int when it fits, else a bigint; a float is a double).
func (ev *evaluator) literal(n *node) (string, string, bool) {
	if n.kind == nCall && len(n.args) == 1 {
		fn := ""
		switch n.x.kind {
		case nIdent:
			fn = n.x.name
		case nAttr:
			if isFunctions(n.x.x) {
				fn = n.x.name
			}
		}
		if fn == "lit" || fn == "typedLit" {
			n = n.args[0].val
		}
	}
	switch n.kind {
	case nStr:
		if s, ok := n.lit.constant(); ok {
			return s, "string", true
		}
	case nNum:
		return numberLiteral(ev.text(n))
	}
	return "", "", false
}

// numberLiteral types a Python or Scala number: 12 int, 12L and ints beyond 32 bits bigint,
// 1.5 and 1e3 double, 1.5f float.
func numberLiteral(s string) (string, string, bool) {
	s = strings.ReplaceAll(s, "_", "")
	low := strings.ToLower(s)
	switch {
	case strings.HasSuffix(low, "l"):
		return s[:len(s)-1], "bigint", true
	case strings.HasSuffix(low, "f") && !strings.HasPrefix(low, "0x"):
		return s[:len(s)-1], "float", true
	case strings.HasSuffix(low, "d") && !strings.HasPrefix(low, "0x"):
		return s[:len(s)-1], "double", true
	case strings.ContainsAny(low, ".e") && !strings.HasPrefix(low, "0x"):
		return s, "double", true
	}
	v, err := strconv.ParseInt(s, 0, 64)
	switch {
	case err != nil:
		return "", "", false
	case v >= -1<<31 && v < 1<<31:
		return s, "int", true
	}
	return s, "bigint", true
}

// castType returns the SQL type a cast's argument names: a type string ("int", "decimal(10,2)")
// or a DataType value (IntegerType(), T.LongType(), DecimalType(10, 2), Scala's IntegerType),
// canonical. Any other argument (a variable) is kept as written, lower case: the key is cast,
// to a type not known.
func (ev *evaluator) castType(a *node) string {
	if t := ev.dataType(a); t != "" {
		return t
	}
	return plan.CanonicalType(ev.strValueOf(a))
}

// dataType returns the canonical SQL type of a type string or DataType value, "" when a is
// neither.
func (ev *evaluator) dataType(a *node) string {
	if v := ev.eval(a); v.kind == vStr && v.resolved {
		return plan.CanonicalType(v.str)
	}
	t := a
	var args []string
	if t.kind == nCall {
		for _, x := range t.args {
			args = append(args, strings.TrimSpace(ev.text(x.val)))
		}
		t = t.x
	}
	name := t.name
	if t.kind != nIdent && t.kind != nAttr {
		return ""
	}
	base, ok := dataTypes(strings.TrimSuffix(name, "Type"))
	if !ok || !strings.HasSuffix(name, "Type") {
		return ""
	}
	if base == "decimal" && len(args) > 0 {
		return plan.CanonicalType("decimal(" + strings.Join(args, ",") + ")")
	}
	return plan.CanonicalType(base)
}

// dataTypes maps the name of a Spark DataType class, without "Type", to its SQL name.
func dataTypes(name string) (string, bool) {
	switch name {
	case "Byte":
		return "tinyint", true
	case "Short":
		return "smallint", true
	case "Integer":
		return "int", true
	case "Long":
		return "bigint", true
	case "Float", "Double", "String", "Boolean", "Date", "Timestamp", "Binary", "Decimal":
		return strings.ToLower(name), true
	case "TimestampNTZ":
		return "timestamp_ntz", true
	}
	return "", false
}

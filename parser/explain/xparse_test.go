package explain

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/bucketlint/bucketlint/plan"
)

// dumpX prints a tree compactly: op, then what the op keeps, then the arguments.
func dumpX(x *plan.X) string {
	if x == nil {
		return "<nil>"
	}
	var b strings.Builder
	b.WriteString(x.Op.String())
	switch x.Op {
	case plan.OpColumn:
		b.WriteString(" ")
		if x.Qualifier != "" {
			b.WriteString(x.Qualifier + ".")
		}
		b.WriteString(x.Name)
		if x.ID != "" {
			b.WriteString("#" + x.ID)
		}
		if x.Long {
			b.WriteString("L")
		}
	case plan.OpLiteral:
		fmt.Fprintf(&b, " %q", x.Value)
		if x.Type != "" {
			b.WriteString(":" + x.Type)
		}
	case plan.OpOther:
		if x.Name != "" {
			b.WriteString(" " + x.Name)
		} else {
			fmt.Fprintf(&b, " %q", x.Raw)
		}
	case plan.OpCast:
		b.WriteString(" " + x.Name + " " + x.Type)
	case plan.OpAlias:
		b.WriteString(" " + x.Name + "#" + x.ID)
	case plan.OpOrder:
		b.WriteString(" " + x.Name)
		if x.Value != "" {
			b.WriteString(" " + x.Value)
		}
	default:
		if x.Name != "" {
			b.WriteString(" " + x.Name)
		}
	}
	for _, f := range []struct {
		on   bool
		name string
	}{{x.Distinct, "distinct"}, {x.Star, "star"}, {x.Negated, "negated"}, {x.Operand, "operand"}, {x.Else, "else"}} {
		if f.on {
			b.WriteString(" " + f.name)
		}
	}
	if len(x.Args) > 0 {
		b.WriteString("(")
		for i, a := range x.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(dumpX(a))
		}
		b.WriteString(")")
	}
	return b.String()
}

// TestParseExprForms reads the forms Spark prints, and the SQL forms of conditions, into
// trees.
func TestParseExprForms(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		// Spark's printed forms: attributes carry ids, literals are printed without quotes.
		{"k#1", "column k#1"},
		{"amount#12L", "column amount#12L"},
		{"K#x", "column k#x"},
		{"isnotnull(k#1)", "unary isnotnull(column k#1)"},
		{"isnull(k#1)", "unary isnull(column k#1)"},
		{"((isnotnull(d#8) AND (d#8 = 6)) OR NOT isnull(e#7))", `binary or(binary and(unary isnotnull(column d#8), binary =(column d#8, literal "6")), unary not(unary isnull(column e#7)))`},
		{"(ca_country#15 = United States)", `binary =(column ca_country#15, literal "United States")`},
		{"(d_day_name#1 = Sunday   )", `binary =(column d_day_name#1, literal "Sunday   ")`},
		{"(d_date#5 >= 2000-01-01)", `binary >=(column d_date#5, literal "2000-01-01")`},
		{"(t#5 < 2000-01-01 12:00:00)", `binary <(column t#5, literal "2000-01-01 12:00:00")`},
		{"(k#1 <=> v#2)", "binary <=>(column k#1, column v#2)"},
		{"(a#1 <> 3)", `binary !=(column a#1, literal "3")`},
		{"((a#1 + b#2) * -1)", `binary *(binary +(column a#1, column b#2), literal "-1")`},
		{"(k#1 % 4)", `binary %(column k#1, literal "4")`},
		{"-k#1", "unary -(column k#1)"},
		{"cast(k#1 as bigint)", "cast cast bigint(column k#1)"},
		{"cast(k#1 AS DECIMAL(20, 2))", "cast cast decimal(20,2)(column k#1)"},
		{"try_cast(s#1 as int)", "cast try_cast int(column s#1)"},
		{"ansi_cast(s#1 as integer)", "cast cast int(column s#1)"},
		{"k#3 IN (1,2,3)", `in(column k#3, literal "1", literal "2", literal "3")`},
		{"NOT k#3 IN (1,2,null)", `unary not(in(column k#3, literal "1", literal "2", literal "null":null))`},
		{"d#24 INSET 1212, 1213", `in(column d#24, literal "1212", literal "1213")`},
		{"d#24 INSET (1212,1213)", `in(column d#24, literal "1212", literal "1213")`},
		{"s#1 IN (United States,Canada)", `in(column s#1, literal "United States", literal "Canada")`},
		{"NOT o#4 LIKE %special%requests%", `unary not(binary like(column o#4, literal "%special%requests%"))`},
		{"CASE WHEN (d#1 = Sunday) THEN p#2 ELSE 0 END", `case else(binary =(column d#1, literal "Sunday"), column p#2, literal "0")`},
		{"CASE k#1 WHEN 1 THEN a END", `case operand(column k#1, literal "1", literal "a")`},
		{"coalesce(k#1, 0)", `call coalesce(column k#1, literal "0")`},
		{"pmod(hash(k#1, 42), 200)", `call pmod(call hash(column k#1, literal "42"), literal "200")`},
		{"knownfloatingpointnormalized(normalizenanandzero(d#3))", "call knownfloatingpointnormalized(call normalizenanandzero(column d#3))"},
		{"count(1)", `call count(literal "1":int)`},
		{"count(distinct a#1)", "call count distinct(column a#1)"},
		{"partial_sum(UnscaledValue(v#2))", "call partial_sum(call unscaledvalue(column v#2))"},
		{"sum(v#2)#7L", "column sum(v)#7L"},
		{"count(1)#48", "column count(1)#48"},
		{"sum(v#2) AS total#9L", "alias total#9(call sum(column v#2))"},
		{"x#1 AS y#2", "alias y#2(column x#1)"},
		{"1 AS one#5", `alias one#5(literal "1")`},
		{"Sunday AS d#5", `alias d#5(literal "Sunday")`},
		{"k#1 ASC NULLS FIRST", "order asc nulls first(column k#1)"},
		{"k#1 DESC NULLS LAST", "order desc nulls last(column k#1)"},
		{"k#1 DESC", "order desc(column k#1)"},
		{
			"rank(v#19) windowspecdefinition(k#22, v#19 ASC NULLS FIRST, specifiedwindowframe(RowFrame, unboundedpreceding$(), currentrow$())) AS r#73",
			`alias r#73(other over(call rank(column v#19), column k#22, order asc nulls first(column v#19), call specifiedwindowframe(literal "RowFrame", call unboundedpreceding$, call currentrow$)))`,
		},
		{
			"partial_count(k#1) FILTER (WHERE (v#2 > 1))",
			`other filter(call partial_count(column k#1), binary >(column v#2, literal "1"))`,
		},
		{"specifiedwindowframe(RowFrame, -1, 1)", `call specifiedwindowframe(column rowframe, literal "-1":int, literal "1":int)`}, // no ids: SQL
		{"(k#1 = 5L)", `binary =(column k#1, literal "5":bigint)`},
		{"(k#1 = 1.50BD)", `binary =(column k#1, literal "1.50":decimal(3,2))`},
		{"(k#1 = 1.5D)", `binary =(column k#1, literal "1.5":double)`},
		{"(k#1 = 2Y)", `binary =(column k#1, literal "2":tinyint)`},
		{"(k#1 = 3S)", `binary =(column k#1, literal "3":smallint)`},
		{"(b#1 = true)", `binary =(column b#1, literal "true":boolean)`},
		{"(s#1 = 'it''s')", `binary =(column s#1, literal "it's":string)`},
		{"coalesce(s#909.size, -1)", `call coalesce(other field(column s#909), literal "-1")`},
		{"a#1[0]", `other subscript(column a#1, literal "0")`},
		{strings.Repeat("(", 300) + "k#1" + strings.Repeat(")", 300), `other deep`},
		// What cannot be read is kept as text, at the innermost bracket.
		{"dynamicpruningexpression(d#5 IN dynamicpruning#7)", `call dynamicpruningexpression(other "d#5 IN dynamicpruning#7")`},
		{"(d#16 > d#23 + 5 days)", `other "(d#16 > d#23 + 5 days)"`},
		{"f(k#1, (k#1 +), 2)", `call f(column k#1, other "(k#1 +)", literal "2")`},
		{"f(k#1", `other "f(k#1"`},
		// SQL forms: bare words are columns, strings are quoted, literals typed by the parser.
		{"k", "column k"},
		{"o.K", "column o.k"},
		{"db.t.k", "column db.t.k"},
		{"`my col` = 1", "binary =(column my col, literal \"1\":int)"},
		{"a.*", "star"},
		{"x IS NOT NULL", "unary isnotnull(column x)"},
		{"x IS NULL OR k = 1", `binary or(unary isnull(column x), binary =(column k, literal "1":int))`},
		{"x BETWEEN 3 AND 7", `between(column x, literal "3":int, literal "7":int)`},
		{"x NOT BETWEEN 3 AND 7 AND k > 4", `binary and(between negated(column x, literal "3":int, literal "7":int), binary >(column k, literal "4":int))`},
		{"x NOT IN (1, 2) AND k > 4", `binary and(in negated(column x, literal "1":int, literal "2":int), binary >(column k, literal "4":int))`},
		{"NOT x = 1", `unary not(binary =(column x, literal "1":int))`},
		{"a = 'v1' OR a = \"v2\"", `binary or(binary =(column a, literal "v1":string), binary =(column a, literal "v2":string))`},
		{"d = DATE '2024-06-30'", `binary =(column d, literal "2024-06-30":date)`},
		{"t < TIMESTAMP '2024-06-30 12:00:00'", `binary <(column t, literal "2024-06-30 12:00:00":timestamp)`},
		{"k = 3000000000", `binary =(column k, literal "3000000000":bigint)`},
		{"k = 12.50", `binary =(column k, literal "12.50":decimal(4,2))`},
		{"k = 1e3", `binary =(column k, literal "1e3":double)`},
		{"a + b * c", "binary +(column a, binary *(column b, column c))"},
		{"a - b - c", "binary -(binary -(column a, column b), column c)"},
		{"a || b", "binary ||(column a, column b)"},
		{"a IS NOT DISTINCT FROM b", "binary <=>(column a, column b)"},
		{"count(*)", "call count star"},
		{"SUM(o.amount)", "call sum(column o.amount)"},
		{"k = ", `other "k ="`},
		{"(SELECT max(k) FROM t)", `other "(SELECT max(k) FROM t)"`},
	} {
		if got := dumpX(ParseExpr(c.in).Tree()); got != c.want {
			t.Errorf("ParseExpr(%q)\n got %s\nwant %s", c.in, got, c.want)
		}
	}
}

// treeDepth is the length of the longest path of x; it counts nodes without recursing, so
// that a wrong tree cannot overflow the test's stack.
func treeDepth(x *plan.X) (depth, nodes int) {
	type at struct {
		x *plan.X
		d int
	}
	stack := []at{{x, 1}}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n.x == nil {
			continue
		}
		nodes++
		depth = max(depth, n.d)
		for _, a := range n.x.Args {
			stack = append(stack, at{a, n.d + 1})
		}
	}
	return depth, nodes
}

// maxTreeDepth bounds any tree's depth: the parser's limit and the few nodes an item adds
// around its expression (alias, sort order, window).
const maxTreeDepth = maxXDepth + 4

// TestParseExprDeep: nesting past the limit is kept as text, in time linear in the input.
func TestParseExprDeep(t *testing.T) {
	t.Parallel()
	const n = 200_000
	for name, in := range map[string]string{
		"parentheses":           strings.Repeat("(", n) + "k#1" + strings.Repeat(")", n),
		"open parentheses":      strings.Repeat("(", n),
		"calls":                 strings.Repeat("f(", n) + "k" + strings.Repeat(")", n),
		"negations":             strings.Repeat("NOT ", n) + "k",
		"minus signs":           strings.Repeat("- ", n) + "k",
		"operator chain":        "k" + strings.Repeat(" + k", n),
		"indexes":               "a#1" + strings.Repeat("[0]", n),
		"fields":                "a#1" + strings.Repeat(".f", n),
		"ids":                   strings.Repeat("a)#1", n/4),
		"unclosed quotes":       "f(k#1, " + strings.Repeat("'a, ", n/4) + ")",
		"unclosed quotes sql":   "f(" + strings.Repeat("'a, \"", n/5) + ")",
		"failing arguments":     "f(" + strings.Repeat("k +, ", n/5) + ")",
		"case":                  strings.Repeat("CASE WHEN ", n/2) + "k",
		"unquoted literal":      "(k#1 = " + strings.Repeat("a ", n) + ")",
		"aliases":               "k#1" + strings.Repeat(" AS a", n),
		"windows":               "f()" + strings.Repeat(" windowspecdefinition(k)", n/10),
		"between":               "k" + strings.Repeat(" BETWEEN k AND k", n/10),
		"in lists":              "k" + strings.Repeat(" IN (k)", n/5),
		"nested in parentheses": strings.Repeat("(k#1 + ", n/4) + "1" + strings.Repeat(")", n/4),
	} {
		t.Run(strings.ReplaceAll(name, " ", "_"), func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			x := ParseExpr(in).Tree()
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("took %v", d)
			}
			if d, _ := treeDepth(x); d > maxTreeDepth {
				t.Errorf("tree depth %d over %d", d, maxTreeDepth)
			}
		})
	}
}

// FuzzParseExpr feeds ParseExpr arbitrary text: it must not panic, the tree's depth is
// bounded, Walk terminates, and every node keeps text from the input.
func FuzzParseExpr(f *testing.F) {
	for _, s := range []string{
		"((isnotnull(d#8) AND (d#8 = 6)) OR NOT isnull(e#7))", "(ca_country#15 = United States)",
		"rank(v#19) windowspecdefinition(k#22, v#19 ASC NULLS FIRST, specifiedwindowframe(RowFrame, unboundedpreceding$(), currentrow$())) AS r#73",
		"cast(k#1 as decimal(20,2))", "d#24 INSET 1212, 1213", "CASE WHEN (d#1 = Sunday) THEN p#2 ELSE 0 END",
		"x NOT BETWEEN 3 AND 7 AND k > 4", "a IN ('v1', 'it''s')", "sum(v#2)#7L", "a#1[0].f", "count(distinct a#1)",
		"`my col` = DATE '2024-06-30'", "(k#1 = 1.50BD)", "f(k#1, (k#1 +), 2)", "(", "'", "x IN (", "CASE", "k#",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e := ParseExpr(s)
		if e.Tree() == nil {
			t.Fatal("no tree")
		}
		d, nodes := treeDepth(e.Tree())
		if d > maxTreeDepth {
			t.Fatalf("tree depth %d over %d", d, maxTreeDepth)
		}
		walked := 0
		e.Tree().Walk(func(*plan.X) bool { walked++; return true })
		if walked != nodes {
			t.Fatalf("Walk visited %d nodes of %d", walked, nodes)
		}
		e.Tree().Walk(func(x *plan.X) bool {
			if x.Op == plan.OpOther && !strings.Contains(s, x.Raw) {
				t.Fatalf("OpOther text %q is not in the input", x.Raw)
			}
			return true
		})
	})
}

// exprsOf collects every plan.Expr held by an operator (its fields, lists and nested
// structs such as Aggregate and Partitioning).
func exprsOf(v reflect.Value, out *[]plan.Expr) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			exprsOf(v.Elem(), out)
		}
	case reflect.Struct:
		if e, ok := v.Interface().(plan.Expr); ok {
			*out = append(*out, e)
			return
		}
		for i := range v.NumField() {
			if f := v.Type().Field(i); f.IsExported() && f.Name != "Kids" && f.Name != "Reused" {
				exprsOf(v.Field(i), out)
			}
		}
	case reflect.Slice:
		for i := range v.Len() {
			exprsOf(v.Index(i), out)
		}
	}
}

// TestCorpusExprTrees: every expression of the corpus's plans has a tree, and all but a few
// (bound references such as input[0, int, true], aggregate FILTER clauses, intervals,
// subqueries printed inside expressions) are read beyond their text.
func TestCorpusExprTrees(t *testing.T) {
	t.Parallel()
	root := corpusRoot(t)
	if root == "" {
		t.Skip("corpus not found: set BUCKETLINT_CORPUS or check out ../shared/corpus")
	}
	var all []plan.Expr
	for _, f := range corpusFiles(t, root) {
		es, _ := Parse(f.rel, f.src)
		for _, e := range es {
			for _, s := range e.Plans {
				plan.WalkAll(s.Root, func(n plan.Node) bool {
					exprsOf(reflect.ValueOf(n), &all)
					return true
				})
			}
		}
	}
	other := 0
	for _, e := range all {
		if e.Tree() == nil {
			t.Fatalf("no tree for %q", e.Raw)
		}
		if e.Tree().Op == plan.OpOther {
			other++
		}
	}
	t.Logf("%d expressions, %d kept as text", len(all), other)
	if len(all) == 0 || other*100 > len(all) {
		t.Errorf("%d of %d expressions kept as text, want under 1%%", other, len(all))
	}
}

package verify

import (
	"regexp"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// widening matches a key that Spark casts to a wider integer type, as it casts an int join
// key to meet a bigint one: cast(account_id as bigint).
var widening = regexp.MustCompile(`(?i)^cast\(\s*([A-Za-z_][A-Za-z0-9_]*)\s+as\s+(bigint|int|smallint)\s*\)$`)

// uncast rewrites the keys of a plan that are widening integer casts of a column into the
// column itself and returns the columns and the types they were cast to. The engine
// evaluates column references only; the caller writes those columns with the wider type
// (the values are unchanged by the cast), so the Exchange hashes them exactly as Spark
// hashes the cast value. The plan's own tables are not changed beyond what the cast did.
func uncast(root plan.Node) map[string]string {
	casts := map[string]string{}
	fix := func(es []plan.Expr) {
		for i, e := range es {
			m := widening.FindStringSubmatch(e.Text)
			if m == nil || len(e.Refs) != 1 || !strings.EqualFold(e.Refs[0].Name, m[1]) {
				continue
			}
			a := e.Refs[0]
			casts[strings.ToLower(a.Name)] = strings.ToLower(m[2])
			es[i] = plan.Expr{Raw: a.String(), Text: a.Name, Refs: []plan.Attr{a}}
		}
	}
	fixOrders := func(os []plan.SortOrder) {
		for i := range os {
			one := []plan.Expr{os[i].Expr}
			fix(one)
			os[i].Expr = one[0]
		}
	}
	plan.WalkAll(root, func(n plan.Node) bool {
		switch x := n.(type) {
		case *plan.Exchange:
			fix(x.Partitioning.Keys)
			fixOrders(x.Partitioning.Orders)
		case *plan.Sort:
			fixOrders(x.Orders)
		case *plan.Filter:
			x.Condition = unqualify(x.Condition)
		case *plan.FileScan:
			for _, fs := range [][]string{x.PartitionFilters, x.DataFilters, x.PushedFilters} {
				for i, f := range fs {
					fs[i] = unqualify(plan.Expr{Raw: f, Text: f}).Raw
				}
			}
		case *plan.ProjectExec:
			unqualifyAll(x.Exprs)
		}
		if a, ok := plan.AggregateOf(n); ok {
			unqualifyAll(a.Keys)
			unqualifyAll(a.Functions)
		}
		if j, ok := plan.JoinOf(n); ok {
			fix(j.LeftKeys)
			fix(j.RightKeys)
		}
		return true
	})
	return casts
}

// widen returns t with the columns of casts that are narrower integers in t given the cast
// type, or t itself when none is.
func widen(t *plan.Table, casts map[string]string) *plan.Table {
	var cp *plan.Table
	for i, c := range t.Columns {
		to, ok := casts[strings.ToLower(c.Name)]
		if !ok || c.Type == to || rank(c.Type) == 0 || rank(c.Type) >= rank(to) {
			continue
		}
		if cp == nil {
			v := *t
			v.Columns = append([]plan.Column(nil), t.Columns...)
			cp = &v
		}
		cp.Columns[i].Type = to
	}
	if cp == nil {
		return t
	}
	return cp
}

func rank(typ string) int {
	switch strings.ToLower(typ) {
	case "tinyint", "byte":
		return 1
	case "smallint", "short":
		return 2
	case "int", "integer":
		return 3
	case "bigint", "long":
		return 4
	}
	return 0
}

// qualified matches a column reference written with its table alias, t.amount, outside
// string literals (which unqualify skips).
var qualified = regexp.MustCompile(`\b[A-Za-z_][A-Za-z0-9_]*\.([A-Za-z_][A-Za-z0-9_]*)\b`)

// unqualify removes table aliases from the column references of an expression the
// simulator printed as the query wrote it ("a.status <> 'CLOSED'"): Spark's plans print
// bare attribute names, which is what the engine resolves.
func unqualify(e plan.Expr) plan.Expr {
	strip := func(s string) string {
		var b strings.Builder
		for i, part := range strings.Split(s, "'") {
			if i > 0 {
				b.WriteByte('\'')
			}
			if i%2 == 1 {
				b.WriteString(part)
				continue
			}
			b.WriteString(qualified.ReplaceAllString(part, "$1"))
		}
		return b.String()
	}
	e.Raw, e.Text = strip(typedLiteral.ReplaceAllString(e.Raw, "'")), strip(typedLiteral.ReplaceAllString(e.Text, "'"))
	for i := range e.Refs {
		if _, name, ok := strings.Cut(e.Refs[i].Name, "."); ok {
			e.Refs[i].Name = name
		}
	}
	return e
}

func unqualifyAll(es []plan.Expr) {
	for i := range es {
		es[i] = unqualify(es[i])
	}
}

package sql

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/bucketlint/bucketlint/plan"
)

// sexpr prints a tree compactly for comparison: columns as q.name, literals as value:type,
// every other node as (head args…).
func sexpr(x *plan.X) string {
	if x == nil {
		return "<nil>"
	}
	var head string
	switch x.Op {
	case plan.OpColumn:
		if x.Qualifier != "" {
			return x.Qualifier + "." + x.Name
		}
		return x.Name
	case plan.OpLiteral:
		return x.Value + ":" + x.Type
	case plan.OpStar:
		if x.Qualifier != "" {
			return x.Qualifier + ".*"
		}
		return "*"
	case plan.OpCast:
		head = x.Name + ":" + x.Type
	case plan.OpCall:
		head = x.Name
		if x.Distinct {
			head += " distinct"
		}
		if x.Star {
			head += " *"
		}
	case plan.OpIn, plan.OpBetween:
		head = x.Op.String()
		if x.Negated {
			head = "not" + head
		}
	case plan.OpOrder:
		head = x.Name
		if x.Value != "" {
			head += " " + x.Value
		}
	case plan.OpCase:
		head = "case"
		if x.Operand {
			head += " operand"
		}
		if x.Else {
			head += " else"
		}
	case plan.OpOther:
		head = "other:" + x.Name
		if len(x.Args) == 0 {
			return head
		}
	default:
		head = x.Name
	}
	parts := []string{head}
	for _, a := range x.Args {
		parts = append(parts, sexpr(a))
	}
	return "(" + strings.Join(parts, " ") + ")"
}

// TestTrees checks the tree of every expression form of the grammar, built from a select
// item, and that each node's text is the source at its span.
func TestTrees(t *testing.T) {
	t.Parallel()
	p, err := New()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ expr, want string }{
		// columns, stars, literals
		{"k", "k"},
		{"O.K", "o.k"},
		{"db.t.`Odd Col`", "db.t.odd col"},
		{"*", "*"},
		{"o.*", "o.*"},
		{"42", "42:int"},
		{"-42", "-42:int"},
		{"3000000000", "3000000000:bigint"},
		{"99999999999999999999", "99999999999999999999:decimal(20,0)"},
		{"10L", "10:bigint"},
		{"2S", "2:smallint"},
		{"1Y", "1:tinyint"},
		{"1.5D", "1.5:double"},
		{"1.5F", "1.5:float"},
		{"1.50", "1.50:decimal(3,2)"},
		{"0.05", "0.05:decimal(2,2)"},
		{"1.5BD", "1.5:decimal(2,1)"},
		{"1e3", "1e3:double"},
		{"'it''s'", "it's:string"},
		{`'a' "b"`, "ab:string"},
		{"NULL", ":null"},
		{"true", "true:boolean"},
		{"DATE '2024-01-31'", "2024-01-31:date"},
		{"TIMESTAMP '2024-01-31 10:00:00'", "2024-01-31 10:00:00:timestamp"},
		{"TIMESTAMP_LTZ '2024-01-31'", "2024-01-31:timestamp"},
		{"X'0A'", "0A:binary"},
		{"INTERVAL '1' DAY", "'1' DAY:interval"},
		// casts
		{"CAST(k AS INTEGER)", "(cast:int k)"},
		{"try_cast(k AS long)", "(try_cast:bigint k)"},
		{"k::decimal", "(cast:decimal(10,0) k)"},
		{"CAST(k AS array<Integer>)", "(cast:array<int> k)"},
		// calls
		{"count(*)", "(count *)"},
		{"count(DISTINCT a, b)", "(count distinct a b)"},
		{"coalesce(a, 0)", "(coalesce a 0:int)"},
		{"db.f(x)", "(db.f x)"},
		{"now()", "(now)"},
		{"extract(year FROM d)", "other:extract"},
		{"sum(v) FILTER (WHERE v > 0)", "(other:filter (sum v) (> v 0:int))"},
		{"sum(v) OVER (PARTITION BY k ORDER BY t DESC NULLS FIRST, u)", "(other:over (sum v) k (desc nulls first t) (asc u))"},
		{"rank() OVER w", "(other:over (rank))"},
		{"transform(xs, x -> x + k)", "(transform xs (other:lambda other:lambdavar (+ other:lambdavar k)))"},
		{"aggregate(xs, 0, (acc, x) -> acc + x)", "(aggregate xs 0:int (other:lambda other:lambdavar other:lambdavar (+ other:lambdavar other:lambdavar)))"},
		// operators
		{"a + b * c", "(+ a (* b c))"},
		{"a * b + c", "(+ (* a b) c)"},
		{"a - b - c", "(- (- a b) c)"},
		{"(a + b) * c", "(* (+ a b) c)"},
		{"a || b", "(|| a b)"},
		{"a DIV 2", "(div a 2:int)"},
		{"a | b & c ^ d", "(| a (^ (& b c) d))"},
		{"-k", "(- k)"},
		{"- -k", "(- (- k))"},
		{"~k", "(~ k)"},
		{"-5::bigint", "(cast:bigint -5:int)"},
		{"-k::bigint", "(- (cast:bigint k))"},
		{"a = b", "(= a b)"},
		{"a == b", "(= a b)"},
		{"a <> b", "(!= a b)"},
		{"a <=> b", "(<=> a b)"},
		{"a >= 1 AND b < 2 OR c", "(or (and (>= a 1:int) (< b 2:int)) c)"},
		{"a AND b AND c AND d", "(and (and a b) (and c d))"},
		{"NOT a = b", "(not (= a b))"},
		{"a IS NULL", "(isnull a)"},
		{"a IS NOT NULL", "(isnotnull a)"},
		{"a IS NOT TRUE", "(isnottrue a)"},
		{"a IS DISTINCT FROM b", "(not (<=> a b))"},
		{"a IS NOT DISTINCT FROM b", "(<=> a b)"},
		{"a IN (1, 2)", "(in a 1:int 2:int)"},
		{"a NOT IN (1)", "(notin a 1:int)"},
		{"a IN (SELECT k FROM u)", "(in a other:subquery)"},
		{"a BETWEEN 1 AND 5", "(between a 1:int 5:int)"},
		{"a NOT BETWEEN 1 AND 5", "(notbetween a 1:int 5:int)"},
		{"s LIKE 'x%'", "(like s x%:string)"},
		{"s NOT RLIKE 'x'", "(not (rlike s x:string))"},
		{"s REGEXP 'x'", "(rlike s x:string)"},
		{"s ILIKE ANY ('a', 'b')", "(other:ilike any s (other:tuple a:string b:string))"},
		// other forms
		{"CASE WHEN a THEN 1 ELSE 2 END", "(case else a 1:int 2:int)"},
		{"CASE k WHEN 1 THEN 'x' END", "(case operand k 1:int x:string)"},
		{"EXISTS (SELECT 1 FROM u)", "other:exists"},
		{"(SELECT max(k) FROM u)", "other:subquery"},
		{"(a, b)", "(other:tuple a b)"},
		{"m['k']", "(other:subscript m k:string)"},
		{"f(x).y", "(other:field (f x))"},
		{"?", "other:param"},
		{"{{ var('x') }}", "other:template"},
	} {
		t.Run(c.expr, func(t *testing.T) {
			src := "SELECT " + c.expr + " FROM t"
			f, errs := p.ParseFile("f.sql", []byte(src))
			if len(errs) > 0 || len(f.Queries) != 1 {
				t.Fatalf("parse: %v", errs)
			}
			sel := f.Queries[0].Root.Select
			if len(sel.ItemsX) != 1 {
				t.Fatalf("ItemsX = %v", sel.ItemsX)
			}
			x := sel.ItemsX[0]
			if got := sexpr(x); got != c.want {
				t.Errorf("tree = %s, want %s", got, c.want)
			}
			if x.Raw != c.expr {
				t.Errorf("Raw = %q, want %q", x.Raw, c.expr)
			}
			checkSpans(t, src, x)
		})
	}
}

// checkSpans checks that every node of x with a span has the source between its bounds as
// its text.
func checkSpans(t *testing.T, src string, x *plan.X) {
	t.Helper()
	lines := strings.SplitAfter(src, "\n")
	offset := func(p plan.Pos) int {
		n := 0
		for i := 0; i < p.Line-1 && i < len(lines); i++ {
			n += len(lines[i])
		}
		return n + p.Col - 1
	}
	x.Walk(func(n *plan.X) bool {
		if !n.Span.Start.IsValid() {
			t.Errorf("%s: no span", sexpr(n))
			return true
		}
		from, to := offset(n.Span.Start), offset(n.Span.End)
		if from < 0 || to > len(src) || from > to || strings.TrimSpace(src[from:to]) != n.Raw {
			t.Errorf("%s: span %v-%v is not its text %q", sexpr(n), n.Span.Start, n.Span.End, n.Raw)
		}
		return true
	})
}

// TestTreeParts checks the trees beside the printed text: aliases, WHERE, HAVING, ON and its
// residual, keys, filter values, window arguments and partitioning hints.
func TestTreeParts(t *testing.T) {
	t.Parallel()
	p, err := New()
	if err != nil {
		t.Fatal(err)
	}
	src := `SELECT /*+ REPARTITION(8, o.k), BROADCAST(c) */ o.k AS key, sum(o.v) total,
  row_number() OVER (PARTITION BY o.k ORDER BY o.v) rn, lag(o.v, 1) OVER (ORDER BY o.k) prev
FROM orders o JOIN customers c ON o.c = CAST(c.id AS bigint) AND o.v > 1
WHERE o.k IN (1, 2) AND o.d = DATE '2024-01-01'
GROUP BY o.k
HAVING sum(o.v) > 10`
	f, errs := p.ParseFile("f.sql", []byte(src))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	sel := f.Queries[0].Root.Select
	j := sel.From.Join
	got := map[string]string{
		"aliases":   strings.Join(sel.ItemAliases, ","),
		"items":     sexprs(sel.ItemsX),
		"where":     sexpr(sel.WhereX),
		"having":    sexpr(sel.HavingX),
		"on":        sexpr(j.ConditionX),
		"residual":  sexprs(j.ResidualX),
		"leftKey":   sexpr(j.LeftKeys[0].X),
		"rightKey":  sexpr(j.RightKeys[0].X),
		"groupKey":  sexpr(sel.GroupBy[0].X),
		"filters":   sexprs(sel.Filters[0].ValuesX) + " " + sexprs(sel.Filters[1].ValuesX),
		"window":    sexprs(sel.Windows[0].ArgsX) + " " + sexpr(sel.Windows[0].PartitionBy[0].X),
		"hints":     sexprs(sel.Hints[0].ArgsX) + " " + sexprs(sel.Hints[1].ArgsX),
		"windowArg": sexprs(sel.Windows[1].ArgsX),
	}
	want := map[string]string{
		"aliases":   "key,total,rn,prev",
		"items":     "o.k (sum o.v) (other:over (row_number) o.k (asc o.v)) (other:over (lag o.v 1:int) (asc o.k))",
		"where":     "(and (in o.k 1:int 2:int) (= o.d 2024-01-01:date))",
		"having":    "(> (sum o.v) 10:int)",
		"on":        "(and (= o.c (cast:bigint c.id)) (> o.v 1:int))",
		"residual":  "(> o.v 1:int)",
		"leftKey":   "o.c",
		"rightKey":  "(cast:bigint c.id)",
		"groupKey":  "o.k",
		"filters":   "1:int 2:int 2024-01-01:date",
		"window":    " o.k",
		"hints":     "8:int o.k ",
		"windowArg": "o.v 1:int",
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s = %q, want %q", k, got[k], w)
		}
	}
	if sel.WhereX.Args[0].Args[0] != sel.Filters[0].Column.X {
		t.Error("a filter's key should share the WHERE tree's node")
	}
	for _, x := range append(sel.ItemsX, sel.WhereX, sel.HavingX, j.ConditionX, sel.Hints[0].ArgsX[1]) {
		checkSpans(t, src, x)
	}
}

func sexprs(xs []*plan.X) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = sexpr(x)
	}
	return strings.Join(parts, " ")
}

// TestTreeDepth checks that deep input neither overflows the stack nor builds trees higher
// than maxTreeHeight.
func TestTreeDepth(t *testing.T) {
	t.Parallel()
	p, err := New()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, src string
		err       bool
	}{
		{"parens", "SELECT " + strings.Repeat("(", 100000) + "a" + strings.Repeat(")", 100000) + " FROM t", true},
		{"case", "SELECT " + strings.Repeat("CASE WHEN ", 100000) + "a" + strings.Repeat(" THEN 1 END", 100000) + " FROM t", true},
		{"lambdas", "SELECT f(" + strings.Repeat("x -> ", 1000) + "x) FROM t", true},
		{"sum_chain", "SELECT " + strings.Repeat("a + ", 5000) + "a FROM t", false},
		{"and_chain", "SELECT 1 FROM t WHERE " + strings.Repeat("a = 1 AND ", 5000) + "b = 2", false},
		{"nested_ok", "SELECT " + strings.Repeat("(", 200) + "a" + strings.Repeat(")", 200) + " FROM t", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, errs := p.ParseFile("f.sql", []byte(c.src))
			if c.err {
				if len(errs) == 0 || !strings.Contains(errs[0].Msg, "nesting deeper") {
					t.Fatalf("want a nesting error, got %v", errs)
				}
				return
			}
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			sel := f.Queries[0].Root.Select
			for _, x := range append(sel.ItemsX, sel.WhereX) {
				if h := height(x); h > maxTreeHeight {
					t.Errorf("height %d > %d", h, maxTreeHeight)
				}
			}
		})
	}
}

func height(x *plan.X) int {
	if x == nil {
		return 0
	}
	h := 0
	for _, a := range x.Args {
		h = max(h, height(a))
	}
	return h + 1
}

// TestCorpusTrees builds the trees of every query of the test corpus and checks their spans.
func TestCorpusTrees(t *testing.T) {
	t.Parallel()
	p, err := New()
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("testdata/*.txtar")
	n := 0
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range ar.Files {
			if !strings.HasSuffix(s.Name, ".sql") {
				continue
			}
			f, _ := p.ParseFile(s.Name, s.Data)
			for _, q := range f.Queries {
				eachTree(q, func(x *plan.X) {
					n++
					if x.Span.Start.File == s.Name {
						checkSpans(t, string(s.Data), x)
					}
				})
			}
		}
	}
	if n == 0 {
		t.Fatal("no trees built")
	}
}

// eachTree calls f for every tree a query holds.
func eachTree(q *plan.Query, f func(*plan.X)) {
	var rel func(r *plan.Relation)
	keys := func(ks []plan.ColumnRef) {
		for _, k := range ks {
			if k.X != nil {
				f(k.X)
			}
		}
	}
	rel = func(r *plan.Relation) {
		if r == nil {
			return
		}
		switch r.Kind {
		case plan.JoinRel:
			if r.Join.ConditionX != nil {
				f(r.Join.ConditionX)
			}
			keys(r.Join.LeftKeys)
			keys(r.Join.RightKeys)
			rel(r.Join.Left)
			rel(r.Join.Right)
		case plan.SelectRel:
			s := r.Select
			for _, x := range append(append([]*plan.X{}, s.ItemsX...), s.WhereX, s.HavingX) {
				if x != nil {
					f(x)
				}
			}
			keys(s.GroupBy)
			keys(s.OrderBy)
			rel(s.From)
		case plan.SetRel:
			for _, in := range r.Inputs {
				rel(in)
			}
		}
	}
	for _, c := range q.CTEs {
		rel(c.Root)
	}
	rel(q.Root)
}

// TestTransformTrees checks the trees of partition transforms, written in DDL and printed by
// DESCRIBE, and that a bucket transform of a file-source table becomes its bucket spec.
func TestTransformTrees(t *testing.T) {
	t.Parallel()
	p, err := New()
	if err != nil {
		t.Fatal(err)
	}
	src := "CREATE TABLE i (id BIGINT, ts TIMESTAMP, s STRING) USING iceberg PARTITIONED BY (bucket(16, t.id), days(ts), truncate(4, s), f('x'));\n" +
		"CREATE TABLE p (id BIGINT) USING parquet PARTITIONED BY (bucket(8, id));"
	f, errs := p.ParseFile("f.sql", []byte(src))
	if len(errs) > 0 || len(f.Tables) != 2 {
		t.Fatal(errs)
	}
	ice := f.Tables[0]
	if got, want := sexprs(transformTrees(ice)), "(bucket 16:int t.id) (days ts) (truncate 4:int s) (f x:string)"; got != want {
		t.Errorf("transforms %s, want %s", got, want)
	}
	if got := ice.Layout.String(); got != "bucket(16, t.id), days(ts), truncate(4, s), f('x')" {
		t.Errorf("printed transforms %s", got)
	}
	for _, x := range transformTrees(ice) {
		checkSpans(t, src, x)
	}
	if pq := f.Tables[1]; pq.Buckets() == nil || pq.Buckets().NumBuckets != 8 || len(pq.PartitionTransforms()) != 0 {
		t.Errorf("parquet bucket transform: layout %v", pq.Layout)
	}
	d, errs := p.ParseDescribe("d.txt", []byte("id\tbigint\t\n# Partitioning\t\t\nPart 0\tbucket(16, `Id`)\t\nPart 1\tdays(ts)\t\n# Detailed Table Information\t\t\nProvider\ticeberg\t\n"))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if got, want := sexprs(transformTrees(d)), "(bucket 16:int id) (days ts)"; got != want {
		t.Errorf("DESCRIBE transforms %s, want %s", got, want)
	}
}

// transformTrees are the trees of a table's partition transforms.
func transformTrees(t *plan.Table) []*plan.X {
	var xs []*plan.X
	for _, tr := range t.PartitionTransforms() {
		xs = append(xs, tr.X)
	}
	return xs
}

// TestBucketSpans checks the spans of a bucket clause's count and columns, which fixes edit.
func TestBucketSpans(t *testing.T) {
	t.Parallel()
	p, err := New()
	if err != nil {
		t.Fatal(err)
	}
	for src, want := range map[string]string{
		"CREATE TABLE t (a INT) USING parquet CLUSTERED BY (a) INTO 64 BUCKETS":                "1:60-1:62 1:52-1:53",
		"CREATE TABLE t (a INT, b INT) USING parquet\nCLUSTERED BY ( a, b )\nINTO 200 BUCKETS": "3:6-3:9 2:15-2:21",
		"CREATE TABLE t (a INT) USING parquet CLUSTERED BY (a) INTO {{ n }} BUCKETS":           "- 1:52-1:53",
	} {
		f, errs := p.ParseFile("f.sql", []byte(src))
		if len(errs) > 0 || len(f.Tables) != 1 || f.Tables[0].Buckets() == nil {
			t.Fatalf("%q: %v", src, errs)
		}
		b := f.Tables[0].Buckets()
		if got := spanText(b.CountSpan) + " " + spanText(b.ColumnsSpan); got != want {
			t.Errorf("%q: spans %s, want %s", src, got, want)
		}
	}
}

func spanText(s plan.Span) string {
	if !s.Start.IsValid() {
		return "-"
	}
	return fmt.Sprintf("%d:%d-%d:%d", s.Start.Line, s.Start.Col, s.End.Line, s.End.Col)
}

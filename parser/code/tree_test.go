package code

import (
	"fmt"
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/plan"
)

// TestKeyTrees checks the trees of keys read from code: columns by every spelling, casts to
// a type string or a DataType, and literals.
func TestKeyTrees(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		lang, key string
		want      string
	}{
		{"py", `"k"`, "column k"},
		{"py", `"o.K"`, "column o.k"},
		{"py", `F.col("k")`, "column k"},
		{"py", `orders.k`, "column orders.k"},
		{"py", `orders["k"]`, "column orders.k"},
		{"py", `F.col("k").cast("INTEGER")`, "cast int (column k)"},
		{"py", `F.col("k").cast(T.LongType())`, "cast bigint (column k)"},
		{"py", `F.col("k").cast(DecimalType(10, 2))`, "cast decimal(10,2) (column k)"},
		{"py", `F.col("k").cast(t)`, "cast t (column k)"},
		{"py", `F.col("k").alias("x")`, "column k"},
		{"py", `F.lit(5)`, "literal 5 int"},
		{"py", `F.lit(5000000000)`, "literal 5000000000 bigint"},
		{"py", `F.lit("x")`, "literal x string"},
		{"py", `F.expr("a + b")`, "other"},
		{"scala", `$"k"`, "column k"},
		{"scala", `col("k").cast(IntegerType)`, "cast int (column k)"},
		{"scala", `orders("k")`, "column orders.k"},
	} {
		t.Run(c.key, func(t *testing.T) {
			src, file := "g = orders.groupBy("+c.key+")\n", "job.py"
			if c.lang == "scala" {
				src, file = "val g = orders.groupBy("+c.key+")\n", "Job.scala"
			}
			f, errs := Parse(file, []byte(src))
			if len(errs) > 0 || len(f.Aggregates) != 1 || len(f.Aggregates[0].Keys) != 1 {
				t.Fatalf("parse: %v %+v", errs, f.Aggregates)
			}
			k := f.Aggregates[0].Keys[0]
			if got := describeX(k.X); got != c.want {
				t.Errorf("tree = %q, want %q", got, c.want)
			}
			if k.X.Raw != c.key {
				t.Errorf("Raw = %q, want %q", k.X.Raw, c.key)
			}
			start := strings.Index(src, c.key) + 1
			if k.X.Span.Start.Col != start || k.X.Span.End.Col != start+len(c.key) {
				t.Errorf("span %v-%v, want columns %d-%d", k.X.Span.Start, k.X.Span.End, start, start+len(c.key))
			}
		})
	}
}

func describeX(x *plan.X) string {
	switch x.Op {
	case plan.OpColumn:
		if x.Qualifier != "" {
			return "column " + x.Qualifier + "." + x.Name
		}
		return "column " + x.Name
	case plan.OpCast:
		return "cast " + x.Type + " (" + describeX(x.Args[0]) + ")"
	case plan.OpLiteral:
		return "literal " + x.Value + " " + x.Type
	}
	return x.Op.String()
}

// TestAssigns checks the assignment statements recorded for lineage: Python and Scala forms,
// their spans, and that keyword arguments and comparisons are not assignments.
func TestAssigns(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		file, src string
		want      []string
	}{
		{"job.py", "o = spark.table('o')\nj = o.join(c,\n    on='k',\n    how='left')\nif a == b:\n    n: int = 3\n", []string{"o 1:1-1:21", "j 2:1-4:16", "n 6:5-6:15"}},
		{"Job.scala", "val o = spark.table(\"o\")\nvar d: DataFrame = o.groupBy(\"k\").count()\n", []string{"o 1:5-1:25", "d 2:5-2:42"}},
	} {
		f, errs := Parse(c.file, []byte(c.src))
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		var got []string
		for _, a := range f.Assigns {
			got = append(got, fmt.Sprintf("%s %d:%d-%d:%d", a.Var, a.Span.Start.Line, a.Span.Start.Col, a.Span.End.Line, a.Span.End.Col))
		}
		if strings.Join(got, ", ") != strings.Join(c.want, ", ") {
			t.Errorf("%s: assigns %v, want %v", c.file, got, c.want)
		}
	}
}

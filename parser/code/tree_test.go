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

// TestBucketBySpans checks the spans of bucketBy's count and columns, which fixes edit.
func TestBucketBySpans(t *testing.T) {
	t.Parallel()
	for src, want := range map[string]string{
		`df.write.bucketBy(-1, "id").saveAsTable("t")`:    "1:19-1:21 1:23-1:27",
		`df.write.bucketBy(8, "a", "b").saveAsTable("t")`: "1:19-1:20 1:22-1:30",
		`df.write.bucketBy(n, "id").saveAsTable("t")`:     "- 1:22-1:26",
	} {
		f, errs := Parse("job.py", []byte(src+"\n"))
		if len(errs) > 0 || len(f.Writes) != 1 || f.Writes[0].Bucket == nil {
			t.Fatalf("%q: %v", src, errs)
		}
		b := f.Writes[0].Bucket
		got := "-"
		if b.CountSpan.Start.IsValid() {
			got = fmt.Sprintf("%d:%d-%d:%d", b.CountSpan.Start.Line, b.CountSpan.Start.Col, b.CountSpan.End.Line, b.CountSpan.End.Col)
		}
		c := b.ColumnsSpan
		got += fmt.Sprintf(" %d:%d-%d:%d", c.Start.Line, c.Start.Col, c.End.Line, c.End.Col)
		if got != want {
			t.Errorf("%q: spans %s, want %s", src, got, want)
		}
	}
}

// TestNotebookSpanEnds checks that a span ending on a byte the notebook's JSON escapes (\")
// ends after the whole escape, where the next byte of the line is.
func TestNotebookSpanEnds(t *testing.T) {
	t.Parallel()
	nb := `{"cells": [{"cell_type": "code", "source": ["spark.conf.set(\"spark.sql.shuffle.partitions\", \"8\")"]}], "metadata": {"kernelspec": {"language": "python"}}}`
	f, errs := Parse("n.ipynb", []byte(nb))
	if len(errs) > 0 || len(f.Confs) != 1 {
		t.Fatalf("confs %v, errors %v", f.Confs, errs)
	}
	s := f.Confs[0].Span
	got := nb[s.Start.Col-1 : s.End.Col-1]
	if want := `\"spark.sql.shuffle.partitions\", \"8\"`; got != want {
		t.Errorf("conf span covers %s, want %s", got, want)
	}
}

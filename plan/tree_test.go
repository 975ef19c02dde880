package plan

import (
	"slices"
	"testing"
)

func TestCanonicalType(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"INT", "int"},
		{"Integer", "int"},
		{"long", "bigint"},
		{"BIGINT", "bigint"},
		{"short", "smallint"},
		{"byte", "tinyint"},
		{"real", "float"},
		{"bool", "boolean"},
		{"DECIMAL", "decimal(10,0)"},
		{"numeric(12)", "decimal(12,0)"},
		{"dec(20, 2)", "decimal(20,2)"},
		{"Decimal(38,10)", "decimal(38,10)"},
		{"varchar(10)", "varchar(10)"},
		{"STRING", "string"},
		{"array<INTEGER>", "array<int>"},
		{"map<string, long>", "map<string,bigint>"},
		{"struct<a: int, b: map<string,dec(5)>>", "struct<a:int,b:map<string,decimal(5,0)>>"},
		{"timestamp_ltz", "timestamp"},
		{"", ""},
		{"geography", "geography"},
	} {
		if got := CanonicalType(c.in); got != c.want {
			t.Errorf("CanonicalType(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestTreeHelpers(t *testing.T) {
	col := func(q, n string) *X { return &X{Op: OpColumn, Qualifier: q, Name: n} }
	a, b, c := col("o", "k"), col("c", "k"), col("", "d")
	eq := &X{Op: OpBinary, Name: "=", Args: []*X{{Op: OpCast, Name: "cast", Type: "bigint", Args: []*X{a}}, b}}
	lit := &X{Op: OpBinary, Name: ">", Args: []*X{c, {Op: OpLiteral, Value: "5", Type: "int"}}}
	and := &X{Op: OpBinary, Name: "and", Args: []*X{eq, {Op: OpBinary, Name: "and", Args: []*X{lit, lit}}}}
	if got := and.Conjuncts(); len(got) != 3 || got[0] != eq || got[1] != lit || got[2] != lit {
		t.Errorf("Conjuncts = %v", got)
	}
	if got := eq.Columns(); !slices.Equal(got, []*X{a, b}) {
		t.Errorf("Columns = %v", got)
	}
	if !eq.Args[0].IsColumn() || eq.Args[0].Uncast() != a || lit.Args[1].IsColumn() || eq.IsColumn() {
		t.Error("IsColumn/Uncast wrong")
	}
	var nilX *X
	if nilX.Conjuncts() != nil || nilX.Columns() != nil || nilX.IsColumn() {
		t.Error("nil tree should be empty")
	}
	if OpColumn.String() != "column" || Op(200).String() != "op?" {
		t.Error("Op.String")
	}
}

func TestBucketTransform(t *testing.T) {
	t.Parallel()
	lit := func(v string) *X { return &X{Op: OpLiteral, Value: v, Type: "int"} }
	col := func(q, n string) *X { return &X{Op: OpColumn, Qualifier: q, Name: n} }
	call := func(name string, args ...*X) *X { return &X{Op: OpCall, Name: name, Args: args} }
	if s, ok := BucketTransform(call("bucket", lit("16"), col("", "a"), col("t", "b"))); !ok || s.NumBuckets != 16 || len(s.Columns) != 2 || s.Columns[1] != "t.b" {
		t.Errorf("bucket(16, a, t.b) = %+v, %v", s, ok)
	}
	for _, x := range []*X{nil, call("days", col("", "ts")), call("bucket", lit("x"), col("", "a")), call("bucket", lit("4")), call("bucket", lit("4"), lit("5"))} {
		if _, ok := BucketTransform(x); ok {
			t.Errorf("BucketTransform(%v) is a bucket spec", x)
		}
	}
}

func TestNegated(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		x    *X
		want string
	}{
		{&X{Op: OpLiteral, Value: "2", Raw: "2"}, "-2"},
		{&X{Op: OpLiteral, Value: "-2.5", Raw: "-2.5"}, "2.5"},
		{&X{Op: OpColumn, Name: "k", Raw: "k#1"}, "-(k#1)"},
		{&X{Op: OpLiteral, Value: "x", Type: "string", Raw: "'x'"}, "-('x')"},
	} {
		if got := Negated(c.x).Raw; got != c.want {
			t.Errorf("Negated(%s) = %s, want %s", c.x.Raw, got, c.want)
		}
	}
}

func TestSplitTypeList(t *testing.T) {
	t.Parallel()
	tests := map[string][]string{
		"int":                            {"int"},
		"int,decimal(10,2)":              {"int", "decimal(10,2)"},
		"k bigint, m map<string,int>":    {"k bigint", " m map<string,int>"},
		"a array<struct<x:int,y:int>>,b": {"a array<struct<x:int,y:int>>", "b"},
	}
	for in, want := range tests {
		got := SplitTypeList(in)
		if len(got) != len(want) {
			t.Errorf("SplitTypeList(%q) = %q, want %q", in, got, want)
			continue
		}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("SplitTypeList(%q) = %q, want %q", in, got, want)
			}
		}
	}
}

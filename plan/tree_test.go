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

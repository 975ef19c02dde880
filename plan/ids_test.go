package plan

import "testing"

func TestStripIDs(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"k#12", "k"},
		{"count#45L", "count"},
		{"sum(v#2L)", "sum(v)"},
		{"sum(DISTINCT val)#xL", "sum(DISTINCT val)"},
		{"max(val)#x", "max(val)"},
		{"hashpartitioning(k#1, k2#2, 200)", "hashpartitioning(k, k2, 200)"},
		{"Exchange SinglePartition, [id=#59]", "Exchange SinglePartition, [id=#59]"},
		{"[plan_id=59]", "[plan_id=59]"},
		{"k#xyz", "k#xyz"},
		{"a#", "a#"},
		{"#12", "#12"},
		{"c#1Lx", "c#1Lx"},
		{"cast(customer_id#12 as bigint)", "cast(customer_id as bigint)"},
		{"", ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			if got := StripIDs(tt.in); got != tt.want {
				t.Errorf("StripIDs(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestExprColumn(t *testing.T) {
	t.Parallel()
	tests := []struct {
		e      Expr
		col    string
		ok     bool
		isCast bool
	}{
		{NewExpr("k#1", "k", []Attr{{Name: "k", ID: "1"}}, nil), "k", true, false},
		{NewExpr("cast(k#1 as bigint)", "cast(k as bigint)", []Attr{{Name: "k", ID: "1"}}, &X{Op: OpCast, Name: "cast", Type: "bigint", Args: []*X{{Op: OpColumn, Name: "k", ID: "1"}}}), "", false, true},
		{NewExpr("cast(k#1 as bigint)", "cast(k as bigint)", []Attr{{Name: "k", ID: "1"}}, nil), "", false, false},
		{NewExpr("(a#1 + b#2)", "(a + b)", []Attr{{Name: "a", ID: "1"}, {Name: "b", ID: "2"}}, nil), "", false, false},
	}
	for _, tt := range tests {
		col, ok := tt.e.Column()
		if col != tt.col || ok != tt.ok || tt.e.IsCast() != tt.isCast {
			t.Errorf("%q: Column() = %q, %t; IsCast() = %t; want %q, %t, %t", tt.e.Raw, col, ok, tt.e.IsCast(), tt.col, tt.ok, tt.isCast)
		}
	}
}

func TestTableColumnIsCaseInsensitive(t *testing.T) {
	t.Parallel()
	tb := &Table{Columns: []Column{{Name: "Customer_ID", Type: "int"}}}
	if c, ok := tb.Column("customer_id"); !ok || c.Type != "int" {
		t.Fatalf("Column(customer_id) = %+v, %t", c, ok)
	}
	if _, ok := tb.Column("customer"); ok {
		t.Fatal("Column(customer) found a column")
	}
}

func TestPosString(t *testing.T) {
	t.Parallel()
	tests := []struct {
		p    Pos
		want string
	}{
		{Pos{}, "-"},
		{Pos{File: "a.txt"}, "a.txt"},
		{Pos{File: "a.txt", Line: 3}, "a.txt:3"},
		{Pos{File: "a.txt", Line: 3, Col: 7}, "a.txt:3:7"},
	}
	for _, tt := range tests {
		if got := tt.p.String(); got != tt.want {
			t.Errorf("%+v.String() = %q, want %q", tt.p, got, tt.want)
		}
	}
}

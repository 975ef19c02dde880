package verify

import (
	"testing"

	"github.com/bucketlint/bucketlint/plan"
)

func TestUnqualify(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"a.status <> 'CLOSED'":                 "status <> 'CLOSED'",
		"t.day = DATE'2024-06-30' AND a.x > 3": "day = '2024-06-30' AND x > 3",
		"s = 'a.b'":                            "s = 'a.b'",
		"sum(t.amount)":                        "sum(amount)",
	} {
		if got := unqualify(plan.Expr{Raw: in, Text: in}).Text; got != want {
			t.Errorf("unqualify(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestUncast(t *testing.T) {
	t.Parallel()
	a := plan.Attr{Name: "account_id", ID: "6"}
	ex := &plan.Exchange{Partitioning: plan.Partitioning{Keys: []plan.Expr{{Raw: "cast(account_id#6 as bigint)", Text: "cast(account_id as bigint)", Refs: []plan.Attr{a}}}}}
	casts := uncast(ex)
	if casts["account_id"] != "bigint" {
		t.Fatalf("casts %v", casts)
	}
	if c, ok := ex.Partitioning.Keys[0].Column(); !ok || c != "account_id" {
		t.Fatalf("key %+v", ex.Partitioning.Keys[0])
	}
	tab := &plan.Table{Name: "a", Columns: []plan.Column{{Name: "account_id", Type: "int"}, {Name: "s", Type: "string"}}}
	if w := widen(tab, casts); w.Columns[0].Type != "bigint" || tab.Columns[0].Type != "int" {
		t.Fatalf("widen: %v (input %v)", w.Columns, tab.Columns)
	}
	// A cast to a narrower type or of a string is never rewritten.
	narrow := &plan.Exchange{Partitioning: plan.Partitioning{Keys: []plan.Expr{{Raw: "cast(s#1 as string)", Text: "cast(s as string)", Refs: []plan.Attr{{Name: "s", ID: "1"}}}}}}
	if casts := uncast(narrow); len(casts) != 0 {
		t.Fatalf("casts %v", casts)
	}
}

func TestAsSelect(t *testing.T) {
	t.Parallel()
	_, w := workload(t, `CREATE TABLE a (k BIGINT) USING parquet; CREATE TABLE b (k BIGINT) USING parquet;
INSERT OVERWRITE TABLE b SELECT a.k FROM a JOIN a x ON a.k = x.k;
WITH q AS (SELECT k FROM a) INSERT INTO b SELECT k FROM q;
SELECT k FROM a;`)
	for i, want := range []string{"SELECT a.k FROM a JOIN a x ON a.k = x.k", "WITH q AS (SELECT k FROM a) SELECT k FROM q", "SELECT k FROM a"} {
		got := AsSelect(w[i].Query)
		if got.Text != want || got.Target != "" {
			t.Errorf("query %d: %q (target %q), want %q", i+1, got.Text, got.Target, want)
		}
	}
}

//go:build engine

package verify

import (
	"errors"
	"reflect"
	"testing"

	"github.com/bucketlint/bucketlint/plan"
)

func TestParseScenarioErrors(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, src, want string
	}{
		{"unknown key", "sql: [a.sql]\nnme: x\n", `d/s.verify.yaml:2:1: unknown key "nme"`},
		{"no sql files", "rows: 3\n", "d/s.verify.yaml:1:1: sql: want the files with the DDL and the queries"},
		{"negative rows", "sql: [a.sql]\nrows: -5\n", "d/s.verify.yaml:2:7: rows -5: want a count of 0 or more (0: --rows)"},
		{"syntax", "sql: [\n", "d/s.verify.yaml:1:1: did not find expected node content"},
		{
			"layout without buckets", "sql: [a.sql]\nlayout:\n  t: {buckets: 0}\n",
			"d/s.verify.yaml:3:3: layout t: want columns and buckets > 0",
		},
		{
			"bad type and count", "sql: [a.sql]\ncurrent:\n  t: {columns: [k], buckets: 200000, types: {k: intt}}\n",
			"d/s.verify.yaml:3:30: current t: buckets 200000 out of range 1..100000 (spark.sql.sources.bucketing.maxBuckets)\n" +
				"d/s.verify.yaml:3:49: current t: type of k: type \"intt\": not a bucketable Spark SQL type",
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, err := ParseScenario("d/s.verify.yaml", []byte(c.src))
			var se *ScenarioError
			if !errors.As(err, &se) {
				t.Fatalf("ParseScenario: %v, want a *ScenarioError", err)
			}
			if err.Error() != c.want {
				t.Errorf("ParseScenario:\n%s\nwant\n%s", err, c.want)
			}
		})
	}
}

func TestScenarioFile(t *testing.T) {
	t.Parallel()
	src := "sql: [ddl.sql, /abs/q.sql]\nrows: 50\ntables:\n  Shop.Orders:\n    data: orders.csv\n" +
		"    columns:\n      k: {cardinality: 7, nulls: 0.5}\n" +
		"layout:\n  shop.orders: {columns: [k], buckets: 8, types: {k: bigint}}\n" +
		"written:\n  shop.orders:\n"
	sf, err := ParseScenario("d/s.verify.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if sf.Name != "s" {
		t.Errorf("Name = %q, want the file name without %s", sf.Name, ScenarioSuffix)
	}
	if got, want := sf.Paths(), []string{"d/ddl.sql", "/abs/q.sql"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Paths() = %v, want %v", got, want)
	}
	wantData := map[string]TableData{"shop.orders": {Path: "d/orders.csv", Rows: 50, Columns: map[string]ColumnGen{"k": {Cardinality: 7, NullFraction: 0.5}}}}
	if got := sf.Data(); !reflect.DeepEqual(got, wantData) {
		t.Errorf("Data() = %+v, want %+v", got, wantData)
	}
	if got, want := sf.WrittenSpecs(), map[string]*plan.BucketSpec{"shop.orders": nil}; !reflect.DeepEqual(got, want) {
		t.Errorf("WrittenSpecs() = %v, want %v (unbucketed)", got, want)
	}
	orders := &plan.Table{Name: "shop.orders", Columns: []plan.Column{{Name: "k", Type: "int"}}}
	tables := map[string]*plan.Table{"shop.orders": orders}
	if err := sf.CheckTables(tables); err != nil {
		t.Errorf("CheckTables: %v", err)
	}
	after, err := ApplyLayout(tables, sf.Layout)
	if err != nil {
		t.Fatal(err)
	}
	a := after["shop.orders"]
	if a.Buckets() == nil || a.Buckets().NumBuckets != 8 || a.Columns[0].Type != "bigint" || orders.Columns[0].Type != "int" {
		t.Errorf("ApplyLayout: %+v (bucket %v); the input must stay as it was: %+v", a, a.Buckets(), orders)
	}
	if err := sf.CheckTables(map[string]*plan.Table{}); err == nil || err.Error() != "d/s.verify.yaml:4:3: table Shop.Orders is not declared in ddl.sql, /abs/q.sql\n"+
		"d/s.verify.yaml:9:3: table shop.orders is not declared in ddl.sql, /abs/q.sql\n"+
		"d/s.verify.yaml:11:15: table shop.orders is not declared in ddl.sql, /abs/q.sql" {
		t.Errorf("CheckTables without the tables: %v", err)
	}
	if _, err := ApplyLayout(map[string]*plan.Table{}, sf.Layout); err == nil {
		t.Error("ApplyLayout of an undeclared table: no error")
	}
}

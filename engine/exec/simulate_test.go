//go:build engine

package exec

import (
	"context"
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/engine/store"
	"github.com/bucketlint/bucketlint/parser/sql"
	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
)

// TestSimulatedPlans runs the plans simulate predicts for the compatibility tables,
// declared bucketed (no Exchange) and unbucketed (Exchanges), and checks both give the rows
// of the hand-built plans that real Spark agreed with.
func TestSimulatedPlans(t *testing.T) {
	t.Parallel()
	cat, tables := writeCompatTables(t, t.TempDir())
	p, err := sql.New()
	if err != nil {
		t.Fatal(err)
	}
	for _, bucketed := range []bool{true, false} {
		var ddl strings.Builder
		for _, ct := range tables {
			tab, _ := cat.Lookup(ct.name)
			ddl.WriteString("CREATE TABLE " + ct.name + " (" + tab.Schema.String() + ") USING parquet")
			if bucketed {
				ddl.WriteString(" CLUSTERED BY (" + strings.Join(ct.layout.BucketColumns, ", ") + ") INTO 8 BUCKETS")
			}
			ddl.WriteString(";\n")
		}
		for _, q := range compatQueries() {
			if strings.Contains(q.sql, "cs") {
				continue // cs and ct have 5 buckets; the DDL above declares 8
			}
			f, errs := p.ParseFile("q.sql", []byte(ddl.String()+q.sql+";\n"))
			if len(errs) > 0 || len(f.Queries) != 1 {
				t.Fatalf("parse: %v", errs)
			}
			decl := map[string]*plan.Table{}
			for _, tb := range f.Tables {
				decl[tb.Name] = tb
			}
			v, _ := simulate.ParseVersion("3.5")
			res, err := simulate.Simulate(decl, f.Queries[0], simulate.Options{SparkVersion: v, Confs: map[string]string{
				"spark.sql.autoBroadcastJoinThreshold": "-1", "spark.sql.adaptive.enabled": "false", "spark.sql.shuffle.partitions": "6",
			}})
			if err != nil {
				t.Fatal(err)
			}
			if bucketed != (res.Exchanges == 0) {
				t.Fatalf("%s bucketed=%v: simulate predicts %d exchanges", q.name, bucketed, res.Exchanges)
			}
			engineCat := cat
			if !bucketed {
				engineCat = unbucketedCatalog(t, cat, tables)
			}
			got, err := Execute(context.Background(), res.Plan, engineCat, Options{})
			if err != nil {
				t.Fatalf("%s: %v\n%s", q.name, err, plan.Texts(nil))
			}
			want := run(t, q.plan(true), cat)
			if err := EqualRows(got, want); err != nil {
				t.Fatalf("%s bucketed=%v: %v", q.name, bucketed, err)
			}
			if got.Stats.Exchanges != res.Exchanges {
				t.Fatalf("%s: ran %d exchanges, simulate predicted %d", q.name, got.Stats.Exchanges, res.Exchanges)
			}
		}
	}
}

// unbucketedCatalog registers the same files without their bucket spec.
func unbucketedCatalog(t *testing.T, cat *Catalog, tables []compatTable) *Catalog {
	t.Helper()
	out := NewCatalog()
	for _, ct := range tables {
		tab, _ := cat.Lookup(ct.name)
		u, err := store.Open(tab.Dir, tab.Schema, store.Layout{PartitionColumns: tab.Layout.PartitionColumns})
		if err != nil {
			t.Fatal(err)
		}
		out.Add(ct.name, u)
	}
	return out
}

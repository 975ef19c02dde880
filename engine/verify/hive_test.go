package verify

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/engine/store"
)

const hiveDDL = `CREATE TABLE db.orders (id BIGINT, cust INT, amt DOUBLE) CLUSTERED BY (cust) INTO 8 BUCKETS STORED AS PARQUET;
CREATE TABLE db.customers (cust INT, name STRING) USING parquet CLUSTERED BY (cust) INTO 8 BUCKETS;
SELECT o.cust, count(*) AS n FROM db.orders o JOIN db.customers c ON o.cust = c.cust GROUP BY o.cust;
`

// TestHiveTableVerifies verifies the advice for a join of a Hive-format bucketed table: the
// before side holds the Hive table as Spark 3.3+ writes it (HiveHash buckets, 00003_0_
// names), read without a bucketed scan, so its side of the join shuffles; the advised
// data-source table does not.
func TestHiveTableVerifies(t *testing.T) {
	t.Parallel()
	sc := advised(t, hiveDDL)
	if sc[0].Before["db.orders"].Format != "hive" {
		t.Fatalf("the scenario's before table is %q, want the DDL's hive", sc[0].Before["db.orders"].Format)
	}
	r := runIn(t, t.TempDir(), sc)[0]
	if r.Error != "" {
		t.Fatal(r.Error)
	}
	if !r.Identical || !r.Reproduced() {
		t.Fatalf("advice did not reproduce: %+v", r)
	}
	if r.Before.Predicted != 1 || r.Before.Exchanges != 1 || r.After.Exchanges != 0 {
		t.Fatalf("exchanges before %+v after %+v, want 1 (the Hive side) then 0", r.Before, r.After)
	}
	for side, want := range []store.Bucketing{store.HiveBucketing, store.SparkBucketing} {
		var found bool
		for _, a := range r.adopted[side] {
			if a.name != "db.orders" {
				continue
			}
			found = true
			if got := a.files.Layout.Bucketing; got != want {
				t.Fatalf("%s side: db.orders written with %s bucketing, want %s", sideName(side), got, want)
			}
			for _, f := range a.files.Files {
				hivePrefix := strings.HasPrefix(filepath.Base(f.Path), fmt.Sprintf("%05d_0_", f.Bucket))
				if hivePrefix != (want == store.HiveBucketing) {
					t.Fatalf("%s side: file %s for bucket %d", sideName(side), filepath.Base(f.Path), f.Bucket)
				}
			}
		}
		if !found {
			t.Fatalf("%s side did not read db.orders", sideName(side))
		}
	}
}

func TestHiveAsParquetCopies(t *testing.T) {
	t.Parallel()
	tabs, _ := workload(t, hiveDDL)
	got := hiveAsParquet(tabs)
	if o := got["db.orders"]; o.Format != "parquet" || !o.Hive || o.Bucket == nil {
		t.Fatalf("db.orders as planned: %+v", o)
	}
	if tabs["db.orders"].Format != "hive" {
		t.Fatal("the input table changed")
	}
	if got["db.customers"] != tabs["db.customers"] {
		t.Fatal("a data-source table was copied")
	}
	delete(tabs, "db.orders")
	if same := hiveAsParquet(tabs); len(same) != 1 || same["db.customers"] != tabs["db.customers"] {
		t.Fatal("a catalogue without Hive-serde tables changed")
	}
}

//go:build engine

package verify

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/engine/store"
	"github.com/bucketlint/bucketlint/simulate"
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

// TestHiveScanPlans checks that verify runs what the simulator predicts for Hive tables: a
// Hive Parquet table is a FileScan parquet (convertMetastoreParquet), so verify runs it; a
// Hive text table, or a Parquet one with the conversion off, is a HiveTableScan, which
// verify refuses with an error naming the table.
func TestHiveScanPlans(t *testing.T) {
	t.Parallel()
	tabs, w := workload(t, hiveDDL)
	res, err := simulate.Simulate(tabs, w[0].Query, simOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := hiveScanErr(res.Plan, tabs); err != nil {
		t.Fatalf("Hive Parquet table: %v", err)
	}
	opt := simOptions(t)
	opt.Confs = map[string]string{simulate.ConfConvertMetastoreParquet: "false"}
	if res, err = simulate.Simulate(tabs, w[0].Query, opt); err != nil {
		t.Fatal(err)
	}
	err = hiveScanErr(res.Plan, tabs)
	if err == nil || !strings.Contains(err.Error(), "db.orders is a Hive-serde table (parquet)") {
		t.Fatalf("convertMetastoreParquet=false: %v", err)
	}
	text := strings.Replace(hiveDDL, "STORED AS PARQUET", "STORED AS TEXTFILE", 1)
	sc := advised(t, text)
	res2, err := Run(context.Background(), sc, Options{Rows: 500, Seed: 7, Sim: simOptions(t), TempRoot: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if len(res2) != 1 || !strings.Contains(res2[0].Error, "db.orders is a Hive-serde table (textfile) that Spark reads with HiveTableScan") {
		t.Fatalf("Hive text table: %+v", res2)
	}
}

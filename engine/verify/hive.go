//go:build engine

package verify

import (
	"fmt"

	"github.com/bucketlint/bucketlint/engine/store"
	"github.com/bucketlint/bucketlint/plan"
)

// hiveScanErr reports a plan that reads a Hive-serde table with HiveTableScan, which the
// engine does not run. The simulator predicts that scan only where Spark plans it: a Hive
// table whose serde is not Parquet's or ORC's, or one of those with
// spark.sql.hive.convertMetastoreParquet or …Orc turned off. Hive Parquet and ORC tables
// otherwise plan as an unbucketed FileScan (recorded from Spark 3.5.9 in
// engine/testdata/spark/hive-3.5.9/record.json and fixtures/spark/*/hive), which verify runs
// over the Hive-layout files it writes.
func hiveScanErr(root plan.Node, tables map[string]*plan.Table) error {
	var err error
	plan.WalkAll(root, func(n plan.Node) bool {
		h, ok := n.(*plan.HiveTableScan)
		if !ok || err != nil {
			return err == nil
		}
		storage := "unknown storage"
		if t := lookupTable(tables, h.Table); t != nil && t.HiveStorage() != "" {
			storage = t.HiveStorage()
		}
		err = fmt.Errorf("%s is a Hive-serde table (%s) that Spark reads with HiveTableScan, which the engine does not run; verify runs Hive tables Spark reads through its Parquet or ORC source", h.Table, storage)
		return false
	})
	return err
}

// bucketingOf is the scheme t's writer uses: Spark 3.3 and later write Hive-format bucketed
// tables with HiveHash and %05d_0_ file-name prefixes (SPARK-32709), so the layout a user's
// job produced for a Hive table is store.HiveBucketing.
func bucketingOf(t *plan.Table) store.Bucketing {
	if t.Hive {
		return store.HiveBucketing
	}
	return store.SparkBucketing
}

package verify

import (
	"maps"

	"github.com/bucketlint/bucketlint/engine/store"
	"github.com/bucketlint/bucketlint/plan"
)

// hiveAsParquet returns the tables with every Hive-serde table declared by DDL (STORED AS …,
// format "hive") turned into a Hive-format Parquet table (format "parquet", Hive kept). verify
// stores every table as Parquet, and Spark reads a Hive Parquet table through its Parquet data
// source (spark.sql.hive.convertMetastoreParquet, default true): a FileScan that is never
// bucketed, which the simulator predicts for Hive Parquet tables and the engine runs, where a
// Hive-serde scan of unknown storage would be a HiveTableScan it cannot run. Recorded from
// Spark 3.5.9 in engine/testdata/spark/hive-3.5.9/record.json. The map is copied only when
// a table changes.
func hiveAsParquet(tables map[string]*plan.Table) map[string]*plan.Table {
	out := tables
	for name, t := range tables {
		if !t.Hive || t.Format != "hive" {
			continue
		}
		if maps.Equal(out, tables) {
			out = maps.Clone(tables)
		}
		c := *t
		c.Format = "parquet"
		out[name] = &c
	}
	return out
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

package workload

import (
	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
)

// Settings that decide the format of a table whose definition names none; their defaults per
// Spark version are simulate's behaviour table.
const (
	// ConfSourcesDefault is spark.sql.sources.default, the data source of saveAsTable without
	// format() and, from Spark 4.0, of CREATE TABLE without USING (default parquet).
	ConfSourcesDefault = simulate.ConfSourcesDefault
	// ConfCreateHiveTableByDefault is spark.sql.legacy.createHiveTableByDefault: CREATE TABLE
	// without USING or STORED AS creates a Hive-serde table (default true before Spark 4.0,
	// false from 4.0, SPARK-46122; Spark 3.0 has no such key and always does).
	ConfCreateHiveTableByDefault = simulate.ConfCreateHiveTableByDefault
)

// hiveDefaultStorage is the storage of a Hive table created without STORED AS:
// hive.default.fileformat, TextFile unless the metastore says otherwise.
const hiveDefaultStorage = "textfile"

// defaultSource is spark.sql.sources.default in force under o.
func defaultSource(o simulate.Options) string { return o.SourcesDefault() }

// createsHiveTable reports whether CREATE TABLE without USING or STORED AS creates a Hive-serde
// table under o.
func createsHiveTable(o simulate.Options) bool { return o.CreateHiveTableByDefault() }

// namesNoFormat reports whether a definition leaves the table's format to Spark's defaults:
// no USING, no STORED AS, no LIKE (which copies the source table's) and no format().
func namesNoFormat(t *plan.Table) bool {
	return t != nil && t.Format == "" && !t.Hive && t.Like == ""
}

// withDefaultFormat returns t with the format Spark gives a table defined by an event of kind
// k that names none, under the options in force at the event; t itself when it names one.
func withDefaultFormat(t *plan.Table, k plan.TableEventKind, o simulate.Options) *plan.Table {
	if !namesNoFormat(t) {
		return t
	}
	c := *t
	if k == plan.CreateTable && createsHiveTable(o) {
		c.Format, c.Hive, c.HiveFormat = "hive", true, hiveDefaultStorage
		return &c
	}
	c.Format = defaultSource(o)
	return &c
}

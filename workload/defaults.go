package workload

import (
	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
)

// hiveDefaultStorage is the storage of a Hive table created without STORED AS:
// hive.default.fileformat, TextFile unless the metastore says otherwise.
const hiveDefaultStorage = "textfile"

// namesNoFormat reports whether a definition leaves the table's format to Spark's defaults:
// no USING, no STORED AS, no LIKE (which copies the source table's) and no format().
func namesNoFormat(t *plan.Table) bool {
	return t != nil && t.Format == "" && !t.Hive && t.Like == ""
}

// withDefaultFormat returns t with the format Spark gives a table defined by an event of kind
// k that names none, under the options in force at the event: CREATE TABLE makes a Hive-serde
// table while spark.sql.legacy.createHiveTableByDefault holds (the default before Spark 4.0),
// else a spark.sql.sources.default table, which is also what saveAsTable without format()
// writes. t itself is returned when it names a format.
func withDefaultFormat(t *plan.Table, k plan.TableEventKind, o simulate.Options) *plan.Table {
	if !namesNoFormat(t) {
		return t
	}
	c := *t
	if k == plan.CreateTable && o.CreateHiveTableByDefault() {
		c.Format, c.Hive, c.HiveFormat = "hive", true, hiveDefaultStorage
		return &c
	}
	c.Format = o.SourcesDefault()
	return &c
}

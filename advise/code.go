package advise

import (
	"sort"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// RewriteFormat is the data source a bucketed rewrite of t is written with: t's own file
// format, Parquet or ORC for a Hive table stored so, and Parquet for a Delta table, a Hive
// table of other storage, or an unknown format.
func RewriteFormat(t *plan.Table) string {
	switch f := strings.ToLower(t.Format); {
	case t.Hive && (t.HiveStorage() == "parquet" || t.HiveStorage() == "orc"):
		return t.HiveStorage()
	case f == "" || f == "hive" || f == "delta":
		return "parquet"
	}
	return t.Format
}

// LayoutCode writes table t rewritten with the bucket spec as PySpark, Scala and SQL, the
// key columns in casts written with the wider type ("account_id" → "bigint"). The data is
// repartitioned by the bucket columns into the bucket count before the write, so that each
// bucket is written by one task as one file (without it every write task emits a file per
// bucket it sees). A v2 table (Iceberg) gets its spec as bucket transforms instead
// (icebergCode). The advisor and the rules' fixes print the same code.
func LayoutCode(t *plan.Table, spec *plan.BucketSpec, casts map[string]string) Code {
	r := rewrite{t: t, spec: spec, casts: casts, format: RewriteFormat(t)}
	if plan.V2CatalogFormat(t.Format) {
		return r.icebergCode()
	}
	return Code{
		PySpark: r.pyspark(),
		Scala:   r.scala(),
		SQL:     r.createInsert(),
		CTAS:    r.createAsSelect(),
		Java:    r.java(),
		DBT:     r.dbt(),
	}
}

// A rewrite is one table written anew with a bucket spec, in a data source format, its key
// columns in casts (lower case) written with a wider type.
type rewrite struct {
	t      *plan.Table
	spec   *plan.BucketSpec
	casts  map[string]string
	format string
}

// castNames are the columns the rewrite casts, sorted.
func (r rewrite) castNames() []string {
	names := make([]string, 0, len(r.casts))
	for c := range r.casts {
		names = append(names, c)
	}
	sort.Strings(names)
	return names
}

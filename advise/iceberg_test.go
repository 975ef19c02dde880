package advise

import (
	"strconv"
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/parser/code"
	"github.com/bucketlint/bucketlint/parser/sql"
	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
)

// icebergDDL are two large Iceberg tables joined on cust, neither partitioned.
const icebergDDL = `
CREATE TABLE orders (order_id BIGINT, cust INT, amount DECIMAL(10,2)) USING iceberg;
CREATE TABLE customers (cust INT, name STRING COMMENT 'display name') USING iceberg;
`

// TestAdviseIceberg checks the advice for Iceberg tables: a layout of bucket transforms
// (never bucketBy, which Iceberg does not take), the two settings a storage-partitioned join
// needs, a simulation after without a shuffle, and code that parses back: the SQL and the
// CTAS into a table partitioned by bucket(n, cust), the PySpark and Scala into a
// DataFrameWriterV2 write of the table (parser/code does not read the transforms inside
// partitionedBy, so they are checked as text).
func TestAdviseIceberg(t *testing.T) {
	t.Parallel()
	p, err := sql.New()
	if err != nil {
		t.Fatal(err)
	}
	f, errs := p.ParseFile("ddl.sql", []byte(icebergDDL))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	tables := map[string]*plan.Table{}
	for _, tb := range f.Tables {
		tb.SizeInBytes = 50 << 30
		tables[tb.Name] = tb
	}
	qf, errs := p.ParseFile("q.sql", []byte("SELECT o.order_id, c.name FROM orders o JOIN customers c ON o.cust = c.cust"))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	recs := Advise(tables, []WeightedQuery{{Query: qf.Queries[0], Weight: 1}}, Options{Spark: simulate.Options{SparkVersion: simulate.Version{Major: 3, Minor: 5, Patch: -1}}})
	if len(recs) != 2 {
		t.Fatalf("%d recommendations, want 2: %+v", len(recs), recs)
	}
	for _, r := range recs {
		if r.Bucket == nil || strings.Join(r.Bucket.Columns, ",") != "cust" {
			t.Fatalf("%s: layout %+v, want bucket(n, cust)", r.Table, r.Bucket)
		}
		if r.Confs[simulate.ConfV2Bucketing] != "true" || r.Confs[simulate.ConfIcebergPreserveGrouping] != "true" {
			t.Errorf("%s: confs %v, want both storage-partitioned join settings", r.Table, r.Confs)
		}
		if len(r.Queries) != 1 || r.Queries[0].After.Exchanges != 0 || r.ShufflesRemoved != 2 {
			t.Errorf("%s: after the advice %d queries, %d shuffles removed\n%s", r.Table, len(r.Queries), r.ShufflesRemoved, dumpOutcomes(r))
		}
		want := "bucket(" + itoaN(r.Bucket.NumBuckets) + ", cust)"
		for _, src := range []struct{ name, sql string }{{"SQL", r.Code.SQL}, {"CTAS", r.Code.CTAS}} {
			checkIcebergSQL(t, p, r.Table, src.name, src.sql, want)
		}
		for _, lang := range []struct{ file, src string }{{"layout.py", r.Code.PySpark}, {"Layout.scala", r.Code.Scala}, {"Layout.java", r.Code.Java}} {
			// The code, parsed back, defines the table with the advised transforms.
			cf, errs := code.Parse(lang.file, []byte(lang.src))
			if len(errs) > 0 || len(cf.Writes) != 1 || cf.Writes[0].Terminal != "writeTo" || cf.Writes[0].Mode != "createorreplace" ||
				cf.Writes[0].Table != r.Table || cf.Writes[0].Format != "iceberg" || cf.Writes[0].Bucket != nil {
				t.Errorf("%s %s: %v %+v\n%s", r.Table, lang.file, errs, cf.Writes, lang.src)
				continue
			}
			tb, ok := plan.TableOfWrite(cf.Writes[0])
			if !ok || tb.Layout == nil || tb.Layout.String() != want {
				t.Errorf("%s %s: the code defines %+v, want a table partitioned by %s:\n%s", r.Table, lang.file, tb, want, lang.src)
			}
		}
		if !strings.Contains(r.Code.DBT, "'"+want+"'") {
			t.Errorf("%s: dbt code:\n%s", r.Table, r.Code.DBT)
		}
	}
}

// checkIcebergSQL parses the advised SQL back: one table, Iceberg, partitioned by want.
func checkIcebergSQL(t *testing.T, p *sql.Parser, table, name, src, want string) {
	t.Helper()
	f, errs := p.ParseFile("advice.sql", []byte(src))
	if len(errs) > 0 || len(f.Tables) != 1 {
		t.Fatalf("%s %s: %v, %d tables\n%s", table, name, errs, len(f.Tables), src)
	}
	tb := f.Tables[0]
	trs := tb.PartitionTransforms()
	if tb.Name != table || !strings.EqualFold(tb.Format, "iceberg") || len(trs) != 1 || trs[0].Text != want || tb.Buckets() != nil {
		t.Errorf("%s %s: table %s format %s layout %v, want Iceberg partitioned by %s\n%s", table, name, tb.Name, tb.Format, tb.Layout, want, src)
	}
}

func itoaN(n int) string { return strconv.Itoa(n) }

func dumpOutcomes(r Recommendation) string {
	var b strings.Builder
	for _, o := range r.Queries {
		b.WriteString(dump(o.After))
	}
	return b.String()
}

package simulate

import (
	"testing"

	"github.com/bucketlint/bucketlint/parser/sql"
	"github.com/bucketlint/bucketlint/plan"
)

// TestHiveTableScans checks the scan the simulator predicts for Hive-serde tables against what
// Spark 3.5.9 and 4.3.0 planned (fixtures/spark/*/hive): a Parquet or ORC serde is read by the
// file source, never bucketed, unless spark.sql.hive.convertMetastoreParquet or …Orc is false;
// any other serde is a HiveTableScan.
func TestHiveTableScans(t *testing.T) {
	t.Parallel()
	p, err := sql.New()
	if err != nil {
		t.Fatal(err)
	}
	const bucketed = " CLUSTERED BY (a) INTO 8 BUCKETS"
	for _, tc := range []struct {
		name, ddl string
		confs     map[string]string
		want      string
	}{
		{"parquet", "CREATE TABLE h (a INT, b INT)" + bucketed + " STORED AS PARQUET", nil, "FileScan parquet"},
		{"parquet off", "CREATE TABLE h (a INT, b INT)" + bucketed + " STORED AS PARQUET", map[string]string{ConfConvertMetastoreParquet: "false"}, "Scan hive"},
		{"parquet, orc off", "CREATE TABLE h (a INT, b INT)" + bucketed + " STORED AS PARQUET", map[string]string{ConfConvertMetastoreOrc: "false"}, "FileScan parquet"},
		{"orc", "CREATE TABLE h (a INT, b INT)" + bucketed + " STORED AS ORC", nil, "FileScan orc"},
		{"orc off", "CREATE TABLE h (a INT, b INT)" + bucketed + " STORED AS ORC", map[string]string{ConfConvertMetastoreOrc: "false"}, "Scan hive"},
		{"textfile", "CREATE TABLE h (a INT, b INT)" + bucketed + " STORED AS TEXTFILE", nil, "Scan hive"},
		{"serde", "CREATE TABLE h (a INT, b INT)" + bucketed + " ROW FORMAT SERDE 'org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe' STORED AS INPUTFORMAT 'x' OUTPUTFORMAT 'y'", nil, "FileScan parquet"},
		{"inputformat only", "CREATE TABLE h (a INT, b INT) STORED AS INPUTFORMAT 'org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat' OUTPUTFORMAT 'y'", nil, "Scan hive"},
		{"using hive", "CREATE TABLE h (a INT, b INT) USING hive OPTIONS (fileFormat 'parquet')", nil, "FileScan parquet"},
		{"using hive text", "CREATE TABLE h (a INT, b INT) USING hive" + bucketed, nil, "Scan hive"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f, errs := p.ParseFile("w.sql", []byte(tc.ddl+";\nSELECT a, count(*) AS c FROM h GROUP BY a;"))
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			res, err := Simulate(map[string]*plan.Table{"h": f.Tables[0]}, f.Queries[0], Options{Confs: tc.confs})
			if err != nil {
				t.Fatal(err)
			}
			var got string
			exchanges := 0
			plan.Walk(res.Plan, func(n plan.Node) bool {
				switch x := n.(type) {
				case *plan.FileScan:
					got = "FileScan " + x.Format
					if scanBucketed(x, res) {
						got += " bucketed"
					}
				case *plan.HiveTableScan:
					got = "Scan hive"
				case *plan.Exchange:
					exchanges++
				}
				return true
			})
			if got != tc.want || exchanges != 1 {
				t.Fatalf("scan %q with %d exchanges, want %q with 1 (the aggregate's)", got, exchanges, tc.want)
			}
		})
	}
}

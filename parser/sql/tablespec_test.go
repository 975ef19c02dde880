package sql

import (
	"fmt"
	"testing"
)

func TestParseTableSpec(t *testing.T) {
	t.Parallel()
	p, err := New()
	if err != nil {
		t.Fatal(err)
	}
	for spec, want := range map[string]string{
		"db.t: parquet CLUSTERED BY (k) INTO 8 BUCKETS":                              "db.t parquet hive=false 8 [k] sorted [] parts []",
		"db.T: CLUSTERED BY (K, j) SORTED BY (j) INTO 4 BUCKETS PARTITIONED BY (dt)": "db.t  hive=false 4 [k j] sorted [j] parts [dt]",
		"default.hv: CLUSTERED BY (k) INTO 4 BUCKETS STORED AS PARQUET":              "default.hv hive hive=true 4 [k] sorted [] parts []",
		"t: hive CLUSTERED BY (s) INTO 4 BUCKETS":                                    "t hive hive=true 4 [s] sorted [] parts []",
		"t: USING hive CLUSTERED BY (dt) INTO 4 BUCKETS":                             "t hive hive=true 4 [dt] sorted [] parts []",
		"CLUSTERED BY (k) INTO 2 BUCKETS":                                            "table  hive=false 2 [k] sorted [] parts []",
		"t: parquet PARTITIONED BY (p)":                                              "t parquet hive=false no bucket",
		"t: CLUSTERED BY (k) INTO x BUCKETS":                                         "error",
		"t: CLUSTERED BY (k INTO 2 BUCKETS":                                          "error",
		"t: parquet USING orc CLUSTERED BY (k) INTO 2 BUCKETS":                       "error",
	} {
		tb, errs := p.ParseTableSpec("--table-spec", spec)
		got := "error"
		if len(errs) == 0 {
			got = fmt.Sprintf("%s %s hive=%v ", tb.Name, tb.Format, tb.Hive)
			if b := tb.Buckets(); b != nil {
				got += fmt.Sprintf("%d %v sorted %v parts %v", b.NumBuckets, b.Columns, b.SortColumns, tb.PartitionColumns)
			} else {
				got += "no bucket"
			}
		}
		if got != want {
			t.Errorf("%q: %s, want %s", spec, got, want)
		}
	}
}

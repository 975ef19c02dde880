package plan

import "testing"

// TestTableOfWrite checks which writes define a table, and the layout each gets.
func TestTableOfWrite(t *testing.T) {
	t.Parallel()
	bucket := func(n string, col string) Transform {
		return Transform{Text: "bucket(" + n + ", " + col + ")", X: &X{Op: OpCall, Name: "bucket", Args: []*X{{Op: OpLiteral, Value: n, Raw: n}, {Op: OpColumn, Name: col, Raw: col}}}}
	}
	days := Transform{Text: "days(ts)", X: &X{Op: OpCall, Name: "days", Args: []*X{{Op: OpColumn, Name: "ts", Raw: "ts"}}}}
	for _, tc := range []struct {
		name string
		w    Write
		ok   bool
		want string // the layout's String(), "" for none
	}{
		{"saveAsTable bucketed", Write{Table: "t", Terminal: "saveAsTable", Bucket: &BucketSpec{NumBuckets: 8, Columns: []string{"k"}}}, true, "8 buckets by (k)"},
		{"saveAsTable, columns not known", Write{Table: "t", Terminal: "saveAsTable", Bucket: &BucketSpec{NumBuckets: 8, ColumnsExpr: "cols"}}, false, ""},
		{"saveAsTable plain", Write{Table: "t", Terminal: "saveAsTable"}, true, ""},
		{"save by path", Write{Path: "/p", Terminal: "save"}, false, ""},
		{"insertInto", Write{Table: "t", Terminal: "insertInto"}, false, ""},
		{"writeTo iceberg create", Write{Table: "db.t", Terminal: "writeTo", Mode: "create", Format: "iceberg", Transforms: []Transform{bucket("16", "k"), days}}, true, "bucket(16, k), days(ts)"},
		{"writeTo session parquet: bucket transform is the bucket spec", Write{Table: "db.t", Terminal: "writeTo", Mode: "replace", Transforms: []Transform{bucket("4", "k")}}, true, "4 buckets by (k)"},
		{"writeTo append defines nothing", Write{Table: "db.t", Terminal: "writeTo", Mode: "append", Format: "iceberg", Transforms: []Transform{bucket("16", "k")}}, false, ""},
		{"writeTo partitioning not known", Write{Table: "db.t", Terminal: "writeTo", Mode: "create", Format: "iceberg", TransformsExpr: "bucket(n, k)"}, false, ""},
		{"writeTo another catalog without using", Write{Table: "ice.db.t", Terminal: "writeTo", Mode: "createorreplace", Transforms: []Transform{bucket("16", "k")}}, false, ""},
		{"writeTo spark_catalog without using", Write{Table: "spark_catalog.db.t", Terminal: "writeTo", Mode: "create", Transforms: []Transform{bucket("16", "k")}}, true, "16 buckets by (k)"},
	} {
		tab, ok := TableOfWrite(&tc.w)
		if ok != tc.ok {
			t.Errorf("%s: ok %v, want %v", tc.name, ok, tc.ok)
			continue
		}
		got := ""
		if ok && tab.Layout != nil {
			got = tab.Layout.String()
		}
		if got != tc.want {
			t.Errorf("%s: layout %q, want %q", tc.name, got, tc.want)
		}
	}
}

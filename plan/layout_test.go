package plan

import (
	"fmt"
	"testing"
)

func TestComposeLayout(t *testing.T) {
	t.Parallel()
	spec := func(n int, cols ...string) *BucketSpec { return &BucketSpec{NumBuckets: n, Columns: cols} }
	tr := func(text string, x *X) Transform { return Transform{Text: text, X: x} }
	bucket16 := tr("bucket(16, id)", bucketTree(spec(16, "id")))
	days := tr("days(ts)", &X{Op: OpCall, Name: "days", Args: []*X{{Op: OpColumn, Name: "ts"}}})
	tests := []struct {
		name       string
		format     string
		hive       bool
		spec       *BucketSpec
		transforms []Transform
		cluster    []string
		want       string
	}{
		{"nothing", "parquet", false, nil, nil, nil, "<nil>"},
		{"data source CLUSTERED BY", "parquet", false, spec(8, "id"), nil, nil, "*plan.SparkBuckets 8 buckets by (id)"},
		{"default provider", "", false, spec(8, "id"), nil, nil, "*plan.SparkBuckets 8 buckets by (id)"},
		{"Hive serde CLUSTERED BY", "hive", true, spec(8, "id"), nil, nil, "*plan.HiveBuckets Hive 8 buckets by (id)"},
		{"file source bucket transform is bucketing", "parquet", false, nil, []Transform{bucket16}, nil, "*plan.SparkBuckets 16 buckets by (id)"},
		{"Iceberg bucket transform", "iceberg", false, nil, []Transform{bucket16, days}, nil, "*plan.Transforms bucket(16, id), days(ts)"},
		{"Iceberg CLUSTERED BY becomes a transform", "iceberg", false, spec(4, "id"), nil, nil, "*plan.Transforms bucket(4, id)"},
		{"Iceberg transforms and CLUSTERED BY", "iceberg", false, spec(4, "k"), []Transform{days}, nil, "*plan.Transforms days(ts), bucket(4, k)"},
		{"Delta CLUSTERED BY stays as declared", "delta", false, spec(4, "id"), nil, nil, "*plan.SparkBuckets 4 buckets by (id)"},
		{"CLUSTER BY", "delta", false, nil, nil, []string{"a", "b"}, "*plan.Clustering clustered by (a, b)"},
	}
	for _, tc := range tests {
		l := ComposeLayout(tc.format, tc.hive, tc.spec, tc.transforms, tc.cluster)
		got := "<nil>"
		if l != nil {
			got = fmt.Sprintf("%T %s", l, l)
		}
		if got != tc.want {
			t.Errorf("%s: got %s, want %s", tc.name, got, tc.want)
		}
	}
}

func TestTableBuckets(t *testing.T) {
	t.Parallel()
	tb := &Table{Name: "t"}
	if tb.Buckets() != nil || tb.DeclaredBuckets() != nil || tb.HiveBucketed() {
		t.Fatal("a table without a layout is not bucketed")
	}
	tb.SetBuckets(&BucketSpec{NumBuckets: 4, Columns: []string{"id"}})
	if _, ok := tb.Layout.(*SparkBuckets); !ok || tb.Buckets().NumBuckets != 4 {
		t.Fatalf("SetBuckets on a data-source table: %T", tb.Layout)
	}
	tb.Hive = true
	tb.RetagBuckets()
	if !tb.HiveBucketed() || tb.Buckets().NumBuckets != 4 {
		t.Fatalf("RetagBuckets after learning Hive: %T", tb.Layout)
	}
	c := CloneLayout(tb.Layout)
	c.(*HiveBuckets).Columns[0] = "x"
	if tb.Buckets().Columns[0] != "id" {
		t.Error("CloneLayout shares the column slice")
	}
	tb.SetBuckets(nil)
	if tb.Layout != nil {
		t.Errorf("SetBuckets(nil) leaves %T", tb.Layout)
	}
	tb.Layout = &Clustering{Columns: []string{"a"}}
	tb.SetBuckets(nil)
	if len(tb.ClusterBy()) != 1 {
		t.Error("SetBuckets(nil) removed clustering")
	}
	ice := &Table{Layout: ComposeLayout("iceberg", false, &BucketSpec{NumBuckets: 8, Columns: []string{"k"}}, nil, nil)}
	if ice.Buckets() != nil || ice.DeclaredBuckets() == nil || ice.DeclaredBuckets().NumBuckets != 8 {
		t.Errorf("Iceberg CLUSTERED BY: buckets %v, declared %v", ice.Buckets(), ice.DeclaredBuckets())
	}
}

package catalog

import (
	"bytes"
	"flag"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/internal/golden"
	"github.com/bucketlint/bucketlint/plan"
)

var update = flag.Bool("update", false, "rewrite golden sections")

// TestRead decodes each testdata/*.txtar "catalog.yaml" section and compares the tables and
// errors with the "want" section.
func TestRead(t *testing.T) {
	for _, c := range golden.Load(t, "testdata/*.txtar", *update) {
		t.Run(c.Name(), func(t *testing.T) {
			src, ok := c.File("catalog.yaml")
			if !ok {
				t.Fatal("no catalog.yaml section")
			}
			tables, errs := Read("catalog.yaml", src)
			var b strings.Builder
			for _, tb := range tables {
				dumpTable(&b, tb)
			}
			for _, e := range errs {
				fmt.Fprintf(&b, "error %s\n", e)
			}
			c.Check(t, "want", []byte(b.String()))
			c.Save(t)
		})
	}
}

func dumpTable(b *strings.Builder, t *plan.Table) {
	fmt.Fprintf(b, "table %s format=%q hive=%v location=%q size=%d rows=%d files=%d\n", t.Name, t.Format, t.Hive, t.Location, t.SizeInBytes, t.RowCount, t.FileCount)
	for _, c := range t.Columns {
		fmt.Fprintf(b, "  column %s %s\n", c.Name, c.Type)
	}
	if len(t.PartitionColumns) > 0 {
		fmt.Fprintf(b, "  partitioned by %v\n", t.PartitionColumns)
	}
	if s := t.Buckets(); s != nil {
		fmt.Fprintf(b, "  bucket %d by %v sorted by %v at %s\n", s.NumBuckets, s.Columns, s.SortColumns, s.Span.Start)
	}
	for _, s := range t.Sources {
		fmt.Fprintf(b, "  source %s\n", s)
	}
}

// TestIsCatalog tells catalogs from other YAML.
func TestIsCatalog(t *testing.T) {
	t.Parallel()
	for src, want := range map[string]bool{
		"bucketlint:\n  version: 1\n":          true,
		"tables: []\nbucketlint: {version: 1}": true,
		"name: ci\n  bucketlint: 1\n":          false,
		"spark:\n  version: 3.5\n":             false,
	} {
		if got := IsCatalog([]byte(src)); got != want {
			t.Errorf("IsCatalog(%q) = %v, want %v", src, got, want)
		}
	}
}

// TestRoundTrip writes tables and reads them back: every fact survives.
func TestRoundTrip(t *testing.T) {
	t.Parallel()
	in := []*plan.Table{
		{
			Name: "sales.orders", Format: "parquet", Location: "s3://lake/orders",
			Columns:          []plan.Column{{Name: "id", Type: "bigint"}, {Name: "customer_id", Type: "bigint"}, {Name: "dt", Type: "date"}},
			PartitionColumns: []string{"dt"},
			Layout:           &plan.SparkBuckets{BucketSpec: plan.BucketSpec{NumBuckets: 16, Columns: []string{"customer_id"}, SortColumns: []string{"customer_id", "id"}}},
			SizeInBytes:      1 << 40, RowCount: 12, FileCount: 4096,
			Sources: []plan.Pos{{File: "ddl/orders.sql", Line: 3, Col: 1}},
		},
		{Name: "h", Format: "hive", Hive: true, SizeInBytes: -1, RowCount: -1},
		{Name: "t", Format: "orc", Hive: true, SizeInBytes: 0, RowCount: -1, Columns: []plan.Column{{Name: "a", Type: "map<string,int>"}}},
		{Name: "empty", SizeInBytes: -1, RowCount: -1},
	}
	var buf bytes.Buffer
	if err := Write(&buf, in); err != nil {
		t.Fatal(err)
	}
	out, errs := Read("c.yaml", buf.Bytes())
	if len(errs) > 0 {
		t.Fatalf("reading what Write wrote:\n%s\n%v", buf.String(), errs)
	}
	if len(out) != len(in) {
		t.Fatalf("read %d tables, want %d", len(out), len(in))
	}
	for i := range in {
		var want, got strings.Builder
		a, b := *in[i], *out[i]
		a.Sources, b.Sources = nil, nil
		if a.Buckets() != nil {
			sa, sb := *a.Buckets(), *b.Buckets()
			sa.Span, sb.Span = plan.Span{}, plan.Span{}
			a.SetBuckets(&sa)
			b.SetBuckets(&sb)
		}
		for j := range b.Columns {
			b.Columns[j].Pos = plan.Pos{}
		}
		dumpTable(&want, &a)
		dumpTable(&got, &b)
		if want.String() != got.String() || !reflect.DeepEqual(a.Columns, b.Columns) && len(a.Columns) > 0 {
			t.Errorf("table %d after a round trip:\n%s\nwant\n%s\nyaml:\n%s", i, got.String(), want.String(), buf.String())
		}
	}
	if !strings.Contains(buf.String(), "# from ddl/orders.sql:3\n") {
		t.Errorf("sources comment missing:\n%s", buf.String())
	}
}

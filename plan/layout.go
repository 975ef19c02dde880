package plan

import (
	"strconv"
	"strings"
)

// A Layout is how a table places its rows into files beyond identity partitioning
// (PartitionColumns): exactly one of *SparkBuckets, *HiveBuckets, *Transforms and
// *Clustering, or nil when the table declares none. Spark's own model is the same: a CREATE
// TABLE's CLUSTERED BY … INTO n BUCKETS is a bucket transform that the session catalog turns
// back into a bucket spec for file-source tables and passes on as a transform to v2 catalogs.
type Layout interface {
	// String describes the layout for messages: "8 buckets by (id)", "bucket(16, id), days(ts)".
	String() string
	layout()
}

// SparkBuckets is Spark bucketing: bucketBy(n, cols…) or CLUSTERED BY … INTO n BUCKETS on a
// data-source table, hashed with Murmur3 and read as bucketed by Spark's file scans.
type SparkBuckets struct{ BucketSpec }

// HiveBuckets is Hive bucketing: CLUSTERED BY … INTO n BUCKETS on a Hive-serde table (STORED
// AS, ROW FORMAT, or a catalog's Hive table). Hive hashes rows with its own function and
// Spark never reads such a table as bucketed.
type HiveBuckets struct{ BucketSpec }

// Transforms is v2 partitioning by transforms (Iceberg's bucket(16, id), days(ts), …): the
// catalog's layout, not Spark bucketing. A CLUSTERED BY clause on such a table is one of its
// transforms, as Spark passes it.
type Transforms struct{ Items []Transform }

// Clustering is CLUSTER BY (cols…): Delta liquid clustering or Spark 4.0+ clustering
// metadata. It orders data within files and never removes a shuffle.
type Clustering struct{ Columns []string }

// A Transform is one v2 partition transform.
type Transform struct {
	// Text is the transform as written, lower case: "bucket(16, id)", "days(ts)".
	Text string
	// X is its tree: bucket(16, id) is a call of bucket on the literal 16 and the column id.
	X *X
	// FromBucketSpec reports a transform that a CLUSTERED BY … INTO n BUCKETS clause declared;
	// Spec is that clause's spec.
	FromBucketSpec bool
	Spec           *BucketSpec
}

func (*SparkBuckets) layout() {}
func (*HiveBuckets) layout()  {}
func (*Transforms) layout()   {}
func (*Clustering) layout()   {}

// String describes the bucket spec.
func (l *SparkBuckets) String() string { return l.BucketSpec.String() }

// String describes the bucket spec, marked as Hive's.
func (l *HiveBuckets) String() string { return "Hive " + l.BucketSpec.String() }

// String lists the transforms as written.
func (l *Transforms) String() string {
	s := make([]string, len(l.Items))
	for i, t := range l.Items {
		s[i] = t.Text
	}
	return strings.Join(s, ", ")
}

// String names the clustering columns.
func (l *Clustering) String() string {
	return "clustered by (" + strings.Join(l.Columns, ", ") + ")"
}

// Buckets returns the table's bucket spec, Spark's or Hive's, and nil when the table is not
// bucketed (a transform layout, clustering or none).
func (t *Table) Buckets() *BucketSpec {
	switch l := t.Layout.(type) {
	case *SparkBuckets:
		return &l.BucketSpec
	case *HiveBuckets:
		return &l.BucketSpec
	}
	return nil
}

// SetBuckets sets the table's layout to bucketing by spec, Hive's when the table is a
// Hive-serde table; a nil spec removes bucketing (other layouts stay).
func (t *Table) SetBuckets(spec *BucketSpec) {
	switch {
	case spec == nil:
		if t.Buckets() != nil {
			t.Layout = nil
		}
	case t.Hive:
		t.Layout = &HiveBuckets{*spec}
	default:
		t.Layout = &SparkBuckets{*spec}
	}
}

// HiveBucketed reports Hive bucketing.
func (t *Table) HiveBucketed() bool {
	_, ok := t.Layout.(*HiveBuckets)
	return ok
}

// PartitionTransforms returns the v2 partition transforms, nil for any other layout.
func (t *Table) PartitionTransforms() []Transform {
	if l, ok := t.Layout.(*Transforms); ok {
		return l.Items
	}
	return nil
}

// ClusterBy returns the CLUSTER BY columns, nil for any other layout.
func (t *Table) ClusterBy() []string {
	if l, ok := t.Layout.(*Clustering); ok {
		return l.Columns
	}
	return nil
}

// RetagBuckets makes a bucketed table's layout Hive's or Spark's as the table's Hive flag now
// says; a merge of sources can learn that flag after the spec.
func (t *Table) RetagBuckets() {
	if b := t.Buckets(); b != nil {
		t.SetBuckets(b)
	}
}

// ComposeLayout is the layout of a CREATE TABLE's clauses as Spark's session catalog makes it
// for a table of format (hive tells a Hive-serde table): CLUSTER BY is clustering; bucket
// transforms of a file-source table become its bucket spec (CatalogV2Implicits
// convertTransforms, 3.0+); other transforms make a transform layout, to which a CLUSTERED BY
// spec is appended as a bucket transform; else the spec is bucketing. It returns nil when no
// clause declares a layout.
func ComposeLayout(format string, hive bool, spec *BucketSpec, transforms []Transform, cluster []string) Layout {
	if len(cluster) > 0 {
		return &Clustering{Columns: cluster}
	}
	f := strings.TrimPrefix(strings.ToLower(format), "org.apache.spark.sql.")
	v1 := FileSourceFormat(f) || f == "hive"
	if v1 || hive {
		var kept []Transform
		for _, tr := range transforms {
			if s, ok := BucketTransform(tr.X); ok && spec == nil {
				spec = s
				continue
			}
			kept = append(kept, tr)
		}
		transforms = kept
	}
	if len(transforms) == 0 && spec == nil {
		return nil
	}
	if len(transforms) == 0 && (v1 || hive || !V2CatalogFormat(format)) {
		if hive {
			return &HiveBuckets{*spec}
		}
		return &SparkBuckets{*spec}
	}
	if spec != nil {
		transforms = append(transforms, Transform{Text: bucketText(spec), X: bucketTree(spec), FromBucketSpec: true, Spec: spec})
	}
	return &Transforms{Items: transforms}
}

// FileSourceFormat reports a DataSource V1 file format (lower case; "" is the default
// source): the session catalog keeps such a table as a file-source table, for which a bucket
// transform is bucketing, and FileSourceScanExec reads it with its bucket spec.
func FileSourceFormat(format string) bool {
	switch format {
	case "", "parquet", "orc", "csv", "json", "text", "avro":
		return true
	}
	return false
}

// V2CatalogFormat reports a format whose catalog takes partition transforms as its own
// layout and which Spark reads through DataSource V2 (Iceberg, Hudi, Paimon).
func V2CatalogFormat(format string) bool {
	switch strings.ToLower(format) {
	case "iceberg", "hudi", "paimon":
		return true
	}
	return false
}

func bucketText(spec *BucketSpec) string {
	return "bucket(" + strconv.Itoa(spec.NumBuckets) + ", " + strings.Join(spec.Columns, ", ") + ")"
}

func bucketTree(spec *BucketSpec) *X {
	args := []*X{{Op: OpLiteral, Value: strconv.Itoa(spec.NumBuckets), Raw: strconv.Itoa(spec.NumBuckets)}}
	for _, c := range spec.Columns {
		args = append(args, &X{Op: OpColumn, Name: c, Raw: c})
	}
	return &X{Op: OpCall, Name: "bucket", Args: args, Raw: bucketText(spec)}
}

// CloneLayout returns a deep copy of l.
func CloneLayout(l Layout) Layout {
	switch l := l.(type) {
	case *SparkBuckets:
		return &SparkBuckets{*l.Clone()}
	case *HiveBuckets:
		return &HiveBuckets{*l.Clone()}
	case *Transforms:
		c := &Transforms{Items: make([]Transform, len(l.Items))}
		for i, t := range l.Items {
			c.Items[i] = t
			c.Items[i].Spec = t.Spec.Clone()
		}
		return c
	case *Clustering:
		return &Clustering{Columns: append([]string(nil), l.Columns...)}
	}
	return nil
}

// Clone returns a copy of b that shares no slices with it; nil for nil.
func (b *BucketSpec) Clone() *BucketSpec {
	if b == nil {
		return nil
	}
	c := *b
	c.Columns = append([]string(nil), b.Columns...)
	c.SortColumns = append([]string(nil), b.SortColumns...)
	return &c
}

// DeclaredBuckets is the bucket spec a CLUSTERED BY … INTO n BUCKETS clause or a bucketBy call
// declared for the table, whatever layout it became: the table's bucketing, or the bucket
// transform a v2 catalog made of it. nil when none was declared.
func (t *Table) DeclaredBuckets() *BucketSpec {
	if b := t.Buckets(); b != nil {
		return b
	}
	for _, tr := range t.PartitionTransforms() {
		if tr.FromBucketSpec {
			return tr.Spec
		}
	}
	return nil
}

package explain

import (
	"testing"

	"github.com/bucketlint/bucketlint/plan"
)

// TestPartitioning reads an Exchange's partitioning argument as Spark prints it, the
// key-grouped one of a storage-partitioned join included (Spark 4.1.4 with Iceberg 1.12.0,
// fixtures/spark-iceberg/4.1/iceberg/one_side_unpartitioned_shuffle_spj).
func TestPartitioning(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		kind plan.PartitioningKind
		n    int
		keys string
	}{
		{"hashpartitioning(k#1, 200)", plan.HashPartitioning, 200, "k"},
		{
			"keygroupedpartitioning(transformexpression(org.apache.iceberg.spark.functions.BucketFunction$BucketInt@1a2b3c, a#70, Some(8)), 8, org.apache.iceberg.spark.source.StructInternalRow@4d5e6f, false, true)",
			plan.KeyGroupedPartitioning, 8, "transformexpression(org.apache.iceberg.spark.functions.BucketFunction$BucketInt@1a2b3c, a, Some(8))",
		},
		{"keygroupedpartitioning(a#1)", plan.KeyGroupedPartitioning, 0, "a"},
	} {
		p := new(arena).partitioning(tc.in)
		keys := ""
		for i, k := range p.Keys {
			if i > 0 {
				keys += ", "
			}
			keys += k.Text()
		}
		if p.Kind != tc.kind || p.NumPartitions != tc.n || keys != tc.keys {
			t.Errorf("partitioning(%q) = %s %d [%s], want %s %d [%s]", tc.in, p.Kind, p.NumPartitions, keys, tc.kind, tc.n, tc.keys)
		}
	}
}

package rules

import (
	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
	"github.com/bucketlint/bucketlint/workload"
)

// Shared by the storage-partitioned join rules (BL312, BL313, BL405): Iceberg tables
// partitioned by transforms, joined through Spark's KeyGroupedPartitioning.

// spjSettings are the two settings a storage-partitioned join of Iceberg tables needs.
func spjSettings() map[string]string {
	return map[string]string{
		simulate.ConfV2Bucketing:             "true",
		simulate.ConfIcebergPreserveGrouping: "true",
	}
}

// v2Partitioned reports a table partitioned by v2 transforms or identity columns in a
// DataSource V2 format (Iceberg): one whose scan can report a key grouping.
func v2Partitioned(t *plan.Table) bool {
	return t != nil && (len(t.PartitionTransforms()) > 0 || plan.V2CatalogFormat(t.Format) && len(t.PartitionColumns) > 0)
}

// partitionText names a v2 table's partition fields: "bucket(8, k)", "bucket(8, k), v".
func partitionText(t *plan.Table) string {
	s := ""
	if l, ok := t.Layout.(*plan.Transforms); ok {
		s = l.String()
	}
	for _, c := range t.PartitionColumns {
		if s != "" {
			s += ", "
		}
		s += c
	}
	return s
}

// partitionRelated points at a v2 table's declaration: "b is partitioned by bucket(4, k) here".
func partitionRelated(t *plan.Table) []Related {
	s := tableSpan(t)
	if !s.Start.IsValid() {
		return nil
	}
	if !v2Partitioned(t) {
		return []Related{{Span: s, Message: t.Name + " is declared here, not partitioned"}}
	}
	return []Related{{Span: s, Message: t.Name + " is partitioned by (" + partitionText(t) + ") here"}}
}

// sideDecided reports whether the simulation shuffled side for one of the causes.
func sideDecided(side *workload.Side, causes ...simulate.Cause) bool {
	if !side.Shuffled {
		return false
	}
	for _, c := range causes {
		if side.Decision == c {
			return true
		}
	}
	return false
}

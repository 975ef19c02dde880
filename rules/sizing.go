package rules

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// partitioned reports whether t is partitioned. Each partition then holds its own files for
// every bucket, so a bucket file is the table's size divided by the bucket count and by the
// number of partitions, which no input records: sizes derived from the whole table are upper
// bounds.
func partitioned(t *plan.Table) bool { return t != nil && len(t.PartitionColumns) > 0 }

// onePartition reports whether a query restricts t to one value of each of its partition
// columns (WHERE dt = '…', or IN with one value), so that it reads one partition of t.
func onePartition(q *plan.Query, t *plan.Table) bool {
	if q == nil || !partitioned(t) {
		return false
	}
	fixed := map[string]bool{}
	q.WalkRelations(func(r *plan.Relation) bool {
		if r.Kind != plan.SelectRel || r.Select == nil {
			return true
		}
		for _, f := range r.Select.Filters {
			if len(f.Values) != 1 || !containsFold(t.PartitionColumns, f.Column.Column) {
				continue
			}
			if f.Column.Table == "" || lookup(map[string]*plan.Table{t.Name: t}, f.Column.Table) != nil {
				fixed[strings.ToLower(f.Column.Column)] = true
			}
		}
		return true
	})
	for _, c := range t.PartitionColumns {
		if !fixed[strings.ToLower(c)] {
			return false
		}
	}
	return true
}

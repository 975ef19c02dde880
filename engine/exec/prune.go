package exec

import (
	"slices"

	"github.com/bucketlint/bucketlint/engine/store"
	"github.com/bucketlint/bucketlint/plan"
)

// prunedBuckets returns the buckets a bucketed scan must read given its data filters, as
// Spark's FileSourceStrategy.genBucketSet does for a single bucket column: an equality or IN
// on the bucket column keeps only the literals' buckets. nil means every bucket. Filters the
// engine cannot parse prune nothing (the Filter above still applies them).
func prunedBuckets(x *plan.FileScan, t *store.Table, cols schema) []int {
	if len(t.Layout.BucketColumns) != 1 {
		return nil
	}
	var keep []int
	for _, f := range x.DataFilters {
		p, err := parsePredicate(f, cols)
		if err != nil || (p.op != "cmp" && p.op != "in") || (p.op == "cmp" && (p.col2 >= 0 || (p.cmp != "=" && p.cmp != "=="))) {
			continue
		}
		if !eqFold(cols[p.col].Name, t.Layout.BucketColumns[0]) {
			continue
		}
		n := p.lit.Len()
		ids := make([]int32, n)
		var h store.Hasher
		h.Buckets(ids, []*store.Vec{p.lit}, n, t.Layout.Buckets)
		var set []int
		for i, id := range ids {
			if !p.lit.IsNull(i) && !slices.Contains(set, int(id)) {
				set = append(set, int(id))
			}
		}
		if keep == nil {
			keep = set
		} else {
			keep = slices.DeleteFunc(keep, func(b int) bool { return !slices.Contains(set, b) })
		}
		if keep == nil {
			keep = []int{}
		}
	}
	return keep
}

// keepPartition evaluates the scan's partition filters on a file's partition values.
func keepPartition(x *plan.FileScan, t *store.Table, cols schema, f store.File) bool {
	if len(t.Layout.PartitionColumns) == 0 || len(x.PartitionFilters) == 0 {
		return true
	}
	b := store.NewBatch(cols.types(), 1)
	for i, c := range cols {
		pi := slices.IndexFunc(t.Layout.PartitionColumns, func(p string) bool { return eqFold(p, c.Name) })
		if pi < 0 || store.AppendParsed(b.Cols[i], f.Partition[pi]) != nil {
			b.Cols[i].AppendNull()
		}
	}
	b.Len = 1
	for _, pf := range x.PartitionFilters {
		p, err := parsePredicate(pf, cols)
		if err == nil && p.eval(b)[0] != vTrue {
			return false
		}
	}
	return true
}

func eqFold(a, b string) bool { return len(a) == len(b) && (a == b || lower(a) == lower(b)) }

func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

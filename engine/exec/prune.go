//go:build engine

package exec

import (
	"fmt"
	"slices"

	"github.com/bucketlint/bucketlint/engine/store"
	"github.com/bucketlint/bucketlint/plan"
)

// tableSchema returns the columns of a table as a schema without expression ids, so that a
// scan's filters resolve by name whether or not the scan outputs the column they test (a
// partition column is often filtered on and never read).
func tableSchema(t *store.Table) schema {
	out := make(schema, len(t.Schema))
	for i, c := range t.Schema {
		out[i] = column{Name: c.Name, Type: c.Type}
	}
	return out
}

// prunedBuckets returns the buckets a bucketed scan must read given its data filters, as
// Spark's FileSourceStrategy.genBucketSet does for a single bucket column: an equality or IN
// on the bucket column keeps only the literals' buckets. nil means every bucket, always for a
// Hive-bucketed layout, whose buckets are not Murmur3's. A data filter the engine cannot compile
// is an error naming it, never silently skipped.
func (e *executor) prunedBuckets(x *plan.FileScan, t *store.Table) ([]int, error) {
	cols := tableSchema(t)
	preds := make([]*predicate, len(x.DataFilters))
	for i, f := range x.DataFilters {
		p, err := compilePredicate(treeOf(f), cols)
		if err != nil {
			return nil, opErr(x, "data filter %q: %v", f.Raw, err)
		}
		preds[i] = p
	}
	if len(t.Layout.BucketColumns) != 1 || t.Layout.Bucketing == store.HiveBucketing {
		return nil, nil
	}
	var keep []int
	for _, p := range preds {
		if (p.op != "cmp" && p.op != "in") || (p.op == "cmp" && (p.col2 >= 0 || (p.cmp != "=" && p.cmp != "=="))) {
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
	return keep, nil
}

// partitionPruner evaluates a scan's partition filters on the partition values of a file.
type partitionPruner struct {
	cols  schema // the table's partition columns
	preds []*predicate
}

// newPartitionPruner compiles the scan's partition filters over the table's partition
// columns. A filter the engine cannot compile, or one that tests anything but partition
// columns, is an error naming the filter: skipping it would keep partitions Spark prunes.
// nil means every partition is kept.
func (e *executor) newPartitionPruner(x *plan.FileScan, t *store.Table) (*partitionPruner, error) {
	if len(x.PartitionFilters) == 0 {
		return nil, nil
	}
	if len(t.Layout.PartitionColumns) == 0 {
		return nil, opErr(x, "partition filters %q on table %s, which has no partition columns", plan.Texts(x.PartitionFilters), x.Table)
	}
	pp := &partitionPruner{}
	for _, name := range t.Layout.PartitionColumns {
		c := t.Schema.Index(name)
		if c < 0 {
			return nil, opErr(x, "partition column %s is not in the schema of %s", name, x.Table)
		}
		pp.cols = append(pp.cols, column{Name: t.Schema[c].Name, Type: t.Schema[c].Type})
	}
	for _, f := range x.PartitionFilters {
		p, err := compilePredicate(treeOf(f), pp.cols)
		if err != nil {
			return nil, opErr(x, "partition filter %q: %v", f.Raw, err)
		}
		pp.preds = append(pp.preds, p)
	}
	return pp, nil
}

// keep reports whether every partition filter is true for the file's partition values.
func (pp *partitionPruner) keep(f store.File) (bool, error) {
	if pp == nil {
		return true, nil
	}
	b := store.NewBatch(pp.cols.types(), 1)
	for i, c := range pp.cols {
		if i >= len(f.Partition) {
			return false, fmt.Errorf("file %s has no value for partition column %s", f.Path, c.Name)
		}
		if err := store.AppendParsed(b.Cols[i], f.Partition[i]); err != nil {
			return false, fmt.Errorf("partition value %s=%q: %w", c.Name, f.Partition[i], err)
		}
	}
	b.Len = 1
	for _, p := range pp.preds {
		if p.eval(b)[0] != vTrue {
			return false, nil
		}
	}
	return true, nil
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

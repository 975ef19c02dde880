package advise

import (
	"math"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
)

// partitionBytes is the data one partition of t holds, which is what one write of its
// buckets spreads over bucket files: the table's size for an unpartitioned table, the size
// divided by the number of partitions when Options.Partitions gives it. known is false
// when the size is unknown (-1 then) or the table is partitioned and its partition count is
// not given (the whole table's size then).
func (a *advisor) partitionBytes(t *plan.Table) (n int64, known bool) {
	if t == nil || t.SizeInBytes <= 0 {
		return -1, false
	}
	if len(t.PartitionColumns) == 0 {
		return t.SizeInBytes, true
	}
	if p := a.partitions(t.Name); p > 0 {
		return t.SizeInBytes / int64(p), true
	}
	return t.SizeInBytes, false
}

// partitions is the number of partitions Options.Partitions gives the table, matched with or
// without its database; 0 when not given.
func (a *advisor) partitions(name string) int {
	if p, ok := a.opt.Partitions[name]; ok {
		return p
	}
	for k, p := range a.opt.Partitions {
		if strings.HasSuffix(k, "."+name) || strings.HasSuffix(name, "."+k) {
			return p
		}
	}
	return 0
}

// bucketCount sizes a table: enough buckets for TargetBucketBytes each of one partition (of
// the whole table when the partition count is unknown), at least the cluster's cores when
// every bucket would still hold a sixteenth of the target, rounded up to a power of two when
// asked, capped at MaxBuckets. A table of unknown size keeps the count it is bucketed with,
// else gets the cluster's cores, else spark.sql.shuffle.partitions.
func (a *advisor) bucketCount(t *plan.Table) int {
	per, _ := a.partitionBytes(t)
	n := 0
	if per > 0 {
		n = int(math.Ceil(float64(per) / float64(a.opt.TargetBucketBytes)))
	} else if t.Buckets() != nil && t.Buckets().NumBuckets > 0 {
		return t.Buckets().NumBuckets
	}
	if n == 0 {
		n = a.opt.Spark.ShufflePartitions()
		if a.opt.ClusterCores > 0 {
			n = a.opt.ClusterCores
		}
	}
	if c := a.opt.ClusterCores; c > n && per/int64(c) >= a.opt.TargetBucketBytes/16 {
		n = c
	}
	if a.opt.PowerOfTwo {
		p := 1
		for p < n {
			p <<= 1
		}
		n = p
	}
	return max(1, min(n, a.opt.MaxBuckets))
}

// fits reports whether t's bucket files at n buckets stay within the file size bounds; a
// table of unknown size fits.
func (a *advisor) fits(t *plan.Table, n int) bool {
	per, _ := a.partitionBytes(t)
	if per <= 0 || n <= 0 {
		return true
	}
	f := per / int64(n)
	return f >= a.opt.MinBucketFileBytes && f <= a.opt.MaxBucketFileBytes
}

// oversized reports a kept table whose bucket files at n buckets are known to exceed
// MaxBucketFileBytes: a layout too coarse to keep (few, huge tasks), so rewriting only the
// other table to match it is not offered.
func (a *advisor) oversized(t *plan.Table, n int) bool {
	per, known := a.partitionBytes(t)
	return known && n > 0 && per/int64(n) > a.opt.MaxBucketFileBytes
}

// estimate is the data a rewrite of t reads and writes: its size when known; else its bucket
// count times the target bucket size (a bucketed table was usually sized to about that);
// else the target times spark.sql.shuffle.partitions.
func (a *advisor) estimate(t *plan.Table) int64 {
	switch {
	case t == nil:
		return 0
	case t.SizeInBytes > 0:
		return t.SizeInBytes
	case t.Buckets() != nil && t.Buckets().NumBuckets > 0:
		return int64(t.Buckets().NumBuckets) * a.opt.TargetBucketBytes
	}
	return int64(a.opt.Spark.ShufflePartitions()) * a.opt.TargetBucketBytes
}

// table looks a table up by name, with or without its database; nil when unknown.
func (a *advisor) table(name string) *plan.Table { return lookupTable(a.tables, name) }

// lookupTable finds a table of tables by name, with or without its database; nil when
// unknown.
func lookupTable(tables map[string]*plan.Table, name string) *plan.Table {
	if t := tables[name]; t != nil {
		return t
	}
	for k, t := range tables {
		if strings.HasSuffix(k, "."+name) || strings.HasSuffix(name, "."+k) {
			return t
		}
	}
	return nil
}

// tablesOf returns the tables query i runs against: its session's, else the workload's.
func (a *advisor) tablesOf(i int) map[string]*plan.Table {
	if t := a.workload[i].Tables; t != nil {
		return t
	}
	return a.tables
}

// sparkOf returns the version and settings query i runs under: its session's, else the
// workload's.
func (a *advisor) sparkOf(i int) simulate.Options {
	if o := a.workload[i].Spark; o != nil {
		return *o
	}
	return a.opt.Spark
}

// afterTables returns query i's tables with layout applied; shared is the workload's tables
// with it applied, what a query without tables of its own reads.
func (a *advisor) afterTables(i int, layout map[string]*layoutChoice, shared map[string]*plan.Table) map[string]*plan.Table {
	if a.workload[i].Tables == nil {
		return shared
	}
	return a.apply(layout, a.workload[i].Tables)
}

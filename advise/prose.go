package advise

import (
	"fmt"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// unservedText says why no candidate serves a join: a table already laid out for a heavier
// join on other columns, or no layout the simulation accepts.
func (a *advisor) unservedText(e *edge, lk, rk []string) string {
	var held []string
	for _, s := range []struct {
		n    string
		keys []string
	}{{e.l, lk}, {e.r, rk}} {
		c := a.layout[s.n]
		if c == nil || c.spec == nil {
			continue
		}
		if _, ok := mapSubset(c.spec, s.keys, s.keys); !ok {
			held = append(held, fmt.Sprintf("%s is bucketed on (%s) for a heavier join", s.n, strings.Join(c.spec.Columns, ", ")))
		}
	}
	if len(held) > 0 {
		return strings.Join(held, " and ") + ", and a table has one bucketing, so this join keeps its shuffle"
	}
	return "no layout found that removes its shuffle"
}

// queriesText names the edge's queries and their summed weight: "queries 1, 3 (weight 12)".
func (a *advisor) queriesText(e *edge) string {
	qs := make([]string, 0, len(e.demands))
	seen := map[int]bool{}
	for _, d := range e.demands {
		if !seen[d.query] {
			seen[d.query] = true
			qs = append(qs, fmt.Sprint(d.query+1))
		}
	}
	return fmt.Sprintf("quer%s %s (weight %g)", plural(len(qs)), strings.Join(qs, ", "), e.weight)
}

// subsetText says that bucket columns that are a subset of the join keys need
// spark.sql.requireAllClusterKeysForCoPartition=false.
func (a *advisor) subsetText(cols, keys []string) string {
	return fmt.Sprintf("; the bucket columns (%s) are a subset of the join keys (%s): set spark.sql.requireAllClusterKeysForCoPartition=false (internal, Spark 3.3+) "+
		"so that Spark keeps both layouts for the wider join instead of shuffling both sides", strings.Join(cols, ", "), strings.Join(keys, ", "))
}

// rewriteText compares the rewrite of x with the rewrite of y.
func (a *advisor) rewriteText(x, y *plan.Table) string {
	if x.SizeInBytes > 0 && y.SizeInBytes > 0 {
		return fmt.Sprintf("%s of %s rather than %s of %s", plan.SizeText(x.SizeInBytes), x.Name, plan.SizeText(y.SizeInBytes), y.Name)
	}
	return fmt.Sprintf("one table rewritten instead of two; sizes unknown, %s estimated from the bucket counts as smaller than %s", x.Name, y.Name)
}

// countWhy says how the count of a join rewritten on both sides was sized.
func (a *advisor) countWhy(lt, rt *plan.Table, n int) string {
	var parts, unknown []string
	for _, t := range []*plan.Table{lt, rt} {
		if per, _ := a.partitionBytes(t); per > 0 {
			parts = append(parts, a.sizeText(t, n))
			continue
		}
		unknown = append(unknown, t.Name)
	}
	switch {
	case len(unknown) == 0:
		parts = append([]string{fmt.Sprintf("about %s per bucket target", plan.SizeText(a.opt.TargetBucketBytes))}, parts...)
	case len(unknown) == 2:
		from := fmt.Sprintf("spark.sql.shuffle.partitions (%d)", a.opt.Spark.ShufflePartitions())
		if a.opt.ClusterCores > 0 {
			from = fmt.Sprintf("the cluster's %d cores", a.opt.ClusterCores)
		}
		for _, t := range []*plan.Table{lt, rt} {
			if t.Buckets() != nil && t.Buckets().NumBuckets > 0 {
				from = fmt.Sprintf("the larger current count (%s is bucketed into %d)", t.Name, t.Buckets().NumBuckets)
			}
		}
		parts = append(parts, unknownSizeText(unknown...)+"; the count is "+from)
	default:
		parts = append(parts, unknownSizeText(unknown...))
	}
	if a.opt.ClusterCores > 0 {
		parts = append(parts, fmt.Sprintf("%d cores", a.opt.ClusterCores))
	}
	if a.opt.PowerOfTwo {
		parts = append(parts, "rounded to a power of two")
	}
	return " (" + strings.Join(parts, "; ") + "); the same count on both sides lets Spark join bucket i with bucket i"
}

// sizeText says how big t's bucket files are at n buckets, or that its size is unknown and
// how to give it.
func (a *advisor) sizeText(t *plan.Table, n int) string {
	per, known := a.partitionBytes(t)
	switch {
	case per <= 0:
		s := unknownSizeText(t.Name)
		if t.Buckets() != nil && t.Buckets().NumBuckets > 0 {
			s += fmt.Sprintf("; it is bucketed into %d, which it keeps unless a join needs another count", t.Buckets().NumBuckets)
		} else {
			s += "; its count defaults to the cluster's cores (--cores), else spark.sql.shuffle.partitions"
		}
		return s
	case !known:
		return fmt.Sprintf("%s is %s, partitioned by (%s) with an unknown number of partitions: bucket files are written per partition, "+
			"so sized from the whole table they are %s each at %d buckets, and smaller by the number of partitions (give it with --partitions %s=N)",
			t.Name, plan.SizeText(t.SizeInBytes), strings.Join(t.PartitionColumns, ", "), plan.SizeText(per/int64(max(n, 1))), n, t.Name)
	case len(t.PartitionColumns) > 0:
		return fmt.Sprintf("%s is %s in %d partitions, %s per partition: %s per bucket file at %d buckets", t.Name, plan.SizeText(t.SizeInBytes),
			a.partitions(t.Name), plan.SizeText(per), plan.SizeText(per/int64(max(n, 1))), n)
	}
	return fmt.Sprintf("%s is %s: %s per bucket file at %d buckets", t.Name, plan.SizeText(t.SizeInBytes), plan.SizeText(per/int64(max(n, 1))), n)
}

// fitText says that t's bucket files at n buckets are within the bounds, or that its size is
// unknown and they could not be checked.
func (a *advisor) fitText(t *plan.Table, n int) string {
	if per, _ := a.partitionBytes(t); per <= 0 {
		return fmt.Sprintf("%s, so its bucket files at %d buckets are not checked against %s", unknownSizeText(t.Name), n, a.boundsText())
	}
	return a.sizeText(t, n) + ", within " + a.boundsText()
}

// unknownSizeText says that the tables' sizes are unknown and how to give them.
func unknownSizeText(names ...string) string {
	sizes := make([]string, len(names))
	for i, n := range names {
		sizes[i] = "--size " + n + "=SIZE"
	}
	what := "the size of " + strings.Join(names, " and ") + " is"
	if len(names) > 1 {
		what = "the sizes of " + strings.Join(names, " and ") + " are"
	}
	return fmt.Sprintf("%s unknown (give %s with %s, e.g. 40GB; or sizeInBytes in a catalog YAML; or DESCRIBE TABLE EXTENDED output after ANALYZE TABLE … COMPUTE STATISTICS)",
		what, map[bool]string{true: "them", false: "it"}[len(names) > 1], strings.Join(sizes, " "))
}

// boundsText names the bucket file size bounds.
func (a *advisor) boundsText() string {
	return fmt.Sprintf("%s to %s per bucket file", plan.SizeText(a.opt.MinBucketFileBytes), plan.SizeText(a.opt.MaxBucketFileBytes))
}

// plural is the ending of "query" for n of them.
func plural(n int) string {
	if n == 1 {
		return "y"
	}
	return "ies"
}

// rewriteOneText says why x is rewritten to y's layout on cols, and notes that bucket
// coalescing alone would have served the join had the key types not differed.
func (a *advisor) rewriteOneText(e *edge, x, y *joinSide, cols []string, casts map[string]string) string {
	n := y.spec.NumBuckets
	why := fmt.Sprintf("joined with %%s on (%%s) in %s: rewrite only %s, bucketed like %s on (%s) into %d buckets (%s), and leave %s as it is: "+
		"the smallest rewrite that removes the shuffle (%s)",
		a.queriesText(e), x.name, y.name, strings.Join(cols, ", "), n, a.fitText(x.t, n), y.name, a.rewriteText(x.t, y.t))
	if x.spec != nil && equalCols(x.spec.Columns, cols) && x.spec.NumBuckets != n && len(casts) > 0 {
		big, small := max(x.spec.NumBuckets, n), min(x.spec.NumBuckets, n)
		if big%small == 0 && big/small <= a.opt.Spark.CoalesceMaxRatio() {
			why += fmt.Sprintf("; its %d buckets against %d alone could be coalesced (spark.sql.bucketing.coalesceBucketsInJoin.enabled, Spark 3.1+, with adaptive execution only from 3.5), but the key types differ, so it is rewritten anyway",
				x.spec.NumBuckets, n)
		}
	}
	if len(y.spec.Columns) < len(e.lk) {
		why += a.subsetText(y.spec.Columns, y.keys)
	}
	return why
}

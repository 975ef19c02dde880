package rules

import (
	"fmt"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
)

// A fileCount is how many files a bucketed write makes at most, and why. Every write task
// writes one file for each bucket it holds rows of, so the files are the distinct (task,
// bucket) pairs:
//
//   - no repartition visible: the frame's own partitions, unknown, times the buckets;
//   - coalesce(n), repartition(n) or repartitionByRange(n, …): n tasks × buckets;
//   - repartition(n, bucket columns in their order): the same Murmur3 hash decides the task (modulo n) and
//     the bucket (modulo buckets), so the pairs are the residues modulo lcm(n, buckets): one
//     file per bucket when n divides the count;
//   - repartition(bucket columns) without n: n is spark.sql.shuffle.partitions (AQE may merge
//     neighbouring partitions into one task, which never adds pairs);
//   - and never more files than the frame has rows, when the code shows how many (local data,
//     a range with constant bounds): a writer opens a bucket's file when that bucket's first
//     row arrives, so every file holds a row.
type fileCount struct {
	// Max is the most files the write makes, 0 when unknown (the task count is not known).
	Max int
	// Tasks is the number of write tasks, 0 when unknown; How says where it comes from.
	Tasks int
	How   string
	// Rows is the most rows the written frame holds, 0 when unknown; RowBound is set when
	// Rows is what limits Max.
	Rows     int64
	RowBound bool
}

// writeFiles models the files of a bucketed write of n buckets (n > 0).
func writeFiles(w *plan.Write, n int, o simulate.Options) fileCount {
	fc := taskFiles(w, n, o)
	if rows := w.Frame.MaxRows; rows > 0 {
		fc.Rows = rows
		if fc.Max == 0 || int64(fc.Max) > rows {
			fc.Max, fc.RowBound = int(rows), true
		}
	}
	return fc
}

// taskFiles is the file count a write's tasks make, from its repartition.
func taskFiles(w *plan.Write, n int, o simulate.Options) fileCount {
	r := w.Repartition
	if r == nil || r.Method == "" {
		return fileCount{}
	}
	// The hash chains the columns in order: the same columns in another order hash otherwise.
	byBuckets := repartitionedByBuckets(w) && sameOrder(r.Cols, w.Bucket.Columns)
	how := fmt.Sprintf("%s(%d)", r.Method, r.N)
	if len(r.Cols) > 0 {
		how = fmt.Sprintf("%s(%d, %s)", r.Method, r.N, strings.Join(trimQuotes(r.Cols), ", "))
	}
	switch {
	case byBuckets && r.N > 0:
		return fileCount{Max: lcm(r.N, n), Tasks: r.N, How: fmt.Sprintf("repartition(%d, %s)", r.N, strings.Join(w.Bucket.Columns, ", "))}
	case byBuckets && r.NExpr == "":
		sp := o.ShufflePartitions()
		return fileCount{Max: lcm(sp, n), Tasks: sp, How: fmt.Sprintf("repartition by the bucket columns into spark.sql.shuffle.partitions=%d", sp)}
	case r.N > 0:
		return fileCount{Max: r.N * n, Tasks: r.N, How: how}
	}
	return fileCount{}
}

// byPartitions reports a distribution by partition columns of the written table only (cols a
// non-empty subset of partitions): all the rows of a partition directory are then in one task,
// which writes at most one file per bucket into it, as many files as a repartition by the
// bucket columns into the bucket count makes (one per bucket in every directory).
func byPartitions(cols, partitions []string) bool {
	if len(cols) == 0 || len(partitions) == 0 {
		return false
	}
	for _, c := range cols {
		if !containsFold(partitions, strings.Trim(c, "`\"'")) {
			return false
		}
	}
	return true
}

// sameOrder reports whether two column lists are the same names in the same order.
func sameOrder(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !strings.EqualFold(strings.Trim(a[i], `"'`), b[i]) {
			return false
		}
	}
	return true
}

func trimQuotes(cols []string) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = strings.Trim(c, `"'`)
	}
	return out
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func lcm(a, b int) int {
	if a <= 0 || b <= 0 {
		return 0
	}
	return a / gcd(a, b) * b
}

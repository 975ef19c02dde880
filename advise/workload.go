package advise

import (
	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/workload"
)

// OptionsFor returns the advisor's options from the workload's one default for advice given
// at pos (the zero Pos: for the whole workload), which every command and rule starts from.
func OptionsFor(w *workload.Workload, pos plan.Pos) Options {
	a := w.Advice(pos)
	return Options{
		Spark: a.Spark, TargetBucketBytes: a.TargetBucketBytes, ClusterCores: a.ClusterCores,
		PowerOfTwo: a.PowerOfTwo, MaxBuckets: a.MaxBuckets,
	}
}

// Weighted returns workload queries weighted 1 each, each to be simulated in its session: with
// the settings and the tables the session has where the query runs.
func Weighted(w *workload.Workload, qs []workload.Query) []WeightedQuery {
	out := make([]WeightedQuery, len(qs))
	for i, q := range qs {
		out[i] = Query(w, q.Query, 1)
	}
	return out
}

// Query returns one query of the workload with its weight, to be simulated in its session.
func Query(w *workload.Workload, q *plan.Query, weight float64) WeightedQuery {
	pos := q.Span.Start
	o := w.OptionsAt(pos)
	return WeightedQuery{Query: w.Expanded(q), Weight: weight, Spark: &o, Tables: w.OwnTables(pos)}
}

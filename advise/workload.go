package advise

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
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

// Weighted returns workload queries for the advisor, each to be simulated in its session
// (with the settings and the tables the session has where the query runs) and weighted by
// its "-- weight: N" comment (plan.Query.Weight), else 1. Every query stays on its own, so
// that what is proved of one can be told at its position (verify, check --verify).
func Weighted(w *workload.Workload, qs []workload.Query) []WeightedQuery {
	out := make([]WeightedQuery, len(qs))
	for i, q := range qs {
		out[i] = Query(w, q.Query, weightOf(q.Query))
	}
	return out
}

// Merged is Weighted with repeated queries (the same text up to case and spacing, in
// sessions with the same settings and tables) as one, weighted by the sum of their weights:
// the workload as the advise command lists it.
func Merged(w *workload.Workload, qs []workload.Query) []WeightedQuery {
	var out []WeightedQuery
	index := map[string]int{}
	for _, q := range qs {
		wq := Query(w, q.Query, weightOf(q.Query))
		key := strings.Join(strings.Fields(strings.ToLower(q.Query.Text)), " ") + "\x00" + sessionKey(wq)
		if i, ok := index[key]; ok {
			out[i].Weight += wq.Weight
			continue
		}
		index[key] = len(out)
		out = append(out, wq)
	}
	return out
}

// weightOf is a query's weight: its "-- weight: N" comment, else 1.
func weightOf(q *plan.Query) float64 {
	if q.Weight > 0 {
		return q.Weight
	}
	return 1
}

// sessionKey tells apart queries that run under different settings or see different tables.
func sessionKey(wq WeightedQuery) string {
	var b strings.Builder
	if wq.Spark != nil {
		for _, k := range slices.Sorted(maps.Keys(wq.Spark.Confs)) {
			b.WriteString(k + "=" + wq.Spark.Confs[k] + ";")
		}
	}
	if wq.Tables != nil {
		fmt.Fprintf(&b, "%p", wq.Tables)
	}
	return b.String()
}

// Query returns one query of the workload with its weight, to be simulated in its session:
// the query as the workload resolved it (workload.Workload.Resolved), which is what every
// command simulates.
func Query(w *workload.Workload, q *plan.Query, weight float64) WeightedQuery {
	pos := q.Span.Start
	o := w.OptionsAt(pos)
	return WeightedQuery{Query: w.Resolved(q).Query, Weight: weight, Spark: &o, Tables: w.OwnTables(pos)}
}

// One advises q alone, in its session, with the tables and the workload's one default of the
// advisor's options in force at pos (q's start, for a query the workload holds).
func One(w *workload.Workload, q *plan.Query, pos plan.Pos) []Recommendation {
	return Advise(w.TablesAt(pos), []WeightedQuery{Query(w, q, 1)}, OptionsFor(w, pos))
}

// ForQuery simulates q under the layout advised for it alone (One) and names that layout:
// "(orders in 16 buckets on (customer_id); spark.sql.x=y)", or "the recommended layout" when
// the advice changes no table and no setting. The result is nil when no advice applies to q.
func ForQuery(w *workload.Workload, q *plan.Query) (*simulate.Result, string) {
	var after *simulate.Result
	var changes []string
	for _, r := range One(w, q, q.Span.Start) {
		for _, o := range r.Queries {
			if o.After != nil && (after == nil || o.After.Exchanges < after.Exchanges) {
				after = o.After
			}
		}
		if !r.Keep && r.Bucket != nil {
			changes = append(changes, fmt.Sprintf("%s in %d buckets on (%s)", r.Table, r.Bucket.NumBuckets, strings.Join(r.Bucket.Columns, ", ")))
		}
		for k, v := range r.Confs {
			changes = append(changes, k+"="+v)
		}
	}
	if after == nil {
		return nil, ""
	}
	if len(changes) == 0 {
		return after, "the recommended layout"
	}
	slices.Sort(changes)
	return after, "(" + strings.Join(changes, "; ") + ")"
}

package advise

import (
	"fmt"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// chooseAggregates buckets each table not chosen for a join on the grouping column its
// aggregations use most (a bucketing on a subset of the grouping keys satisfies the
// aggregation; the whole key list when spark.sql.requireAllClusterKeysForDistribution).
func (a *advisor) chooseAggregates() {
	g := a.groupings()
	for _, table := range g.tables {
		if a.layout[table] == nil {
			a.chooseAggregate(table, g)
		}
		a.aggregateFixes(table)
	}
	a.leaveBroadcastsUnbucketed()
}

// groupings are the candidate bucket columns of the aggregated tables, weighted.
type groupings struct {
	// tables are the aggregated tables, in the order the workload first aggregates them.
	tables []string
	// score is, per table, each candidate's summed weight ("a,b" for a whole key list);
	// bytes its aggregations' shuffle bytes measured in real runs (Options.Measure), which
	// come first.
	score map[string]map[string]float64
	bytes map[string]map[string]int64
	// rank is the first position a candidate had in a GROUP BY ("table.column"): ties go to
	// the key written first, usually the entity id rather than a low-cardinality attribute.
	rank map[string]int
}

// groupings scores the grouping columns of the workload's aggregations.
func (a *advisor) groupings() *groupings {
	g := &groupings{score: map[string]map[string]float64{}, bytes: map[string]map[string]int64{}, rank: map[string]int{}}
	for _, d := range a.demands {
		if d.join {
			continue
		}
		if g.score[d.table] == nil {
			g.score[d.table] = map[string]float64{}
			g.bytes[d.table] = map[string]int64{}
			g.tables = append(g.tables, d.table)
		}
		t := a.table(d.table)
		if t == nil {
			continue
		}
		for i, k := range a.groupingCandidates(t, d.keys) {
			g.score[d.table][k] += d.weight
			g.bytes[d.table][k] += d.measuredBytes()
			if r, ok := g.rank[d.table+"."+k]; !ok || i < r {
				g.rank[d.table+"."+k] = i
			}
		}
	}
	return g
}

// groupingCandidates are the bucket columns that would serve an aggregation of t grouped by
// keys: each key that is not a partition column (a partition column is never a bucket
// column), or, under spark.sql.requireAllClusterKeysForDistribution, the whole key list as
// one candidate "a,b" when no key is a partition column.
func (a *advisor) groupingCandidates(t *plan.Table, keys []string) []string {
	var cands []string
	for _, k := range keys {
		if !isPartitionColumn(t, k) {
			cands = append(cands, k)
		}
	}
	if a.opt.Spark.RequireAllClusterKeysForDistribution() {
		if len(cands) < len(keys) {
			return nil
		}
		cands = []string{strings.Join(keys, ",")}
	}
	return cands
}

// best is the table's candidate of the most measured bytes, then of the highest weight, ties
// broken by rank, then by name.
func (g *groupings) best(table string) (best string, weight float64, bytes int64) {
	for c, w := range g.score[table] {
		b := g.bytes[table][c]
		better := b > bytes || b == bytes && (w > weight || (w == weight && (g.rank[table+"."+c] < g.rank[table+"."+best] || g.rank[table+"."+c] == g.rank[table+"."+best] && c < best)))
		if best == "" || better {
			best, weight, bytes = c, w, b
		}
	}
	return best, weight, bytes
}

// weightText says what an aggregation's choice weighed: its measured bytes when real runs
// measured it, else its weight.
func weightText(w float64, bytes int64) string {
	if bytes > 0 {
		return "measured: its shuffles wrote " + plan.FormatBytes(bytes) + " in the event logs"
	}
	return fmt.Sprintf("weight %g", w)
}

// chooseAggregate lays out an aggregated table no join chose: it keeps a bucketing that
// serves at least as much of the aggregation weight as the best candidate, else buckets on
// the best candidate.
func (a *advisor) chooseAggregate(table string, g *groupings) {
	best, bw, bb := g.best(table)
	t := a.table(table)
	if t == nil || best == "" {
		return
	}
	if cur, _, _ := a.current(table, t); cur != nil {
		kw, kb := 0.0, int64(0)
		for _, d := range a.demands {
			if !d.join && d.table == table && a.servesAggregate(cur.Columns, d.keys) {
				kw += d.weight
				kb += d.measuredBytes()
			}
		}
		if kb > bb || kb == bb && kw >= bw {
			a.layout[table] = &layoutChoice{spec: cur, keep: true, reason: fmt.Sprintf("aggregated by its bucket column(s) %s (%s): keep its layout, the aggregation needs no shuffle", strings.Join(cur.Columns, ", "), weightText(kw, kb))}
			return
		}
	}
	n := a.bucketCount(t)
	a.assign(table, strings.Split(best, ","), n, nil, fmt.Sprintf("aggregated by %s (%s): bucket on it into %d buckets so the aggregation needs no shuffle (%s)", best, weightText(bw, bb), n, a.sizeText(t, n)))
}

// aggregateFixes records the table's aggregations its layout serves.
func (a *advisor) aggregateFixes(table string) {
	c := a.layout[table]
	if c == nil || c.spec == nil {
		return
	}
	for _, d := range a.demands {
		if !d.join && d.table == table && a.servesAggregate(c.spec.Columns, d.keys) {
			c.fixes = append(c.fixes, Fix{Query: d.query, Tables: []string{table}, Keys: d.keys, What: "aggregate"})
		}
	}
}

// servesAggregate reports whether a bucketing on cols removes the shuffle of an aggregation
// grouped by keys: a subset of them, all of them under
// spark.sql.requireAllClusterKeysForDistribution.
func (a *advisor) servesAggregate(cols, keys []string) bool {
	if a.opt.Spark.RequireAllClusterKeysForDistribution() {
		return len(cols) == len(keys) && subsetStrings(cols, keys)
	}
	return subsetStrings(cols, keys)
}

// assign buckets table on cols into n buckets, the key columns in casts written with the
// wider type, giving the reason when the table had no layout yet.
func (a *advisor) assign(table string, cols []string, n int, casts map[string]string, reason string) {
	c := a.layout[table]
	if c == nil {
		c = &layoutChoice{reason: reason}
		a.layout[table] = c
	}
	c.spec = &plan.BucketSpec{NumBuckets: n, Columns: cols, SortColumns: cols}
	if len(casts) > 0 {
		if c.casts == nil {
			c.casts = map[string]string{}
		}
		for k, v := range casts {
			c.casts[k] = v
			c.reason += fmt.Sprintf("; write %s as %s so both join keys have the same type (a cast key never matches the bucketing)", k, v)
		}
	}
}

// subsetStrings reports whether every string of sub is one of of.
func subsetStrings(sub, of []string) bool {
	for _, s := range sub {
		found := false
		for _, o := range of {
			if o == s {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	return true
}

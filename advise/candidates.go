package advise

import (
	"fmt"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
)

// A candidate is one set of layouts (and settings) for the two tables of a join.
type candidate struct {
	// kind orders candidates of equal cost: 0 keeps both layouts, 1 rewrites one table, 2
	// rewrites both.
	kind    int
	choices map[string]*layoutChoice
	confs   map[string]string
	bytes   int64
	gain    float64
	// why maps a table to the sentence that explains its part ("%s" is the other table,
	// then the keys).
	why map[string]string
}

// better ranks c before o: fewer bytes rewritten, then more shuffles removed, then the
// smaller kind of change.
func (c *candidate) better(o *candidate) bool {
	if c.bytes != o.bytes {
		return c.bytes < o.bytes
	}
	if c.gain != o.gain {
		return c.gain > o.gain
	}
	return c.kind < o.kind
}

// A joinSide is one table of a join as the candidates see it: its layout so far and its
// join keys (without partition columns), paired with the other side's by position.
type joinSide struct {
	name  string
	t     *plan.Table
	spec  *plan.BucketSpec
	casts map[string]string
	// fixed is set when a heavier join chose spec: it is not rewritten again.
	fixed bool
	keys  []string
}

// joinSide is a table of the join with its layout so far.
func (a *advisor) joinSide(name string, t *plan.Table, keys []string) *joinSide {
	spec, casts, fixed := a.current(name, t)
	return &joinSide{name: name, t: t, spec: spec, casts: casts, fixed: fixed, keys: keys}
}

// candidates are the layouts that may serve a join: keep both layouts, rewrite one table to
// the other's, rewrite both.
func (a *advisor) candidates(e *edge, lt, rt *plan.Table, lk, rk []string) []*candidate {
	var out []*candidate
	l, r := a.joinSide(e.l, lt, lk), a.joinSide(e.r, rt, rk)
	if c := a.keepBoth(e, l, r); c != nil {
		out = append(out, c)
	}
	for _, s := range [][2]*joinSide{{l, r}, {r, l}} {
		if c := a.rewriteOne(e, s[0], s[1]); c != nil {
			out = append(out, c)
		}
	}
	if !l.fixed && !r.fixed {
		out = append(out, a.rewriteBoth(e, lt, rt, lk, rk))
	}
	return out
}

// subsetConfs are the settings a bucketing on spec needs to serve the join: with fewer
// columns than the join keys, spark.sql.requireAllClusterKeysForCoPartition=false.
func subsetConfs(e *edge, spec *plan.BucketSpec) map[string]string {
	if len(spec.Columns) < len(e.lk) {
		return map[string]string{simulate.ConfRequireAllCoPartition: "false"}
	}
	return map[string]string{}
}

// keepBoth keeps both tables' layouts when they are bucketed alike on the join keys, with
// bucket coalescing when their counts differ; nil when they are not.
func (a *advisor) keepBoth(e *edge, l, r *joinSide) *candidate {
	ls, rs := l.spec, r.spec
	if ls == nil || rs == nil {
		return nil
	}
	if m, ok := mapSubset(ls, l.keys, r.keys); !ok || !equalCols(m, rs.Columns) {
		return nil
	}
	c := &candidate{kind: 0, confs: subsetConfs(e, ls), choices: map[string]*layoutChoice{}, why: map[string]string{}}
	what := fmt.Sprintf("both tables are bucketed alike on (%s) into %d buckets, so Spark joins bucket i with bucket i", strings.Join(ls.Columns, ", "), ls.NumBuckets)
	if ls.NumBuckets != rs.NumBuckets {
		big, small := max(ls.NumBuckets, rs.NumBuckets), min(ls.NumBuckets, rs.NumBuckets)
		c.confs[simulate.ConfCoalesceBuckets] = "true"
		what = fmt.Sprintf("both tables are bucketed alike on (%s), into %d and %d buckets: with spark.sql.bucketing.coalesceBucketsInJoin.enabled=true "+
			"(Spark 3.1+; with adaptive execution only from 3.5) Spark reads the %d buckets coalesced to %d (ratio %d, within maxBucketRatio %d), so neither side is shuffled",
			strings.Join(ls.Columns, ", "), ls.NumBuckets, rs.NumBuckets, big, small, big/small, a.opt.Spark.CoalesceMaxRatio())
	}
	if c.confs[simulate.ConfRequireAllCoPartition] != "" {
		what += a.subsetText(ls.Columns, e.lk)
	}
	for _, s := range []*joinSide{l, r} {
		c.choices[s.name] = &layoutChoice{spec: s.spec, casts: s.casts, keep: a.layout[s.name] == nil || a.layout[s.name].keep}
		c.why[s.name] = "joined with %s on (%s) in " + a.queriesText(e) + ": keep its layout; " + what + "; nothing is rewritten"
	}
	return c
}

// rewriteOne rewrites x to y's layout: y's bucket columns mapped onto x's join keys, y's
// count, and y's key types where they are wider; nil when x's layout is fixed, y has none,
// x's bucket files would leave the size bounds, y's are too large to keep, or a key of x is
// wider than y's.
func (a *advisor) rewriteOne(e *edge, x, y *joinSide) *candidate {
	if x.fixed || y.spec == nil {
		return nil
	}
	cols, ok := mapSubset(y.spec, y.keys, x.keys)
	if !ok {
		return nil
	}
	n := y.spec.NumBuckets
	if !a.fits(x.t, n) || a.oversized(y.t, n) {
		return nil
	}
	casts, ok := widenTo(x, y, cols)
	if !ok {
		return nil
	}
	c := &candidate{kind: 1, confs: subsetConfs(e, y.spec), bytes: a.estimate(x.t), choices: map[string]*layoutChoice{}, why: map[string]string{}}
	c.choices[x.name] = &layoutChoice{spec: &plan.BucketSpec{NumBuckets: n, Columns: cols, SortColumns: cols}, casts: casts}
	c.choices[y.name] = &layoutChoice{spec: y.spec, casts: y.casts, keep: a.layout[y.name] == nil || a.layout[y.name].keep}
	c.why[x.name] = a.rewriteOneText(e, x, y, cols, casts)
	c.why[y.name] = fmt.Sprintf("joined with %%s on (%%s) in %s: keep its layout (%s); %s is rewritten to match it", a.queriesText(e), y.spec, x.name)
	if per, known := a.partitionBytes(y.t); known && !a.fits(y.t, n) {
		c.why[y.name] += fmt.Sprintf(" (its own bucket files, %s each, are below %s: worth fewer buckets when it is next rewritten)", plan.SizeText(per/int64(n)), a.boundsText())
	}
	return c
}

// widenTo returns the casts that give x's key columns cols y's key types, and false when a
// key of x is wider than y's or either type is not numeric.
func widenTo(x, y *joinSide, cols []string) (map[string]string, bool) {
	casts := map[string]string{}
	for i, yc := range y.spec.Columns {
		xtyp, ytyp := colType(x.t, nil, cols[i]), colType(y.t, y.casts, yc)
		if xtyp == ytyp {
			continue
		}
		xr, yr := simulate.TypeRank(xtyp), simulate.TypeRank(ytyp)
		if xr == 0 || yr == 0 || xr > yr {
			return nil, false
		}
		casts[cols[i]] = ytyp
	}
	return casts, true
}

// rewriteBoth buckets both tables on the join keys with a count sized for the larger (or,
// with bucket coalescing, counts within maxBucketRatio), widening the narrower key type.
func (a *advisor) rewriteBoth(e *edge, lt, rt *plan.Table, lk, rk []string) *candidate {
	n0 := max(a.bucketCount(lt), a.bucketCount(rt))
	n := n0
	// Halve the count while the smaller table's bucket files are below the bounds and the
	// larger table's stay within them (and the cluster's cores stay busy).
	for n > 1 && n%2 == 0 && n/2 >= a.opt.ClusterCores {
		small, large := lt, rt
		if pl, _ := a.partitionBytes(lt); pl > 0 {
			if pr, _ := a.partitionBytes(rt); pr > 0 && pr < pl {
				small, large = rt, lt
			}
		}
		ps, _ := a.partitionBytes(small)
		pl, _ := a.partitionBytes(large)
		if ps <= 0 || pl <= 0 || a.fits(small, n) || !a.fits(large, n/2) {
			break
		}
		n /= 2
	}
	casts := map[string]map[string]string{e.l: {}, e.r: {}}
	for i := range lk {
		l, _ := lt.Column(lk[i])
		r, _ := rt.Column(rk[i])
		lr, rr := simulate.TypeRank(strings.ToLower(l.Type)), simulate.TypeRank(strings.ToLower(r.Type))
		switch {
		case lr > 0 && rr > 0 && lr < rr:
			casts[e.l][lk[i]] = strings.ToLower(r.Type)
		case lr > 0 && rr > 0 && rr < lr:
			casts[e.r][rk[i]] = strings.ToLower(l.Type)
		}
	}
	c := &candidate{kind: 2, confs: map[string]string{}, bytes: a.estimate(lt) + a.estimate(rt), choices: map[string]*layoutChoice{}, why: map[string]string{}}
	if len(lk) < len(e.lk) {
		c.confs[simulate.ConfRequireAllCoPartition] = "false"
	}
	lowered := ""
	if n < n0 {
		lowered = fmt.Sprintf(", lowered from %d so that both tables' bucket files are within %s", n0, a.boundsText())
	}
	why := fmt.Sprintf("joined with %%s on (%%s) in %s: bucket both on the join keys into %d buckets%s%s", a.queriesText(e), n, lowered, a.countWhy(lt, rt, n))
	nl, nr := n, n
	if a.canCoalesce(e) {
		cl, cr := a.bucketCount(lt), a.bucketCount(rt)
		if small, ok := a.coalescedCount(cl, cr); ok {
			big := max(cl, cr)
			if cl < cr {
				nl, nr = small, big
			} else {
				nl, nr = big, small
			}
			c.confs[simulate.ConfCoalesceBuckets] = "true"
			why = fmt.Sprintf("joined with %%s on (%%s) in %s: bucket both on the join keys, %s into %d and %s into %d buckets%s; "+
				"with spark.sql.bucketing.coalesceBucketsInJoin.enabled Spark reads the larger side's buckets coalesced to the smaller count (ratio %d within maxBucketRatio %d), so neither side is shuffled",
				a.queriesText(e), e.l, nl, e.r, nr, a.countWhy(lt, rt, big), big/small, a.opt.Spark.CoalesceMaxRatio())
		}
	}
	if len(lk) < len(e.lk) {
		why += a.subsetText(lk, e.lk)
	}
	c.choices[e.l] = &layoutChoice{spec: &plan.BucketSpec{NumBuckets: nl, Columns: lk, SortColumns: lk}, casts: casts[e.l]}
	c.choices[e.r] = &layoutChoice{spec: &plan.BucketSpec{NumBuckets: nr, Columns: rk, SortColumns: rk}, casts: casts[e.r]}
	c.why[e.l], c.why[e.r] = why, why
	return c
}

// canCoalesce reports whether CoalesceBucketsInJoin would serve the edge: enabled, not
// skipped by adaptive execution (before 3.5), and every join reads both tables directly
// (through Filter and Project only).
func (a *advisor) canCoalesce(e *edge) bool {
	o := a.opt.Spark
	if !o.CoalesceBuckets() || o.Adaptive() && !o.Behaviour().CoalesceBucketsUnderAQE {
		return false
	}
	for _, d := range e.demands {
		if !d.direct {
			return false
		}
	}
	return true
}

// coalescedCount is the smaller table's count when the two natural counts differ: the
// larger divided by the largest ratio within maxBucketRatio that divides it.
func (a *advisor) coalescedCount(cl, cr int) (int, bool) {
	big, small := max(cl, cr), min(cl, cr)
	if small <= 0 || big/small < 2 {
		return 0, false
	}
	for r := min(a.opt.Spark.CoalesceMaxRatio(), big/small); r >= 2; r-- {
		if big%r == 0 {
			return big / r, true
		}
	}
	return 0, false
}

// withoutPartitionPairs drops the key pairs where either side is a partition column.
func withoutPartitionPairs(lt, rt *plan.Table, lk, rk []string) (nl, nr, dropped []string) {
	for i := range lk {
		lp, rp := isPartitionColumn(lt, lk[i]), isPartitionColumn(rt, rk[i])
		if lp || rp {
			if lp {
				dropped = append(dropped, lt.Name+"."+lk[i])
			}
			if rp {
				dropped = append(dropped, rt.Name+"."+rk[i])
			}
			continue
		}
		nl, nr = append(nl, lk[i]), append(nr, rk[i])
	}
	return nl, nr, dropped
}

// isPartitionColumn reports whether col partitions t.
func isPartitionColumn(t *plan.Table, col string) bool {
	for _, p := range t.PartitionColumns {
		if strings.EqualFold(p, col) {
			return true
		}
	}
	return false
}

// mapSubset maps a spec's columns, each one of keys, onto the paired otherKeys; false when a
// column is not a key.
func mapSubset(spec *plan.BucketSpec, keys, otherKeys []string) ([]string, bool) {
	out := make([]string, 0, len(spec.Columns))
	for _, c := range spec.Columns {
		found := false
		for i, k := range keys {
			if strings.EqualFold(k, c) {
				out = append(out, otherKeys[i])
				found = true
				break
			}
		}
		if !found {
			return nil, false
		}
	}
	return out, true
}

// equalCols reports two column lists equal, case-insensitively.
func equalCols(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !strings.EqualFold(a[i], b[i]) {
			return false
		}
	}
	return true
}

// colType is a column's type as the advice writes it: the cast type when one is chosen.
func colType(t *plan.Table, casts map[string]string, col string) string {
	if ct, ok := casts[strings.ToLower(col)]; ok {
		return ct
	}
	c, _ := t.Column(col)
	return strings.ToLower(c.Type)
}

package advise

import (
	"fmt"
	"sort"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
)

// An edge is every join between two tables on the same key pairs, its weight summed.
type edge struct {
	l, r    string
	lk, rk  []string
	weight  float64
	demands []demand
}

// canonical orders a join demand: tables by name, key pairs by the first table's column.
func canonical(d demand) (string, string, []string, []string) {
	l, r, lk, rk := d.left, d.right, d.leftKeys, d.rightKeys
	if r < l {
		l, r, lk, rk = r, l, rk, lk
	}
	idx := make([]int, len(lk))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return lk[idx[a]] < lk[idx[b]] })
	nl, nr := make([]string, len(lk)), make([]string, len(rk))
	for i, j := range idx {
		nl[i], nr[i] = lk[j], rk[j]
	}
	return l, r, nl, nr
}

func (a *advisor) edges() []*edge {
	byKey := map[string]*edge{}
	var out []*edge
	for _, d := range a.demands {
		if !d.join {
			continue
		}
		l, r, lk, rk := canonical(d)
		key := l + "|" + r + "|" + strings.Join(lk, ",") + "|" + strings.Join(rk, ",")
		e := byKey[key]
		if e == nil {
			e = &edge{l: l, r: r, lk: lk, rk: rk}
			byKey[key] = e
			out = append(out, e)
		}
		e.weight += d.weight
		e.demands = append(e.demands, d)
	}
	size := func(e *edge) float64 {
		s := float64(1)
		for _, n := range []string{e.l, e.r} {
			if t := a.table(n); t != nil && t.SizeInBytes > 0 {
				s += float64(t.SizeInBytes)
			}
		}
		return s
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].weight*size(out[i]) > out[j].weight*size(out[j]) })
	return out
}

// chooseJoins serves the joins, heaviest first, each with the smallest change that removes
// its shuffle. The candidates are: keep both layouts (possibly with a setting: bucket
// coalescing for counts that are multiples, spark.sql.requireAllClusterKeysForCoPartition=false
// for a bucketing on a subset of the join keys); rewrite one table to the other's bucket
// columns, count and key types (when its bucket files stay within the size bounds); rewrite
// both with a count sized for the larger. Each is simulated, and only those that leave the
// join without an Exchange count; they are ranked by the bytes they rewrite, then by the
// shuffles they remove across the workload, weighted. A table keeps the layout the first
// (heaviest) join chose for it; a later join that it does not serve is said to still shuffle.
func (a *advisor) chooseJoins() {
	for _, e := range a.edges() {
		lt, rt := a.table(e.l), a.table(e.r)
		if lt == nil || rt == nil {
			continue
		}
		if a.broadcastInstead(e, lt, rt) {
			continue
		}
		lk, rk, dropped := withoutPartitionPairs(lt, rt, e.lk, e.rk)
		var note string
		if len(dropped) > 0 {
			note = fmt.Sprintf("; the join keys include the partition column(s) %s, which cannot be bucket columns (Spark rejects a bucketing column that is a partition column) "+
				"and do not co-locate rows either (Spark joins partitioned tables without partition-wise co-location): bucketing can only remove the shuffle on the other keys",
				strings.Join(dropped, ", "))
		}
		if len(lk) == 0 {
			a.unserved(e, fmt.Sprintf("joined with %%s on (%%s) only on partition columns: no bucketing serves that join%s", note))
			continue
		}
		if len(lk) < len(e.lk) && a.opt.Spark.Version().Era() != simulate.EraC {
			a.unserved(e, fmt.Sprintf("joined with %%s on (%%s)%s; before Spark 3.3 a bucketing on a subset of the join keys never avoids the shuffle", note))
			continue
		}
		var best *candidate
		for _, c := range a.candidates(e, lt, rt, lk, rk) {
			if !a.evaluate(e, c) {
				continue
			}
			if best == nil || c.better(best) {
				best = c
			}
		}
		if best == nil {
			a.unserved(e, "joined with %s on (%s) in "+a.queriesText(e)+": "+a.unservedText(e, lk, rk)+note)
			continue
		}
		a.commit(e, best, note)
	}
}

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

func (c *candidate) better(o *candidate) bool {
	if c.bytes != o.bytes {
		return c.bytes < o.bytes
	}
	if c.gain != o.gain {
		return c.gain > o.gain
	}
	return c.kind < o.kind
}

// current returns a table's layout for this join: the one chosen by a heavier join (fixed),
// else the table's own bucket spec.
func (a *advisor) current(name string, t *plan.Table) (spec *plan.BucketSpec, casts map[string]string, fixed bool) {
	if c := a.layout[name]; c != nil {
		return c.spec, c.casts, true
	}
	if t.Bucket != nil && t.Bucket.NumBuckets > 0 && len(t.Bucket.Columns) > 0 {
		return t.Bucket, nil, false
	}
	return nil, nil, false
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

func (a *advisor) candidates(e *edge, lt, rt *plan.Table, lk, rk []string) []*candidate {
	var out []*candidate
	ls, lcasts, lfixed := a.current(e.l, lt)
	rs, rcasts, rfixed := a.current(e.r, rt)
	subset := func(spec *plan.BucketSpec) map[string]string {
		if len(spec.Columns) < len(e.lk) {
			return map[string]string{simulate.ConfRequireAllCoPartition: "false"}
		}
		return map[string]string{}
	}
	// Keep both layouts.
	if ls != nil && rs != nil {
		if m, ok := mapSubset(ls, lk, rk); ok && equalCols(m, rs.Columns) {
			c := &candidate{kind: 0, confs: subset(ls), choices: map[string]*layoutChoice{}, why: map[string]string{}}
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
			for _, n := range []string{e.l, e.r} {
				spec, casts := ls, lcasts
				if n == e.r {
					spec, casts = rs, rcasts
				}
				c.choices[n] = &layoutChoice{spec: spec, casts: casts, keep: a.layout[n] == nil || a.layout[n].keep}
				c.why[n] = "joined with %s on (%s) in " + a.queriesText(e) + ": keep its layout; " + what + "; nothing is rewritten"
			}
			out = append(out, c)
		}
	}
	// Rewrite one table to the other's layout.
	for _, side := range []struct {
		x, y           string
		xt, yt         *plan.Table
		ys             *plan.BucketSpec
		ycasts         map[string]string
		xs             *plan.BucketSpec
		xfixed, yfixed bool
		xk, yk         []string
	}{
		{e.l, e.r, lt, rt, rs, rcasts, ls, lfixed, rfixed, lk, rk},
		{e.r, e.l, rt, lt, ls, lcasts, rs, rfixed, lfixed, rk, lk},
	} {
		if side.xfixed || side.ys == nil {
			continue
		}
		cols, ok := mapSubset(side.ys, side.yk, side.xk)
		if !ok {
			continue
		}
		n := side.ys.NumBuckets
		if !a.fits(side.xt, n) || a.oversized(side.yt, n) {
			continue
		}
		casts := map[string]string{}
		for i, yc := range side.ys.Columns {
			xtyp, ytyp := colType(side.xt, nil, cols[i]), colType(side.yt, side.ycasts, yc)
			if xtyp == ytyp {
				continue
			}
			xr, yr := simulate.TypeRank(xtyp), simulate.TypeRank(ytyp)
			if xr == 0 || yr == 0 || xr > yr {
				ok = false
				break
			}
			casts[cols[i]] = ytyp
		}
		if !ok {
			continue
		}
		c := &candidate{kind: 1, confs: subset(side.ys), bytes: a.estimate(side.xt), choices: map[string]*layoutChoice{}, why: map[string]string{}}
		c.choices[side.x] = &layoutChoice{spec: &plan.BucketSpec{NumBuckets: n, Columns: cols, SortColumns: cols}, casts: casts}
		c.choices[side.y] = &layoutChoice{spec: side.ys, casts: side.ycasts, keep: a.layout[side.y] == nil || a.layout[side.y].keep}
		xwhy := fmt.Sprintf("joined with %%s on (%%s) in %s: rewrite only %s, bucketed like %s on (%s) into %d buckets (%s), and leave %s as it is: "+
			"the smallest rewrite that removes the shuffle (%s)",
			a.queriesText(e), side.x, side.y, strings.Join(cols, ", "), n, a.fitText(side.xt, n), side.y, a.rewriteText(side.xt, side.yt))
		if side.xs != nil && equalCols(side.xs.Columns, cols) && side.xs.NumBuckets != n && len(casts) > 0 {
			big, small := max(side.xs.NumBuckets, n), min(side.xs.NumBuckets, n)
			if big%small == 0 && big/small <= a.opt.Spark.CoalesceMaxRatio() {
				xwhy += fmt.Sprintf("; its %d buckets against %d alone could be coalesced (spark.sql.bucketing.coalesceBucketsInJoin.enabled, Spark 3.1+, with adaptive execution only from 3.5), but the key types differ, so it is rewritten anyway",
					side.xs.NumBuckets, n)
			}
		}
		if c.confs[simulate.ConfRequireAllCoPartition] != "" {
			xwhy += a.subsetText(side.ys.Columns, side.yk)
		}
		c.why[side.x] = xwhy
		c.why[side.y] = fmt.Sprintf("joined with %%s on (%%s) in %s: keep its layout (%s); %s is rewritten to match it", a.queriesText(e), side.ys, side.x)
		if per, known := a.partitionBytes(side.yt); known && !a.fits(side.yt, n) {
			c.why[side.y] += fmt.Sprintf(" (its own bucket files, %s each, are below %s: worth fewer buckets when it is next rewritten)", sizeBytes(per/int64(n)), a.boundsText())
		}
		out = append(out, c)
	}
	// Rewrite both.
	if !lfixed && !rfixed {
		out = append(out, a.rewriteBoth(e, lt, rt, lk, rk))
	}
	return out
}

// oversized reports a kept table whose bucket files at n buckets are known to exceed
// MaxBucketFileBytes: a layout too coarse to keep (few, huge tasks), so rewriting only the
// other table to match it is not offered.
func (a *advisor) oversized(t *plan.Table, n int) bool {
	per, known := a.partitionBytes(t)
	return known && n > 0 && per/int64(n) > a.opt.MaxBucketFileBytes
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

func (a *advisor) subsetText(cols, keys []string) string {
	return fmt.Sprintf("; the bucket columns (%s) are a subset of the join keys (%s): set spark.sql.requireAllClusterKeysForCoPartition=false (internal, Spark 3.3+) "+
		"so that Spark keeps both layouts for the wider join instead of shuffling both sides", strings.Join(cols, ", "), strings.Join(keys, ", "))
}

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

// rewriteText compares the rewrite of x with the rewrite of y.
func (a *advisor) rewriteText(x, y *plan.Table) string {
	if x.SizeInBytes > 0 && y.SizeInBytes > 0 {
		return fmt.Sprintf("%s of %s rather than %s of %s", sizeBytes(x.SizeInBytes), x.Name, sizeBytes(y.SizeInBytes), y.Name)
	}
	return fmt.Sprintf("one table rewritten instead of two; sizes unknown, %s estimated from the bucket counts as smaller than %s", x.Name, y.Name)
}

// evaluate simulates the join's queries with the candidate applied on top of the layouts
// chosen so far, and reports whether the join is left without an Exchange; it records the
// weighted shuffles the candidate removes from the whole workload.
func (a *advisor) evaluate(e *edge, c *candidate) bool {
	layout := make(map[string]*layoutChoice, len(a.layout)+len(c.choices))
	for k, v := range a.layout {
		layout[k] = v
	}
	for k, v := range c.choices {
		layout[k] = v
	}
	confs := map[string]string{}
	for k, v := range a.confs {
		confs[k] = v
	}
	for k, v := range c.confs {
		confs[k] = v
	}
	tables, opt := a.apply(layout), withConfs(a.opt.Spark, confs)
	for _, d := range e.demands {
		r, err := simulate.Simulate(tables, a.workload[d.query].Query, opt)
		if err != nil || joinShuffles(r.Plan, e.l, e.r) {
			return false
		}
	}
	// The gain counts the queries that read either table (a setting may change others too,
	// but the gain only ranks candidates).
	for i, wq := range a.workload {
		if a.before[i] == nil || !a.reads(i, e.l) && !a.reads(i, e.r) {
			continue
		}
		r, err := simulate.Simulate(tables, wq.Query, opt)
		if err != nil {
			continue
		}
		w := wq.Weight
		if w <= 0 {
			w = 1
		}
		c.gain += w * float64(a.before[i].Exchanges-r.Exchanges)
	}
	return true
}

// reads reports whether workload query i reads the table, as planned before the advice.
func (a *advisor) reads(i int, table string) bool {
	if a.readers == nil {
		a.readers = map[string]map[int]bool{}
	}
	m, ok := a.readers[table]
	if !ok {
		m = map[int]bool{}
		for j, r := range a.before {
			if r != nil && readsTable(r.Plan, table) {
				m[j] = true
			}
		}
		a.readers[table] = m
	}
	return m[i]
}

// joinShuffles reports an Exchange directly under (through Sorts) a join of tables l and r.
func joinShuffles(root plan.Node, l, r string) bool {
	bad := false
	plan.Walk(root, func(n plan.Node) bool {
		if _, ok := plan.JoinOf(n); ok && len(n.Children()) == 2 {
			lt, rt := tableUnder(n.Children()[0]), tableUnder(n.Children()[1])
			if (lt == l && rt == r) || (lt == r && rt == l) {
				for _, c := range n.Children() {
					if exchangeAbove(c) {
						bad = true
					}
				}
			}
		}
		return !bad
	})
	return bad
}

func exchangeAbove(n plan.Node) bool {
	for n != nil {
		switch n.(type) {
		case *plan.Exchange:
			return true
		case *plan.Sort:
			n = n.Children()[0]
		default:
			return false
		}
	}
	return false
}

// commit records the chosen candidate: each table's layout, reason, settings and fixes.
func (a *advisor) commit(e *edge, c *candidate, note string) {
	for k, v := range c.confs {
		a.confs[k] = v
	}
	for _, n := range []string{e.l, e.r} {
		ch := c.choices[n]
		keys := e.lk
		if n == e.r {
			keys = e.rk
		}
		reason := fmt.Sprintf(c.why[n], other(e, n), strings.Join(keys, ", ")) + note
		if old := a.layout[n]; old != nil {
			old.reason += "; " + reason
			ch = old
		} else {
			ch.reason = reason
			if len(ch.casts) > 0 && !ch.keep {
				for _, k := range sortedKeys(ch.casts) {
					ch.reason += fmt.Sprintf("; write %s as %s so both join keys have the same type (a cast key never matches the bucketing)", k, ch.casts[k])
				}
			}
			a.layout[n] = ch
		}
		if len(c.confs) > 0 {
			if ch.confs == nil {
				ch.confs = map[string]string{}
			}
			for k, v := range c.confs {
				ch.confs[k] = v
			}
		}
	}
	for _, d := range e.demands {
		f := Fix{Query: d.query, Tables: []string{d.left, d.right}, Keys: d.leftKeys, What: "join"}
		a.layout[e.l].fixes = append(a.layout[e.l].fixes, f)
		a.layout[e.r].fixes = append(a.layout[e.r].fixes, f)
	}
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// unserved records a join no layout serves: on tables already laid out, that it still
// shuffles; on the others, why, in a note that a lighter join or an aggregation may still
// lay the table out after it (notes then says it).
func (a *advisor) unserved(e *edge, why string) {
	for _, n := range []string{e.l, e.r} {
		keys := e.lk
		if n == e.r {
			keys = e.rk
		}
		if c := a.layout[n]; c != nil {
			c.reason += fmt.Sprintf("; its join with %s on (%s) in %s still shuffles", other(e, n), strings.Join(keys, ", "), a.queriesText(e))
			continue
		}
		a.notes[n] = append(a.notes[n], fmt.Sprintf(why, other(e, n), strings.Join(keys, ", ")))
	}
}

// addNotes adds the unserved joins' notes to the tables' layouts; a table no join or aggregation
// laid out keeps its current layout, with the notes as the reason.
func (a *advisor) addNotes() {
	for n, notes := range a.notes {
		if c := a.layout[n]; c != nil {
			for _, note := range notes {
				c.reason += "; also " + note + ", a join that still shuffles"
			}
			continue
		}
		t := a.table(n)
		if t == nil {
			continue
		}
		spec, _, _ := a.current(n, t)
		a.layout[n] = &layoutChoice{spec: spec, keep: spec != nil, reason: strings.Join(notes, "; ") + "; it keeps its current layout"}
	}
}

// canCoalesce reports whether CoalesceBucketsInJoin would serve the edge: enabled, not
// skipped by adaptive execution (before 3.5), and every join reads both tables directly
// (through Filter and Project only).
func (a *advisor) canCoalesce(e *edge) bool {
	o := a.opt.Spark
	if !o.CoalesceBuckets() || o.Adaptive() && !o.Version().AtLeast(3, 5, 0) {
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

func plural(n int) string {
	if n == 1 {
		return "y"
	}
	return "ies"
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
		parts = append([]string{fmt.Sprintf("about %s per bucket target", sizeBytes(a.opt.TargetBucketBytes))}, parts...)
	case len(unknown) == 2:
		from := fmt.Sprintf("spark.sql.shuffle.partitions (%d)", a.opt.Spark.ShufflePartitions())
		if a.opt.ClusterCores > 0 {
			from = fmt.Sprintf("the cluster's %d cores", a.opt.ClusterCores)
		}
		for _, t := range []*plan.Table{lt, rt} {
			if t.Bucket != nil && t.Bucket.NumBuckets > 0 {
				from = fmt.Sprintf("the larger current count (%s is bucketed into %d)", t.Name, t.Bucket.NumBuckets)
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

func other(e *edge, n string) string {
	if n == e.l {
		return e.r
	}
	return e.l
}

// chooseAggregates buckets each table not chosen for a join on the grouping column its
// aggregations use most (a bucketing on a subset of the grouping keys satisfies the
// aggregation; the whole key list when spark.sql.requireAllClusterKeysForDistribution).
func (a *advisor) chooseAggregates() {
	score := map[string]map[string]float64{}
	// rank is the first position a candidate had in a GROUP BY: ties go to the key written
	// first, usually the entity id rather than a low-cardinality attribute.
	rank := map[string]int{}
	var tables []string
	for _, d := range a.demands {
		if d.join {
			continue
		}
		if score[d.table] == nil {
			score[d.table] = map[string]float64{}
			tables = append(tables, d.table)
		}
		t := a.table(d.table)
		if t == nil {
			continue
		}
		var cands []string
		for _, k := range d.keys {
			// A partition column is never a bucket column.
			if !isPartitionColumn(t, k) {
				cands = append(cands, k)
			}
		}
		if a.opt.Spark.RequireAllClusterKeysForDistribution() {
			if len(cands) < len(d.keys) {
				continue
			}
			cands = []string{strings.Join(d.keys, ",")}
		}
		for i, k := range cands {
			score[d.table][k] += d.weight
			if r, ok := rank[d.table+"."+k]; !ok || i < r {
				rank[d.table+"."+k] = i
			}
		}
	}
	for _, table := range tables {
		cols := score[table]
		if a.layout[table] == nil {
			best, bw := "", 0.0
			for c, w := range cols {
				better := w > bw || (w == bw && (rank[table+"."+c] < rank[table+"."+best] || rank[table+"."+c] == rank[table+"."+best] && c < best))
				if best == "" || better {
					best, bw = c, w
				}
			}
			t := a.table(table)
			if t == nil || best == "" {
				continue
			}
			if cur, _, _ := a.current(table, t); cur != nil {
				// Keep a bucketing that serves at least as much of the aggregation weight.
				kw := 0.0
				for _, d := range a.demands {
					if !d.join && d.table == table && a.servesAggregate(cur.Columns, d.keys) {
						kw += d.weight
					}
				}
				if kw >= bw {
					a.layout[table] = &layoutChoice{spec: cur, keep: true, reason: fmt.Sprintf("aggregated by its bucket column(s) %s (weight %g): keep its layout, the aggregation needs no shuffle", strings.Join(cur.Columns, ", "), kw)}
					best = ""
				}
			}
			if best != "" {
				n := a.bucketCount(t)
				a.assign(table, strings.Split(best, ","), n, nil, fmt.Sprintf("aggregated by %s (weight %g): bucket on it into %d buckets so the aggregation needs no shuffle (%s)", best, bw, n, a.sizeText(t, n)))
			}
		}
		c := a.layout[table]
		if c == nil || c.spec == nil {
			continue
		}
		for _, d := range a.demands {
			if !d.join && d.table == table && a.servesAggregate(c.spec.Columns, d.keys) {
				c.fixes = append(c.fixes, Fix{Query: d.query, Tables: []string{table}, Keys: d.keys, What: "aggregate"})
			}
		}
	}
	for name, t := range a.tables {
		if a.layout[name] == nil && a.broadcastable(t) && a.joined(name) {
			a.layout[name] = &layoutChoice{reason: fmt.Sprintf("%s is %s, within spark.sql.autoBroadcastJoinThreshold (%s): Spark broadcasts it, so bucketing it buys nothing; leave it unbucketed", name, sizeBytes(t.SizeInBytes), sizeBytes(a.opt.Spark.BroadcastThreshold()))}
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

// canBroadcast reports whether every join of the edge can broadcast the table: Spark builds a
// broadcast hash join only on the side an outer, semi or anti join does not preserve
// (JoinSelection's canBuildBroadcastLeft/Right); neither side of a full outer join.
func (a *advisor) canBroadcast(e *edge, table string) bool {
	for _, d := range e.demands {
		left := d.left == table
		typ := strings.ToLower(strings.ReplaceAll(d.joinType, " ", ""))
		if strings.HasPrefix(typ, "existencejoin") {
			typ = "existencejoin"
		}
		switch typ {
		case "inner", "cross", "":
		case "leftouter", "leftsemi", "leftanti", "existencejoin":
			if left {
				return false
			}
		case "rightouter":
			if !left {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// broadcastInstead advises broadcasting a join's small side rather than bucketing either
// table, and reports whether it did: a side of known size at most BroadcastFactor × the
// broadcast threshold (10 MiB when the threshold is -1). A broadcast hash join shuffles
// neither side, and no table is rewritten.
func (a *advisor) broadcastInstead(e *edge, lt, rt *plan.Table) bool {
	th := a.opt.Spark.BroadcastThreshold()
	base := th
	if base < 0 {
		base = 10 << 20
	}
	limit := int64(float64(base) * a.opt.BroadcastFactor)
	var small *plan.Table
	name, keys := "", []string(nil)
	for _, s := range []struct {
		n string
		t *plan.Table
		k []string
	}{{e.l, lt, e.lk}, {e.r, rt, e.rk}} {
		if !a.canBroadcast(e, s.n) {
			continue
		}
		if s.t.SizeInBytes > 0 && s.t.SizeInBytes <= limit && (small == nil || s.t.SizeInBytes < small.SizeInBytes) {
			small, name, keys = s.t, s.n, s.k
		}
	}
	if small == nil {
		return false
	}
	how := fmt.Sprintf("hint the join, SELECT /*+ BROADCAST(%s) */ … (or broadcast(df) in the DataFrame API)", name)
	switch {
	case th < 0:
		how += ", since spark.sql.autoBroadcastJoinThreshold=-1 turns size-based broadcasting off"
	case small.SizeInBytes > th:
		how += fmt.Sprintf(", or raise spark.sql.autoBroadcastJoinThreshold from %s to at least %s", sizeBytes(th), sizeBytes(small.SizeInBytes))
	}
	text := fmt.Sprintf("%s is %s, joined with %s on (%s) in %s: broadcast it rather than bucket either table — a broadcast hash join shuffles neither side and rewrites nothing; %s "+
		"(advised up to %g × the broadcast threshold, %s: every executor holds the broadcast table in memory; an outer join can only broadcast its inner side)",
		name, sizeBytes(small.SizeInBytes), other(e, name), strings.Join(keys, ", "), a.queriesText(e), how, a.opt.BroadcastFactor, sizeBytes(limit))
	if c := a.layout[name]; c != nil {
		c.reason += "; " + text
		return true
	}
	// A bucketed small table keeps its layout: broadcasting needs no change to it.
	spec, _, _ := a.current(name, small)
	a.layout[name] = &layoutChoice{spec: spec, keep: spec != nil, reason: text}
	return true
}

func (a *advisor) joined(name string) bool {
	for _, b := range a.broadcasts {
		if b == name {
			return true
		}
	}
	for _, d := range a.demands {
		if d.join && (d.left == name || d.right == name) {
			return true
		}
	}
	return false
}

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

// apply returns the tables with the layouts; a kept layout leaves its table as it is.
func (a *advisor) apply(layout map[string]*layoutChoice) map[string]*plan.Table {
	out := make(map[string]*plan.Table, len(a.tables))
	for k, t := range a.tables {
		out[k] = t
	}
	for name, c := range layout {
		t := a.table(name)
		if t == nil || c.spec == nil || c.keep {
			continue
		}
		nt := *t
		nt.Bucket = c.spec
		nt.Format = RewriteFormat(t)
		nt.Hive, nt.HiveFormat = false, ""
		nt.Columns = append([]plan.Column(nil), t.Columns...)
		for i, col := range nt.Columns {
			if typ, ok := c.casts[strings.ToLower(col.Name)]; ok {
				nt.Columns[i].Type = typ
			}
		}
		out[nt.Name] = &nt
	}
	return out
}

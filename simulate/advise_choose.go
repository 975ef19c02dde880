package simulate

import (
	"fmt"
	"sort"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
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

// chooseJoins gives both tables of the heaviest joins the same bucket columns (the join keys,
// in one order), the same count and the same key types; a later join that conflicts with a
// table's chosen layout is left as it is and said so.
func (a *advisor) chooseJoins() {
	for _, e := range a.edges() {
		lt, rt := a.table(e.l), a.table(e.r)
		if lt == nil || rt == nil {
			continue
		}
		lc, rc := a.layout[e.l], a.layout[e.r]
		lcols, rcols := e.lk, e.rk
		switch {
		case lc != nil && rc != nil:
			if !sameOrderPairs(lc.spec, rc.spec, e.lk, e.rk) {
				a.conflict(e)
				continue
			}
		case lc != nil:
			var ok bool
			if rcols, ok = mapOrder(lc.spec, e.lk, e.rk); !ok {
				a.conflict(e)
				continue
			}
			lcols = lc.spec.Columns
		case rc != nil:
			var ok bool
			if lcols, ok = mapOrder(rc.spec, e.rk, e.lk); !ok {
				a.conflict(e)
				continue
			}
			rcols = rc.spec.Columns
		}
		n := max(a.bucketCount(lt), a.bucketCount(rt))
		for _, c := range []*layoutChoice{lc, rc} {
			if c != nil {
				n = c.spec.NumBuckets
			}
		}
		casts := map[string]map[string]string{e.l: {}, e.r: {}}
		for i := range e.lk {
			l, _ := lt.Column(e.lk[i])
			r, _ := rt.Column(e.rk[i])
			lr, rr := typeRank(strings.ToLower(l.Type)), typeRank(strings.ToLower(r.Type))
			switch {
			case lr > 0 && rr > 0 && lr < rr:
				casts[e.l][e.lk[i]] = strings.ToLower(r.Type)
			case lr > 0 && rr > 0 && rr < lr:
				casts[e.r][e.rk[i]] = strings.ToLower(l.Type)
			}
		}
		why := fmt.Sprintf("joined with %%s on (%%s) in %d quer%s (weight %g): bucket both on the join keys into %d buckets%s",
			len(e.demands), plural(len(e.demands)), e.weight, n, a.countWhy(lt, rt))
		nl, nr := n, n
		if lc == nil && rc == nil && a.canCoalesce(e) {
			cl, cr := a.bucketCount(lt), a.bucketCount(rt)
			if small, ok := a.coalescedCount(cl, cr); ok {
				big := max(cl, cr)
				if cl < cr {
					nl, nr = small, big
				} else {
					nl, nr = big, small
				}
				why = fmt.Sprintf("joined with %%s on (%%s) in %d quer%s (weight %g): bucket both on the join keys, %s into %d and %s into %d buckets%s; "+
					"with spark.sql.bucketing.coalesceBucketsInJoin.enabled Spark reads the larger side's buckets coalesced to the smaller count (ratio %d within maxBucketRatio %d), so neither side is shuffled",
					len(e.demands), plural(len(e.demands)), e.weight, e.l, nl, e.r, nr, a.countWhy(lt, rt), big/small, a.opt.Options.CoalesceMaxRatio())
			}
		}
		a.assign(e.l, lcols, nl, casts[e.l], fmt.Sprintf(why, e.r, strings.Join(e.lk, ", ")))
		a.assign(e.r, rcols, nr, casts[e.r], fmt.Sprintf(why, e.l, strings.Join(e.rk, ", ")))
		for _, d := range e.demands {
			f := Fix{Query: d.query, Tables: []string{d.left, d.right}, Keys: d.leftKeys, What: "join"}
			a.layout[e.l].fixes = append(a.layout[e.l].fixes, f)
			a.layout[e.r].fixes = append(a.layout[e.r].fixes, f)
		}
	}
}

// canCoalesce reports whether CoalesceBucketsInJoin would serve the edge: enabled, not
// skipped by adaptive execution (before 3.5), and every join reads both tables directly
// (through Filter and Project only).
func (a *advisor) canCoalesce(e *edge) bool {
	o := a.opt.Options
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
	for r := min(a.opt.Options.CoalesceMaxRatio(), big/small); r >= 2; r-- {
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

func (a *advisor) countWhy(lt, rt *plan.Table) string {
	var parts []string
	for _, t := range []*plan.Table{lt, rt} {
		if t.SizeInBytes > 0 {
			parts = append(parts, fmt.Sprintf("%s is %s", t.Name, bytesText(t.SizeInBytes)))
		}
	}
	s := fmt.Sprintf(" (about %s per bucket target", bytesText(a.opt.TargetBucketBytes))
	if len(parts) > 0 {
		s += "; " + strings.Join(parts, ", ")
	}
	if a.opt.ClusterCores > 0 {
		s += fmt.Sprintf("; %d cores", a.opt.ClusterCores)
	}
	if a.opt.PowerOfTwo {
		s += "; rounded to a power of two"
	}
	return s + "); the same count on both sides lets Spark join bucket i with bucket i"
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

func (a *advisor) conflict(e *edge) {
	for _, n := range []string{e.l, e.r} {
		if c := a.layout[n]; c != nil {
			c.reason += fmt.Sprintf("; its join with %s on other keys still shuffles (a table has one bucketing)", other(e, n))
		}
	}
}

func other(e *edge, n string) string {
	if n == e.l {
		return e.r
	}
	return e.l
}

// mapOrder maps a chosen spec's column order through key pairs onto the other side's columns;
// false when the keys are not exactly the spec's columns.
func mapOrder(spec *plan.BucketSpec, keys, otherKeys []string) ([]string, bool) {
	if len(spec.Columns) != len(keys) {
		return nil, false
	}
	out := make([]string, 0, len(keys))
	for _, c := range spec.Columns {
		found := false
		for i, k := range keys {
			if k == c {
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

func sameOrderPairs(ls, rs *plan.BucketSpec, lk, rk []string) bool {
	m, ok := mapOrder(ls, lk, rk)
	if !ok || len(m) != len(rs.Columns) || ls.NumBuckets != rs.NumBuckets {
		return false
	}
	for i := range m {
		if m[i] != rs.Columns[i] {
			return false
		}
	}
	return true
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
		cands := d.keys
		if a.opt.Options.RequireAllClusterKeysForDistribution() {
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
			n := a.bucketCount(t)
			a.assign(table, strings.Split(best, ","), n, nil, fmt.Sprintf("aggregated by %s (weight %g): bucket on it into %d buckets so the aggregation needs no shuffle", best, bw, n))
		}
		c := a.layout[table]
		for _, d := range a.demands {
			if !d.join && d.table == table && subsetStrings(c.spec.Columns, d.keys) {
				c.fixes = append(c.fixes, Fix{Query: d.query, Tables: []string{table}, Keys: d.keys, What: "aggregate"})
			}
		}
	}
	for name, t := range a.tables {
		if a.layout[name] == nil && a.broadcastable(t) && a.joined(name) {
			a.layout[name] = &layoutChoice{reason: fmt.Sprintf("%s is %s, within spark.sql.autoBroadcastJoinThreshold (%s): Spark broadcasts it, so bucketing it buys nothing; leave it unbucketed", name, bytesText(t.SizeInBytes), bytesText(a.opt.Options.BroadcastThreshold()))}
		}
	}
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

// apply returns the tables with the advised layouts.
func (a *advisor) apply() map[string]*plan.Table {
	out := make(map[string]*plan.Table, len(a.tables))
	for k, t := range a.tables {
		out[k] = t
	}
	for name, c := range a.layout {
		t := a.table(name)
		if t == nil || c.spec == nil {
			continue
		}
		nt := *t
		nt.Bucket = c.spec
		nt.Hive = false
		if nt.Format == "" || nt.Format == "hive" || nt.Format == "delta" {
			nt.Format = "parquet"
		}
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

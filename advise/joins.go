package advise

import (
	"fmt"
	"sort"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
)

// An edge is every join between two tables on the same key pairs, its weight summed, and
// its shuffles' bytes measured in real runs (Options.Measure; 0 when none).
type edge struct {
	l, r     string
	lk, rk   []string
	weight   float64
	measured int64
	demands  []demand
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

// edges groups the workload's joins into edges, heaviest first: by the bytes their shuffles
// wrote in real runs (Options.Measure), then by weight times the tables' known sizes.
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
		e.measured += d.measuredBytes()
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
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].measured != out[j].measured {
			return out[i].measured > out[j].measured
		}
		return out[i].weight*size(out[i]) > out[j].weight*size(out[j])
	})
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
		if len(lk) < len(e.lk) && !a.opt.Spark.Behaviour().CoPartition.ShuffleSpecs() {
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
	tables := a.apply(layout, a.tables)
	spjConfs(layout, tables, confs)
	// Each query is simulated once with the candidate: a join's own queries are most of the
	// queries that read its tables, and a query as long as a chain of joins costs the square
	// of its length to plan (issue 14).
	after := map[int]*simulate.Result{}
	simulated := func(i int) (*simulate.Result, error) {
		if r, ok := after[i]; ok {
			return r, nil
		}
		r, err := simulate.Simulate(a.afterTables(i, layout, tables), a.workload[i].Query, withConfs(a.sparkOf(i), confs))
		if err == nil {
			after[i] = r
		}
		return r, err
	}
	for _, d := range e.demands {
		r, err := simulated(d.query)
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
		r, err := simulated(i)
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

// exchangeAbove reports an Exchange directly above a join side, through Sorts.
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

// current returns a table's layout for this join: the one chosen by a heavier join (fixed),
// else the table's own bucket spec.
func (a *advisor) current(name string, t *plan.Table) (spec *plan.BucketSpec, casts map[string]string, fixed bool) {
	if c := a.layout[name]; c != nil {
		return c.spec, c.casts, true
	}
	if t.Buckets() != nil && t.Buckets().NumBuckets > 0 && len(t.Buckets().Columns) > 0 {
		return t.Buckets(), nil, false
	}
	return nil, nil, false
}

// apply returns tables with the layouts; a kept layout leaves its table as it is.
func (a *advisor) apply(layout map[string]*layoutChoice, tables map[string]*plan.Table) map[string]*plan.Table {
	out := make(map[string]*plan.Table, len(tables))
	for k, t := range tables {
		out[k] = t
	}
	for name, c := range layout {
		t := lookupTable(tables, name)
		if t == nil || c.spec == nil || c.keep {
			continue
		}
		nt := *t
		nt.Format = RewriteFormat(t)
		nt.Hive, nt.HiveFormat = false, ""
		nt.Layout = &plan.SparkBuckets{BucketSpec: *c.spec}
		if plan.V2CatalogFormat(nt.Format) {
			nt.Layout = &plan.Transforms{Items: IcebergTransforms(c.spec)}
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

// spjConfs adds to confs the settings a storage-partitioned join needs when a layout is
// advised for a v2 (Iceberg) table: its bucket transforms group its scans only with both on.
func spjConfs(layout map[string]*layoutChoice, tables map[string]*plan.Table, confs map[string]string) {
	for name, c := range layout {
		if t := lookupTable(tables, name); t != nil && c.spec != nil && !c.keep && plan.V2CatalogFormat(t.Format) {
			confs[simulate.ConfV2Bucketing] = "true"
			confs[simulate.ConfIcebergPreserveGrouping] = "true"
			return
		}
	}
}

// other is the edge's table that is not n.
func other(e *edge, n string) string {
	if n == e.l {
		return e.r
	}
	return e.l
}

// sortedKeys is the map's keys, sorted.
func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

package advise

import (
	"sort"
	"strings"
)

// A Shuffled is a join or an aggregation of the workload whose cost in real runs
// Options.Measure looks up.
type Shuffled struct {
	// What is "join" or "aggregate".
	What string
	// Tables are the join's two tables or the aggregated table; Keys each one's key columns
	// (a join's pairwise, an aggregation's grouping columns).
	Tables []string
	Keys   [][]string
}

// A Measure is what the shuffles of a join or an aggregation wrote in real runs.
type Measure struct {
	// Bytes is the shuffle bytes written, summed over Runs SQL executions.
	Bytes int64
	Runs  int
}

// measured looks up what a demand cost in real runs, nil when Options.Measure is not set or
// no run measured it.
func (a *advisor) measured(d demand) *Measure {
	if a.opt.Measure == nil {
		return nil
	}
	s := Shuffled{What: "aggregate", Tables: []string{d.table}, Keys: [][]string{d.keys}}
	if d.join {
		s = Shuffled{What: "join", Tables: []string{d.left, d.right}, Keys: [][]string{d.leftKeys, d.rightKeys}}
	}
	if m, ok := a.opt.Measure(s); ok {
		return &m
	}
	return nil
}

// shuffledKey names a demand's join or aggregation, the same for every query that runs it:
// measured bytes are the logs' total for it, so they count once however many queries run it.
func shuffledKey(f Fix) string {
	return f.What + "|" + strings.Join(f.Tables, ",") + "|" + strings.Join(f.Keys, ",")
}

// measureDemands looks up each demand's measure once per distinct join or aggregation: the
// first demand of each carries it, the others none, so that sums over demands count each
// measured shuffle once.
func (a *advisor) measureDemands() {
	if a.opt.Measure == nil {
		return
	}
	seen := map[string]bool{}
	for i := range a.demands {
		d := &a.demands[i]
		f := d.fix()
		if seen[shuffledKey(f)] {
			continue
		}
		seen[shuffledKey(f)] = true
		d.measure = a.measured(*d)
	}
}

// fix is the demand as the Fix a layout that serves it records.
func (d demand) fix() Fix {
	if d.join {
		return Fix{Query: d.query, Tables: []string{d.left, d.right}, Keys: d.leftKeys, What: "join"}
	}
	return Fix{Query: d.query, Tables: []string{d.table}, Keys: d.keys, What: "aggregate"}
}

// measuredBytes is a demand's measured bytes, 0 when none.
func (d demand) measuredBytes() int64 {
	if d.measure == nil {
		return 0
	}
	return d.measure.Bytes
}

// addMeasures gives each recommendation's fixes their measures and the recommendation the
// bytes of the measured shuffles it removes, each distinct join or aggregation once; with
// Options.Measure set, recommendations are then ranked by those bytes, the others after them
// in table order.
func (a *advisor) addMeasures(recs []Recommendation) {
	if a.opt.Measure == nil {
		return
	}
	for i := range recs {
		r := &recs[i]
		r.Evidence = true
		seen := map[string]bool{}
		for j := range r.Fixes {
			f := &r.Fixes[j]
			k := shuffledKey(*f)
			f.Measured = a.fixMeasure(k)
			if f.Measured != nil && !seen[k] {
				seen[k] = true
				r.MeasuredBytes += f.Measured.Bytes
			}
		}
	}
	sort.SliceStable(recs, func(i, j int) bool { return recs[i].MeasuredBytes > recs[j].MeasuredBytes })
}

// fixMeasure is the measure of the demand a fix names (by shuffledKey).
func (a *advisor) fixMeasure(key string) *Measure {
	for _, d := range a.demands {
		if d.measure != nil && shuffledKey(d.fix()) == key {
			return d.measure
		}
	}
	return nil
}

package advise

import (
	"fmt"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

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
		how += fmt.Sprintf(", or raise spark.sql.autoBroadcastJoinThreshold from %s to at least %s", plan.SizeText(th), plan.SizeText(small.SizeInBytes))
	}
	text := fmt.Sprintf("%s is %s, joined with %s on (%s) in %s: broadcast it rather than bucket either table — a broadcast hash join shuffles neither side and rewrites nothing; %s "+
		"(advised up to %g × the broadcast threshold, %s: every executor holds the broadcast table in memory; an outer join can only broadcast its inner side)",
		name, plan.SizeText(small.SizeInBytes), other(e, name), strings.Join(keys, ", "), a.queriesText(e), how, a.opt.BroadcastFactor, plan.SizeText(limit))
	if c := a.layout[name]; c != nil {
		c.reason += "; " + text
		return true
	}
	// A bucketed small table keeps its layout: broadcasting needs no change to it.
	spec, _, _ := a.current(name, small)
	a.layout[name] = &layoutChoice{spec: spec, keep: spec != nil, reason: text}
	return true
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

// leaveBroadcastsUnbucketed advises the joined tables that no join or aggregation laid out
// and that Spark broadcasts by size to stay unbucketed.
func (a *advisor) leaveBroadcastsUnbucketed() {
	for name, t := range a.tables {
		if a.layout[name] == nil && a.broadcastable(t) && a.joined(name) {
			a.layout[name] = &layoutChoice{reason: fmt.Sprintf("%s is %s, within spark.sql.autoBroadcastJoinThreshold (%s): Spark broadcasts it, so bucketing it buys nothing; leave it unbucketed", name, plan.SizeText(t.SizeInBytes), plan.SizeText(a.opt.Spark.BroadcastThreshold()))}
		}
	}
}

// broadcastable reports a table of known size within spark.sql.autoBroadcastJoinThreshold.
func (a *advisor) broadcastable(t *plan.Table) bool {
	th := a.opt.Spark.BroadcastThreshold()
	return t != nil && th >= 0 && t.SizeInBytes >= 0 && t.SizeInBytes <= th
}

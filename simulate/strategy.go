package simulate

import (
	"fmt"

	"github.com/bucketlint/bucketlint/plan"
)

// planJoin is JoinSelection (SparkStrategies.scala, Spark 3.0–4.x) for one join: hints first
// (BROADCAST > MERGE > SHUFFLE_HASH > SHUFFLE_REPLICATE_NL), then broadcast by size,
// shuffled hash join when sort-merge is not preferred, sort-merge join, and the nested-loop
// fallbacks. A broadcast build side gets a BroadcastExchange here; shuffles come later from
// EnsureRequirements.
func (s *sim) planJoin(left, right *node, typ string, lk, rk []plan.Expr, residual []*plan.X, hints []plan.Hint) *node {
	lh, rh := sideHints(left, hints), sideHints(right, hints)
	j := plan.Join{Type: typ, LeftKeys: lk, RightKeys: rk}
	out := append(append([]attr{}, left.out...), right.out...)
	if len(residual) > 0 {
		cond := condition(boundAnd(residual, out))
		j.Condition = &cond
	}
	if typ == "LeftSemi" || typ == "LeftAnti" {
		out = left.out
	}
	size := joinSize(typ, left.size, right.size)
	equi := len(lk) > 0
	threshold := s.opt.BroadcastThreshold()
	bySize := func(n *node) bool { return threshold >= 0 && n.size >= 0 && n.size <= threshold }
	pick := func(bl, br bool) string {
		switch {
		case bl && br:
			if right.size >= 0 && (left.size < 0 || right.size <= left.size) {
				return "BuildRight"
			}
			return "BuildLeft"
		case bl:
			return "BuildLeft"
		case br:
			return "BuildRight"
		}
		return ""
	}
	mk := func(strategy plan.JoinStrategy, build, why string) *node {
		j.Strategy, j.BuildSide = strategy, build
		var op plan.Node
		switch strategy {
		case plan.SortMergeJoinStrategy:
			op = &plan.SortMergeJoin{OpInfo: info("SortMergeJoin"), Join: j}
		case plan.ShuffledHashJoinStrategy:
			op = &plan.ShuffledHashJoin{OpInfo: info("ShuffledHashJoin"), Join: j}
		case plan.BroadcastHashJoinStrategy:
			op = &plan.BroadcastHashJoin{OpInfo: info("BroadcastHashJoin"), Join: j}
		case plan.BroadcastNestedLoopJoinStrategy:
			op = &plan.BroadcastNestedLoopJoin{OpInfo: info("BroadcastNestedLoopJoin"), Join: j}
		default:
			op = &plan.CartesianProduct{OpInfo: info("CartesianProduct"), Join: j}
		}
		l, r := left, right
		n := newNode(op, out, size, l, r)
		if build != "" && (strategy == plan.BroadcastHashJoinStrategy || strategy == plan.BroadcastNestedLoopJoinStrategy) {
			i, side := 1, "right"
			if build == "BuildLeft" {
				i, side = 0, "left"
			}
			b := n.kids[i]
			bx := &plan.BroadcastExchange{OpInfo: info("BroadcastExchange")}
			if strategy == plan.BroadcastHashJoinStrategy {
				bx.Keys = lk
				if i == 1 {
					bx.Keys = rk
				}
				bx.Mode = "HashedRelationBroadcastMode(List(" + exprsText(bx.Keys) + "),false)"
			} else {
				bx.Mode = "IdentityBroadcastMode"
			}
			n.kids[i] = newNode(bx, b.out, b.size, b)
			s.decide(n, side, InsertedBroadcast, CauseBroadcast, describeRel(b)+" is broadcast: "+why)
		} else if why != "" {
			s.decide(n, "left", InsertedNone, CauseBroadcast, why)
		}
		return n
	}
	if equi {
		if lh["broadcast"] || rh["broadcast"] {
			if b := pick(lh["broadcast"] && canBuildLeft(typ, false, s.b), rh["broadcast"] && canBuildRight(typ, false, s.b)); b != "" {
				return mk(plan.BroadcastHashJoinStrategy, b, "a BROADCAST hint names it")
			}
		}
		if lh["merge"] || rh["merge"] {
			return mk(plan.SortMergeJoinStrategy, "", "")
		}
		if lh["shuffle_hash"] || rh["shuffle_hash"] {
			if b := pick(lh["shuffle_hash"] && canBuildLeft(typ, true, s.b), rh["shuffle_hash"] && canBuildRight(typ, true, s.b)); b != "" {
				return mk(plan.ShuffledHashJoinStrategy, b, "")
			}
		}
		if (lh["shuffle_replicate_nl"] || rh["shuffle_replicate_nl"]) && (typ == "Inner" || typ == "Cross") {
			return mk(plan.CartesianProductStrategy, "", "")
		}
		if b := pick(canBuildLeft(typ, false, s.b) && bySize(left), canBuildRight(typ, false, s.b) && bySize(right)); b != "" {
			side := right
			if b == "BuildLeft" {
				side = left
			}
			return mk(plan.BroadcastHashJoinStrategy, b, fmt.Sprintf("it is %s, within spark.sql.autoBroadcastJoinThreshold (%s), so the join needs no shuffle", plan.SizeText(side.size), plan.SizeText(threshold)))
		}
		if !s.opt.PreferSortMergeJoin() {
			factor := int64(s.opt.ShuffledHashJoinFactor())
			local := func(n, other *node) bool {
				return n.size >= 0 && threshold > 0 && n.size < threshold*int64(s.opt.ShufflePartitions()) &&
					(other.size < 0 || n.size*factor <= other.size)
			}
			if b := pick(canBuildLeft(typ, true, s.b) && local(left, right), canBuildRight(typ, true, s.b) && local(right, left)); b != "" {
				return mk(plan.ShuffledHashJoinStrategy, b, "")
			}
		}
		return mk(plan.SortMergeJoinStrategy, "", "")
	}
	// No equi-join keys: broadcast nested loop join or a cartesian product.
	bl := canBuildLeft(typ, false, s.b) || typ == "FullOuter"
	br := canBuildRight(typ, false, s.b) || typ == "FullOuter"
	if b := pick(lh["broadcast"] && bl, rh["broadcast"] && br); b != "" {
		return mk(plan.BroadcastNestedLoopJoinStrategy, b, "a BROADCAST hint names it")
	}
	if b := pick(bl && bySize(left), br && bySize(right)); b != "" {
		return mk(plan.BroadcastNestedLoopJoinStrategy, b, "it is within spark.sql.autoBroadcastJoinThreshold")
	}
	if typ == "Inner" || typ == "Cross" {
		return mk(plan.CartesianProductStrategy, "", "")
	}
	b := "BuildRight"
	if typ == "RightOuter" {
		b = "BuildLeft"
	}
	return mk(plan.BroadcastNestedLoopJoinStrategy, b, "a non-equi "+typ+" join has no shuffled strategy")
}

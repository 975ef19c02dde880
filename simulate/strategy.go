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
	jp := &joinPlanner{s: s, left: left, right: right, typ: typ, threshold: s.opt.BroadcastThreshold()}
	jp.j = plan.Join{Type: typ, LeftKeys: lk, RightKeys: rk}
	jp.out = s.joinOutput(left.out, right.out)
	if len(residual) > 0 {
		cond := condition(boundAnd(residual, jp.out))
		jp.j.Condition = &cond
	}
	if typ == "LeftSemi" || typ == "LeftAnti" {
		jp.out = left.out
	}
	jp.size = joinSize(typ, left.size, right.size)
	lh, rh := sideHints(left, hints), sideHints(right, hints)
	if len(lk) > 0 {
		return jp.equiJoin(lh, rh)
	}
	return jp.nonEquiJoin(lh, rh)
}

// joinOutput is a join's output: the left side's columns, then the right side's. A chain of
// joins would copy its growing output at every level, n² columns for n joins (advise on a
// 1,000-join chain allocated 439 MB a run, issue 14). When the left side's output is the one
// made last, it is extended in place instead: s.joinOut keeps that output with its spare
// capacity, and a node holds it clipped to its own length, so an append by any other holder
// copies, and the columns a node holds never change.
func (s *sim) joinOutput(left, right []attr) []attr {
	if n := len(left); n == 0 || n != len(s.joinOut) || &left[0] != &s.joinOut[0] {
		s.joinOut = append(make([]attr, 0, len(left)+len(right)), left...)
	}
	s.joinOut = append(s.joinOut, right...)
	return s.joinOut[:len(s.joinOut):len(s.joinOut)]
}

// joinPlanner holds one join while planJoin chooses its strategy: its two inputs, the join
// as the chosen operator will carry it, its output and estimated size, and the broadcast
// threshold in force.
type joinPlanner struct {
	s           *sim
	left, right *node
	typ         string
	j           plan.Join
	out         []attr
	size        int64
	threshold   int64
}

// bySize reports whether n is small enough to broadcast (spark.sql.autoBroadcastJoinThreshold).
func (jp *joinPlanner) bySize(n *node) bool {
	return jp.threshold >= 0 && n.size >= 0 && n.size <= jp.threshold
}

// pick chooses the build side among those allowed (bl, br): the smaller side when both are
// (the right one on a tie or when only its size is known), "" when neither is.
func (jp *joinPlanner) pick(bl, br bool) string {
	switch {
	case bl && br:
		if jp.right.size >= 0 && (jp.left.size < 0 || jp.right.size <= jp.left.size) {
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

// equiJoin chooses the strategy of a join with equi-join keys: BROADCAST, MERGE, SHUFFLE_HASH
// and SHUFFLE_REPLICATE_NL hints, then broadcast by size, then a shuffled hash join when
// sort-merge is not preferred and one side is much smaller, else a sort-merge join.
func (jp *joinPlanner) equiJoin(lh, rh map[string]bool) *node {
	s, typ, left, right := jp.s, jp.typ, jp.left, jp.right
	if lh["broadcast"] || rh["broadcast"] {
		if b := jp.pick(lh["broadcast"] && canBuildLeft(typ, false, s.b), rh["broadcast"] && canBuildRight(typ, false, s.b)); b != "" {
			return jp.make(plan.BroadcastHashJoinStrategy, b, "a BROADCAST hint names it")
		}
	}
	if lh["merge"] || rh["merge"] {
		return jp.make(plan.SortMergeJoinStrategy, "", "")
	}
	if lh["shuffle_hash"] || rh["shuffle_hash"] {
		if b := jp.pick(lh["shuffle_hash"] && canBuildLeft(typ, true, s.b), rh["shuffle_hash"] && canBuildRight(typ, true, s.b)); b != "" {
			return jp.make(plan.ShuffledHashJoinStrategy, b, "")
		}
	}
	if (lh["shuffle_replicate_nl"] || rh["shuffle_replicate_nl"]) && (typ == "Inner" || typ == "Cross") {
		return jp.make(plan.CartesianProductStrategy, "", "")
	}
	if b := jp.pick(canBuildLeft(typ, false, s.b) && jp.bySize(left), canBuildRight(typ, false, s.b) && jp.bySize(right)); b != "" {
		side := right
		if b == "BuildLeft" {
			side = left
		}
		return jp.make(plan.BroadcastHashJoinStrategy, b, fmt.Sprintf("it is %s, within spark.sql.autoBroadcastJoinThreshold (%s), so the join needs no shuffle", plan.SizeText(side.size), plan.SizeText(jp.threshold)))
	}
	if !s.opt.PreferSortMergeJoin() {
		if b := jp.pick(canBuildLeft(typ, true, s.b) && jp.canBuildLocal(left, right), canBuildRight(typ, true, s.b) && jp.canBuildLocal(right, left)); b != "" {
			return jp.make(plan.ShuffledHashJoinStrategy, b, "")
		}
	}
	return jp.make(plan.SortMergeJoinStrategy, "", "")
}

// canBuildLocal reports whether n may be the build side of a shuffled hash join against
// other: each of its partitions fits under the broadcast threshold and it is at least
// spark.sql.shuffledHashJoinFactor times smaller than other.
func (jp *joinPlanner) canBuildLocal(n, other *node) bool {
	factor := int64(jp.s.opt.ShuffledHashJoinFactor())
	return n.size >= 0 && jp.threshold > 0 && n.size < jp.threshold*int64(jp.s.opt.ShufflePartitions()) &&
		(other.size < 0 || n.size*factor <= other.size)
}

// nonEquiJoin chooses the strategy of a join without equi-join keys: a broadcast nested loop
// join (by hint, by size, or as the only strategy an outer join has) or a cartesian product.
func (jp *joinPlanner) nonEquiJoin(lh, rh map[string]bool) *node {
	typ := jp.typ
	bl := canBuildLeft(typ, false, jp.s.b) || typ == "FullOuter"
	br := canBuildRight(typ, false, jp.s.b) || typ == "FullOuter"
	if b := jp.pick(lh["broadcast"] && bl, rh["broadcast"] && br); b != "" {
		return jp.make(plan.BroadcastNestedLoopJoinStrategy, b, "a BROADCAST hint names it")
	}
	if b := jp.pick(bl && jp.bySize(jp.left), br && jp.bySize(jp.right)); b != "" {
		return jp.make(plan.BroadcastNestedLoopJoinStrategy, b, "it is within spark.sql.autoBroadcastJoinThreshold")
	}
	if typ == "Inner" || typ == "Cross" {
		return jp.make(plan.CartesianProductStrategy, "", "")
	}
	b := "BuildRight"
	if typ == "RightOuter" {
		b = "BuildLeft"
	}
	return jp.make(plan.BroadcastNestedLoopJoinStrategy, b, "a non-equi "+typ+" join has no shuffled strategy")
}

// make builds the join node for strategy with build side build: a broadcast strategy's build
// side gets a BroadcastExchange and a decision saying why (why); otherwise a non-empty why
// is recorded as the join's decision.
func (jp *joinPlanner) make(strategy plan.JoinStrategy, build, why string) *node {
	jp.j.Strategy, jp.j.BuildSide = strategy, build
	n := newNode(joinOp(strategy, jp.j), jp.out, jp.size, jp.left, jp.right)
	if build != "" && (strategy == plan.BroadcastHashJoinStrategy || strategy == plan.BroadcastNestedLoopJoinStrategy) {
		jp.broadcastBuild(n, strategy, build, why)
	} else if why != "" {
		jp.s.decide(n, "left", InsertedNone, CauseBroadcast, why)
	}
	return n
}

// joinOp is the physical operator of strategy carrying j.
func joinOp(strategy plan.JoinStrategy, j plan.Join) plan.Node {
	switch strategy {
	case plan.SortMergeJoinStrategy:
		return &plan.SortMergeJoin{OpInfo: info("SortMergeJoin"), Join: j}
	case plan.ShuffledHashJoinStrategy:
		return &plan.ShuffledHashJoin{OpInfo: info("ShuffledHashJoin"), Join: j}
	case plan.BroadcastHashJoinStrategy:
		return &plan.BroadcastHashJoin{OpInfo: info("BroadcastHashJoin"), Join: j}
	case plan.BroadcastNestedLoopJoinStrategy:
		return &plan.BroadcastNestedLoopJoin{OpInfo: info("BroadcastNestedLoopJoin"), Join: j}
	default:
		return &plan.CartesianProduct{OpInfo: info("CartesianProduct"), Join: j}
	}
}

// broadcastBuild puts a BroadcastExchange over the build side of the broadcast join n (hashed
// on its keys for a hash join, the identity mode for a nested loop join) and records why.
func (jp *joinPlanner) broadcastBuild(n *node, strategy plan.JoinStrategy, build, why string) {
	i, side := 1, "right"
	if build == "BuildLeft" {
		i, side = 0, "left"
	}
	b := n.kids[i]
	bx := &plan.BroadcastExchange{OpInfo: info("BroadcastExchange")}
	if strategy == plan.BroadcastHashJoinStrategy {
		bx.Keys = jp.j.LeftKeys
		if i == 1 {
			bx.Keys = jp.j.RightKeys
		}
		bx.Mode = "HashedRelationBroadcastMode(List(" + exprsText(bx.Keys) + "),false)"
	} else {
		bx.Mode = "IdentityBroadcastMode"
	}
	n.kids[i] = newNode(bx, b.out, b.size, b)
	jp.s.decide(n, side, InsertedBroadcast, CauseBroadcast, describeRel(b)+" is broadcast: "+why)
}

package simulate

import (
	"fmt"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// satisfies is Partitioning.satisfies (partitioning.scala, 3.0–4.x): the required partition
// count, if any, matches, and satisfies0 holds.
func satisfies(p part, d dist) bool {
	// The kind first: a collection's numPartitions walks down its first members, and a chain
	// of joins nests collections as deep as the chain.
	if d.n > 0 && p.kind != collection && p.numPartitions() != d.n {
		return false
	}
	return satisfies0(p, d)
}

func satisfies0(p part, d dist) bool {
	if d.kind == plan.UnspecifiedDistribution {
		return true
	}
	switch p.kind {
	case plan.SinglePartition:
		// SinglePartition satisfies everything but a broadcast.
		return d.kind != plan.BroadcastDistribution
	case plan.BroadcastPartitioning:
		return d.kind == plan.BroadcastDistribution
	case collection:
		// PartitioningCollection satisfies when any member does.
		for _, m := range p.members {
			if satisfies(m, d) {
				return true
			}
		}
		return false
	case plan.HashPartitioning:
		return hashSatisfies(p, d)
	case plan.KeyGroupedPartitioning:
		return keyGroupedSatisfies(p, d)
	case plan.RangePartitioning:
		if d.kind == plan.OrderedDistribution {
			return sameExprs(p.keys, orderExprs(d.orders))
		}
		if d.kind == plan.ClusteredDistribution {
			return subsetOf(p.keys, d.keys)
		}
	}
	return d.kind == plan.AllTuples && p.numPartitions() == 1
}

// hashSatisfies is HashPartitioning.satisfies0: positional equality with a
// HashClusteredDistribution (3.0–3.2); for a ClusteredDistribution every hash expression
// among the clustering keys (any order), or exactly the keys in order when
// requireAllClusterKeys (3.3+).
func hashSatisfies(p part, d dist) bool {
	switch d.kind {
	case plan.AllTuples:
		return p.n == 1
	case plan.HashClusteredDistribution:
		return sameExprs(p.keys, d.keys)
	case plan.ClusteredDistribution:
		if d.requireAll {
			return sameExprs(p.keys, d.keys)
		}
		return subsetOf(p.keys, d.keys)
	}
	return false
}

func subsetOf(es, of []plan.Expr) bool {
	for _, e := range es {
		if !containsExpr(of, e) {
			return false
		}
	}
	return true
}

func orderExprs(os []plan.SortOrder) []plan.Expr {
	out := make([]plan.Expr, len(os))
	for i, o := range os {
		out[i] = o.Expr
	}
	return out
}

// createPartitioning is Distribution.createPartitioning: hash partitioning on the clustering
// keys, SinglePartition for AllTuples, range partitioning for OrderedDistribution.
func createPartitioning(d dist, n int) part {
	switch d.kind {
	case plan.AllTuples:
		return part{kind: plan.SinglePartition, n: 1}
	case plan.OrderedDistribution:
		return part{kind: plan.RangePartitioning, keys: orderExprs(d.orders), n: n}
	}
	return hashPart(d.keys, n)
}

// A shuffleSpec is Spark 3.3+'s ShuffleSpec for one child of a multi-child operator.
type shuffleSpec struct {
	kind plan.PartitioningKind
	// hash spec: the partitioning and the distribution's clustering keys.
	p    part
	keys []plan.Expr
	// members of a ShuffleSpecCollection.
	members []shuffleSpec
	n       int
}

// createShuffleSpec is Partitioning.createShuffleSpec (3.3+).
func createShuffleSpec(p part, d dist) shuffleSpec { return (*specMemo)(nil).make(p, d, "") }

// A specMemo keeps the shuffle specs made of PartitioningCollections, by the collection's
// members and the distribution: parts never change, and a chain of joins asks at every join
// for the spec of the collection below it, nested as deep as the chain (issue 14). A nil
// memo keeps nothing.
type specMemo struct {
	specs map[specKey]shuffleSpec
}

// specKey names a collection (its members array) and a distribution (its text).
type specKey struct {
	members *part
	n       int
	dist    string
}

func distKey(d dist) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s|%d|%t", d.kind, d.n, d.requireAll)
	for _, k := range d.keys {
		b.WriteString("|k:")
		b.WriteString(k.Raw)
	}
	for _, o := range d.orders {
		fmt.Fprintf(&b, "|o:%s %t %t", o.Expr.Raw, o.Desc, o.NullsFirst)
	}
	return b.String()
}

// spec is createShuffleSpec, remembering in memo the specs of collections that have members
// (the ones a chain of joins asks for again); an empty spec is cheap to make again.
func (memo *specMemo) spec(p part, d dist) shuffleSpec {
	if memo == nil {
		return memo.make(p, d, "")
	}
	return memo.keyed(p, d, distKey(d))
}

func (memo *specMemo) keyed(p part, d dist, dk string) shuffleSpec {
	if memo == nil || p.kind != collection || len(p.members) == 0 {
		return memo.make(p, d, dk)
	}
	key := specKey{members: &p.members[0], n: len(p.members), dist: dk}
	if sp, ok := memo.specs[key]; ok {
		return sp
	}
	sp := memo.make(p, d, dk)
	if len(sp.members) > 0 {
		if memo.specs == nil {
			memo.specs = map[specKey]shuffleSpec{}
		}
		memo.specs[key] = sp
	}
	return sp
}

func (memo *specMemo) make(p part, d dist, dk string) shuffleSpec {
	switch p.kind {
	case plan.HashPartitioning:
		return shuffleSpec{kind: plan.HashPartitioning, p: p, keys: d.keys, n: p.n}
	case collection:
		sp := shuffleSpec{kind: collection}
		for _, m := range p.members {
			if m.kind != collection {
				if satisfies(m, d) {
					sp.members = append(sp.members, memo.keyed(m, d, dk))
				}
				continue
			}
			// A collection satisfies d when one of its members does, which are the members
			// of its spec: asking satisfies first would walk a chain's nested collections
			// once per level.
			if ms := memo.keyed(m, d, dk); len(ms.members) > 0 || d.kind == plan.UnspecifiedDistribution {
				sp.members = append(sp.members, ms)
			}
		}
		if len(sp.members) > 0 {
			sp.n = sp.members[0].n
		}
		return sp
	case plan.SinglePartition:
		return shuffleSpec{kind: plan.SinglePartition, n: 1}
	case plan.RangePartitioning:
		return shuffleSpec{kind: plan.RangePartitioning, n: p.n}
	case plan.KeyGroupedPartitioning:
		return shuffleSpec{kind: plan.KeyGroupedPartitioning, p: p, keys: d.keys, n: p.n}
	}
	return shuffleSpec{kind: plan.UnknownPartitioning, n: p.n}
}

// hashKeyPositions is HashShuffleSpec.hashKeyPositions: for each hash expression, the
// positions of the clustering keys semantically equal to it.
func (sp shuffleSpec) hashKeyPositions() [][]int {
	out := make([][]int, len(sp.p.keys))
	for i, e := range sp.p.keys {
		for j, k := range sp.keys {
			if sameExpr(e, k) {
				out[i] = append(out[i], j)
			}
		}
	}
	return out
}

// isCompatibleWith is ShuffleSpec.isCompatibleWith (3.3+).
func (sp shuffleSpec) isCompatibleWith(o shuffleSpec) bool {
	if o.kind == collection {
		for _, m := range o.members {
			if sp.isCompatibleWith(m) {
				return true
			}
		}
		return false
	}
	switch sp.kind {
	case plan.SinglePartition:
		return o.n == 1
	case collection:
		for _, m := range sp.members {
			if m.isCompatibleWith(o) {
				return true
			}
		}
		return false
	case plan.RangePartitioning:
		return o.kind == plan.SinglePartition && sp.n == 1
	case plan.KeyGroupedPartitioning:
		return sp.keyGroupedCompatible(o)
	case plan.HashPartitioning:
		switch o.kind {
		case plan.SinglePartition:
			return sp.n == 1
		case plan.HashPartitioning:
			if len(sp.keys) != len(o.keys) || sp.n != o.n || len(sp.p.keys) != len(o.p.keys) {
				return false
			}
			for i := range sp.p.keys {
				if !sharesKeyPosition(sp, o, i) {
					return false
				}
			}
			return true
		}
	}
	return false
}

// sharesKeyPosition reports whether hash expression i of sp and of o are equal to clustering
// keys at a common position: intersects(sp.hashKeyPositions()[i], o.hashKeyPositions()[i])
// without building the positions, as a chain of joins asks at every join about every member.
func sharesKeyPosition(sp, o shuffleSpec, i int) bool {
	for j := range sp.keys {
		if j < len(o.keys) && sameExpr(sp.p.keys[i], sp.keys[j]) && sameExpr(o.p.keys[i], o.keys[j]) {
			return true
		}
	}
	return false
}

func intersects(a, b []int) bool {
	for _, x := range a {
		for _, y := range b {
			if x == y {
				return true
			}
		}
	}
	return false
}

// canCreatePartitioning is ShuffleSpec.canCreatePartitioning (3.3+): a hash spec may impose
// its layout on the other side unless spark.sql.requireAllClusterKeysForCoPartition (default
// true) and its hash keys are not exactly the clustering keys; SinglePartition only in 3.3.0.
func (s *sim) canCreatePartitioning(sp shuffleSpec) bool {
	switch sp.kind {
	case plan.HashPartitioning:
		if s.opt.RequireAllClusterKeysForCoPartition() {
			return sameExprs(sp.p.keys, sp.keys)
		}
		return true
	case collection:
		for _, m := range sp.members {
			if !s.canCreatePartitioning(m) {
				return false
			}
		}
		return len(sp.members) > 0
	case plan.SinglePartition:
		return s.b.SinglePartitionCreatesPartitioning
	case plan.KeyGroupedPartitioning:
		return s.keyGroupedCanCreate()
	}
	return false
}

// createPartitioningFor is ShuffleSpec.createPartitioning: hash partitioning of the other
// side's clustering keys at the positions of this spec's hash keys, with this spec's count.
func (sp shuffleSpec) createPartitioningFor(clustering []plan.Expr) part {
	switch sp.kind {
	case collection:
		return sp.members[0].createPartitioningFor(clustering)
	case plan.HashPartitioning:
		var keys []plan.Expr
		for _, pos := range sp.hashKeyPositions() {
			if len(pos) > 0 && pos[0] < len(clustering) {
				keys = append(keys, clustering[pos[0]])
			}
		}
		return hashPart(keys, sp.n)
	case plan.KeyGroupedPartitioning:
		return sp.keyGroupedFor(clustering)
	}
	return hashPart(clustering, sp.n)
}

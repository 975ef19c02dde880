package simulate

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// Storage-partitioned joins (SPJ, Spark 3.3+): a DataSource V2 scan that reports its
// partitioning (an Iceberg table partitioned by transforms, with
// spark.sql.iceberg.planning.preserve-data-grouping) outputs a KeyGroupedPartitioning, which
// satisfies a clustered requirement on the transforms' source columns, and two such scans
// grouped compatibly are joined without a shuffle. Recorded with Spark 3.5.9 + Iceberg 1.12.0
// and Spark 4.1.4 + Iceberg 1.12.0 in fixtures/spark-iceberg/.

// keyGroupedScan is the KeyGroupedPartitioning Iceberg's scan reports for table t read as
// out (SparkPartitioningAwareScan.outputPartitioning): one key per partition transform whose
// source column the scan reads, when Spark models SPJ (3.3+) and both
// spark.sql.sources.v2.bucketing.enabled and Iceberg's preserve-data-grouping hold. It
// returns nil and why not otherwise. The partition count is the number of distinct
// partition values in the data, which DDL cannot tell: bucket(N, c) is assumed to fill all N
// buckets (the product for several), and any other transform leaves the count unknown (0).
func (s *sim) keyGroupedScan(t *plan.Table, out []attr) (*part, string, Cause) {
	trs := v2Transforms(t)
	switch {
	case len(trs) == 0:
		return nil, t.Name + " is a DataSource V2 table without partition transforms, so its scan reports no partitioning", CauseUnbucketed
	case !s.b.StoragePartitionedJoin:
		return nil, fmt.Sprintf("%s is a DataSource V2 table; Spark %s has no storage-partitioned joins (3.3+)", t.Name, s.opt.Version()), CauseDataSourceV2
	case !s.opt.V2Bucketing():
		return nil, fmt.Sprintf("%s is partitioned by %s, but %s=false, so Spark ignores the partitioning its scan reports (storage-partitioned join off)", t.Name, t.Layout, ConfV2Bucketing), CauseSPJOff
	case !s.opt.IcebergPreserveDataGrouping():
		return nil, fmt.Sprintf("%s is partitioned by %s, but %s=false, so Iceberg's scan reports no partitioning (storage-partitioned join off)", t.Name, t.Layout, ConfIcebergPreserveGrouping), CauseSPJOff
	}
	var keys []plan.Expr
	n, known := 1, true
	for _, tr := range trs {
		fn, arg, col, ok := transformParts(tr.X)
		if !ok {
			return nil, fmt.Sprintf("%s is partitioned by %s, a transform the model does not know", t.Name, tr.Text), CauseDataSourceV2
		}
		a, found := findAttr(out, col)
		if !found {
			continue // Iceberg groups by the fields whose source columns the scan reads
		}
		keys = append(keys, transformExpr(fn, arg, a))
		if fn == "bucket" && arg > 0 {
			n *= arg
		} else {
			known = false
		}
	}
	if len(keys) == 0 {
		return nil, fmt.Sprintf("%s is partitioned by %s, but the query reads none of the transforms' source columns", t.Name, t.Layout), CauseBucketColumnNotRead
	}
	if !known {
		n = 0
	}
	return &part{kind: plan.KeyGroupedPartitioning, keys: keys, n: n}, "", CauseSatisfied
}

// v2Transforms are the partition fields of a DataSource V2 table: its transforms, then its
// identity partition columns (PARTITIONED BY (bucket(8, a), b) lists b as a partition
// column; the model keeps the transforms first, which matters only when two tables list the
// same fields in different orders).
func v2Transforms(t *plan.Table) []plan.Transform {
	out := append([]plan.Transform(nil), t.PartitionTransforms()...)
	for _, c := range t.PartitionColumns {
		out = append(out, plan.Transform{Text: strings.ToLower(c), X: &plan.X{Op: plan.OpColumn, Name: strings.ToLower(c), Raw: c}})
	}
	return out
}

// transformParts reads a partition transform's tree: bucket(16, id) is ("bucket", 16, "id"),
// days(ts) ("days", 0, "ts"), a bare column c ("identity", 0, "c"), truncate(4, s)
// ("truncate", 4, "s").
func transformParts(x *plan.X) (fn string, arg int, col string, ok bool) {
	if x == nil {
		return "", 0, "", false
	}
	if x.Op == plan.OpColumn {
		return "identity", 0, strings.ToLower(x.Name), true
	}
	if x.Op != plan.OpCall {
		return "", 0, "", false
	}
	fn = strings.ToLower(x.Name)
	for _, a := range x.Args {
		switch a.Op {
		case plan.OpLiteral:
			v, err := strconv.Atoi(a.Value)
			if err != nil {
				return "", 0, "", false
			}
			arg = v
		case plan.OpColumn:
			if col != "" {
				return "", 0, "", false
			}
			col = strings.ToLower(a.Name)
		default:
			return "", 0, "", false
		}
	}
	return fn, arg, col, col != ""
}

// transformExpr is the partition expression of one transform over attribute a: a itself for
// identity, else "bucket(8, a#3)" (Spark's TransformExpression, whose only child is a).
func transformExpr(fn string, arg int, a attr) plan.Expr {
	if fn == "identity" {
		return a.expr
	}
	head := fn + "("
	if arg > 0 {
		head += strconv.Itoa(arg) + ", "
	}
	raw := head + a.expr.Raw + ")"
	x := &plan.X{Op: plan.OpCall, Name: fn, Raw: raw}
	if arg > 0 {
		x.Args = append(x.Args, &plan.X{Op: plan.OpLiteral, Value: strconv.Itoa(arg), Raw: strconv.Itoa(arg)})
	}
	x.Args = append(x.Args, a.expr.Tree())
	return plan.NewExpr(raw, head+a.expr.Text()+")", a.expr.Refs(), x)
}

// leaf is the source attribute of a partition expression (collectLeaves().head).
func leaf(e plan.Expr) plan.Expr {
	if e.Tree() == nil || e.Tree().Op != plan.OpCall || len(e.Tree().Args) == 0 || len(e.Refs()) != 1 {
		return e
	}
	src := e.Tree().Args[len(e.Tree().Args)-1]
	if src == nil || src.Op != plan.OpColumn {
		return e
	}
	return plan.NewExpr(src.Raw, e.Refs()[0].Name, e.Refs(), src)
}

// transformOf is a partition expression with its source column blanked: "bucket(8, ?)",
// "?" for identity; equal shapes are the same function (TransformExpression.isSameFunction).
func transformOf(e plan.Expr) string {
	l := leaf(e)
	return strings.Replace(e.Raw, l.Raw, "?", 1)
}

func leaves(es []plan.Expr) []plan.Expr {
	out := make([]plan.Expr, len(es))
	for i, e := range es {
		out[i] = leaf(e)
	}
	return out
}

// keyGroupedSatisfies is KeyGroupedPartitioning.satisfies0 for a ClusteredDistribution:
// exactly the keys when requireAllClusterKeys; else every partition expression's source
// column among the keys, or from 4.0 under
// spark.sql.sources.v2.bucketing.allowJoinKeysSubsetOfPartitionKeys.enabled some key among
// the source columns.
func keyGroupedSatisfies(p part, d dist) bool {
	switch d.kind {
	case plan.ClusteredDistribution:
		if d.requireAll {
			return sameExprs(p.keys, d.keys)
		}
		src := leaves(p.keys)
		if p.anyKey {
			for _, k := range d.keys {
				if containsExpr(src, k) {
					return true
				}
			}
			return false
		}
		return subsetOf(src, d.keys)
	case plan.AllTuples:
		return p.n == 1
	}
	return false
}

// keyPositions is KeyGroupedShuffleSpec.keyPositions: for each partition expression, the
// positions of the clustering keys equal to its source column.
func (sp shuffleSpec) keyPositions() [][]int {
	out := make([][]int, len(sp.p.keys))
	for i, e := range sp.p.keys {
		l := leaf(e)
		for j, k := range sp.keys {
			if sameExpr(l, k) {
				out[i] = append(out[i], j)
			}
		}
	}
	return out
}

// areKeysCompatible is KeyGroupedShuffleSpec.areKeysCompatible: as many partition
// expressions, at the same key positions, each pair the same transform.
func (sp shuffleSpec) areKeysCompatible(o shuffleSpec) bool {
	if len(sp.p.keys) != len(o.p.keys) {
		return false
	}
	mine, theirs := sp.keyPositions(), o.keyPositions()
	for i := range mine {
		if fmt.Sprint(mine[i]) != fmt.Sprint(theirs[i]) || transformOf(sp.p.keys[i]) != transformOf(o.p.keys[i]) {
			return false
		}
	}
	return true
}

// keyGroupedCompatible is KeyGroupedShuffleSpec.isCompatibleWith another key-grouped spec: as
// many clustering keys, the same partition count (and partition values: assumed equal when
// the counts are, see keyGroupedScan), compatible keys.
func (sp shuffleSpec) keyGroupedCompatible(o shuffleSpec) bool {
	return o.kind == plan.KeyGroupedPartitioning && len(sp.keys) == len(o.keys) && sp.n == o.n && sp.areKeysCompatible(o)
}

// keyGroupSpec is EnsureRequirements.createKeyGroupedShuffleSpec: a key-grouped child's spec
// when its partitioning satisfies d, positionally on exactly the clustering keys under
// spark.sql.requireAllClusterKeysForCoPartition; false when the child is not key-grouped.
func (s *sim) keyGroupSpec(p part, d dist) (shuffleSpec, bool) {
	if p.kind != plan.KeyGroupedPartitioning || d.kind != plan.ClusteredDistribution {
		return shuffleSpec{}, false
	}
	ok := keyGroupedSatisfies(p, d)
	if s.opt.RequireAllClusterKeysForCoPartition() {
		ok = sameExprs(leaves(p.keys), d.keys)
	}
	return shuffleSpec{kind: plan.KeyGroupedPartitioning, p: p, keys: d.keys, n: p.n}, ok
}

// keyGroupCompatible is EnsureRequirements.checkKeyGroupCompatible: a sort-merge or shuffled
// hash join whose two children are key-grouped compatibly keeps both as they are. With
// spark.sql.sources.v2.bucketing.pushPartValues.enabled (3.4+) only the keys must be
// compatible (Spark pushes the union of the partition values down to both scans); without
// it the partition counts (and values) must also match. From 4.0, under
// spark.sql.sources.v2.bucketing.allowCompatibleTransforms.enabled, bucket transforms of
// different counts are compatible when both reduce to a common one.
func (s *sim) keyGroupCompatible(n *node, reqs []dist) (bool, string) {
	if !s.b.StoragePartitionedJoin || shuffleJoin(n) == nil || len(n.kids) != 2 || len(reqs) != 2 {
		return false, ""
	}
	var specs [2]shuffleSpec
	for i := range specs {
		sp, ok := s.keyGroupSpec(s.partitioning(n.kids[i]), reqs[i])
		if !ok {
			if sp.kind == plan.KeyGroupedPartitioning && s.opt.RequireAllClusterKeysForCoPartition() {
				return false, fmt.Sprintf("%s is key-grouped on (%s) but the join keys are (%s); spark.sql.requireAllClusterKeysForCoPartition=true needs them equal", describeRel(n.kids[i]), exprsText(sp.p.keys), exprsText(reqs[i].keys))
			}
			return false, ""
		}
		specs[i] = sp
	}
	l, r := specs[0], specs[1]
	if s.opt.V2PushPartValues() {
		if l.areKeysCompatible(r) || s.reducible(l, r) {
			return true, ""
		}
	} else if l.keyGroupedCompatible(r) {
		s.note("the key-grouped join assumes both scans hold the same partition values (every bucket non-empty): with %s=false Spark %s shuffles both sides when the data leaves a partition empty on one side only", ConfV2PushPartValues, s.opt.Version())
		return true, ""
	}
	return false, fmt.Sprintf("%s is key-grouped by (%s) into %s and %s by (%s) into %s: the transforms or their partitions differ",
		describeRel(n.kids[0]), exprsText(l.p.keys), countText(l.n), describeRel(n.kids[1]), exprsText(r.p.keys), countText(r.n))
}

// reducible reports bucket transforms of different counts that Spark 4.0+ reduces to their
// greatest common divisor under spark.sql.sources.v2.bucketing.allowCompatibleTransforms.enabled
// (Iceberg's bucket function is a ReducibleFunction), with pushPartValues on.
func (s *sim) reducible(l, r shuffleSpec) bool {
	if !s.opt.AllowCompatibleTransforms() || len(l.p.keys) != len(r.p.keys) {
		return false
	}
	mine, theirs := l.keyPositions(), r.keyPositions()
	for i := range l.p.keys {
		if fmt.Sprint(mine[i]) != fmt.Sprint(theirs[i]) {
			return false
		}
		a, b := transformOf(l.p.keys[i]), transformOf(r.p.keys[i])
		if a != b && (!strings.HasPrefix(a, "bucket(") || !strings.HasPrefix(b, "bucket(")) {
			return false
		}
	}
	return true
}

// keyGroupedCanCreate is KeyGroupedShuffleSpec.canCreatePartitioning: from 4.0 under
// spark.sql.sources.v2.bucketing.shuffle.enabled without partially clustered distribution, so
// that the other side is shuffled into the key-grouped layout; never before.
func (s *sim) keyGroupedCanCreate() bool {
	return s.b.SPJShuffleOneSide && s.opt.V2BucketingShuffle() && !s.opt.V2PartiallyClustered()
}

// keyGroupedFor is KeyGroupedShuffleSpec.createPartitioning: the other side's clustering keys
// at the positions of this spec's partition expressions, under the same transforms, into the
// same count.
func (sp shuffleSpec) keyGroupedFor(clustering []plan.Expr) part {
	var keys []plan.Expr
	for i, pos := range sp.keyPositions() {
		if len(pos) == 0 || pos[0] >= len(clustering) {
			continue
		}
		k := clustering[pos[0]]
		e := sp.p.keys[i]
		if l := leaf(e); l.Raw != e.Raw {
			shape := transformOf(e)
			k = plan.NewExpr(strings.Replace(shape, "?", k.Raw, 1), strings.Replace(shape, "?", k.Text(), 1), k.Refs(), nil)
		}
		keys = append(keys, k)
	}
	return part{kind: plan.KeyGroupedPartitioning, keys: keys, n: sp.n}
}

func countText(n int) string {
	if n <= 0 {
		return "an unknown number of partitions"
	}
	return strconv.Itoa(n) + " partitions"
}

// whyNotKeyGrouped says why a key-grouped child does not satisfy d: its transforms' source
// columns are not the keys (some of them, more, or others).
func (s *sim) whyNotKeyGrouped(child *node, p part, d dist) (string, Cause) {
	src := leaves(p.keys)
	c := keysRelation(src, d.keys)
	if c == CauseSatisfied {
		c = CauseBucketKeysDifferent
	}
	msg := fmt.Sprintf("%s is key-grouped by (%s) (storage-partitioned) but the keys are (%s)", describeRel(child), exprsText(p.keys), exprsText(d.keys))
	switch {
	case d.requireAll:
		msg += "; spark.sql.requireAllClusterKeysForDistribution=true needs them equal and in order"
	case c == CauseBucketKeysSuperset && !s.b.SPJShuffleOneSide:
		msg += fmt.Sprintf("; Spark %s needs every partition source column among the keys", s.opt.Version())
	case c == CauseBucketKeysSuperset:
		msg += fmt.Sprintf("; every partition source column must be among the keys unless %s=true", ConfV2AllowJoinKeysSubset)
	}
	return msg, c
}

// keyGroupedCause says why co-partitioning re-shuffles a key-grouped side (sp): the keys are
// not exactly the source columns under spark.sql.requireAllClusterKeysForCoPartition, or the
// other side is not key-grouped (and cannot be made so), or it is key-grouped differently
// (transforms or partition counts).
func (s *sim) keyGroupedCause(sp shuffleSpec, specs map[int]shuffleSpec) Cause {
	if s.opt.RequireAllClusterKeysForCoPartition() && !sameExprs(leaves(sp.p.keys), sp.keys) {
		if c := keysRelation(leaves(sp.p.keys), sp.keys); c != CauseSatisfied {
			return c
		}
	}
	for _, o := range specs {
		if o.kind != plan.KeyGroupedPartitioning {
			return CauseKeyGroupedOneSide
		}
	}
	return CauseTransformMismatch
}

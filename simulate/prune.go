package simulate

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// orPruning intersects selected (nil: every bucket) with the buckets the disjunctions pushed
// to relation rel select on table t (see orBucketSet).
func (s *sim) orPruning(rel string, t *plan.Table, selected map[int]bool) map[int]bool {
	spec := t.Buckets()
	if spec == nil || len(spec.Columns) != 1 || spec.NumBuckets <= 1 {
		return selected
	}
	col, ok := t.Column(spec.Columns[0])
	if !ok || containsFold(t.PartitionColumns, col.Name) {
		return selected
	}
	for _, c := range s.where[rel] {
		ids, ok := s.orBucketSet(c, col.Name, col.Type, spec.NumBuckets)
		if !ok {
			continue
		}
		if selected == nil {
			selected = ids
			continue
		}
		for id := range selected {
			if !ids[id] {
				delete(selected, id)
			}
		}
	}
	return selected
}

// orBucketSet is the bucket set a WHERE conjunct that is a disjunction (a = 5 OR a = 6)
// selects on a table bucketed by one column col of type typ into n buckets, as Spark's
// FileSourceStrategy.getBucketSetFromFilter computes it: an equality or null-safe equality
// with a literal selects its bucket, IN its values' buckets, OR the union, AND the
// intersection, anything else every bucket. ok is false when the conjunct is not a
// disjunction or selects every bucket (the key filters cover the rest).
func (s *sim) orBucketSet(x *plan.X, col, typ string, n int) (map[int]bool, bool) {
	if x == nil || x.Op != plan.OpBinary || x.Name != "or" {
		return nil, false
	}
	return s.bucketSetOf(x, col, typ, n)
}

// bucketSetOf is getBucketSetFromFilter for one expression; ok false means every bucket.
func (s *sim) bucketSetOf(x *plan.X, col, typ string, n int) (map[int]bool, bool) {
	switch {
	case x.Op == plan.OpBinary && x.Name == "or" && len(x.Args) == 2:
		l, okL := s.bucketSetOf(x.Args[0], col, typ, n)
		r, okR := s.bucketSetOf(x.Args[1], col, typ, n)
		if !okL || !okR {
			return nil, false
		}
		for id := range r {
			l[id] = true
		}
		return l, true
	case x.Op == plan.OpBinary && x.Name == "and" && len(x.Args) == 2:
		l, okL := s.bucketSetOf(x.Args[0], col, typ, n)
		r, okR := s.bucketSetOf(x.Args[1], col, typ, n)
		switch {
		case !okL:
			return r, okR
		case !okR:
			return l, true
		}
		for id := range l {
			if !r[id] {
				delete(l, id)
			}
		}
		return l, true
	case x.Op == plan.OpBinary && (x.Name == "=" || x.Name == "<=>") && len(x.Args) == 2:
		c, lit := x.Args[0], x.Args[1]
		if c.Op == plan.OpLiteral {
			c, lit = lit, c
		}
		if isColumn(c, col) && isValue(lit) {
			return s.bucketIDs(typ, []*plan.X{lit}, n)
		}
	case x.Op == plan.OpIn && !x.Negated && len(x.Args) > 1 && isColumn(x.Args[0], col):
		for _, v := range x.Args[1:] {
			if !isValue(v) {
				return nil, false
			}
		}
		return s.bucketIDs(typ, x.Args[1:], n)
	}
	return nil, false
}

func isColumn(x *plan.X, col string) bool {
	return x != nil && x.Op == plan.OpColumn && strings.EqualFold(x.Name, col)
}

// isValue reports whether x is a literal other than NULL.
func isValue(x *plan.X) bool {
	return x != nil && x.Op == plan.OpLiteral && x.Type != "null"
}

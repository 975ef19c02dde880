package simulate

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// setOp plans UNION [ALL] (UnionExec; UNION adds a distinct aggregation), and INTERSECT and
// EXCEPT as the optimizer rewrites them (ReplaceIntersectWithSemiJoin,
// ReplaceExceptWithAntiJoin): a left semi or anti join on every column, then a distinct.
func (s *sim) setOp(r *plan.Relation) (*node, error) {
	var ins []*node
	for _, in := range r.Inputs {
		n, err := s.relation(in, nil)
		if err != nil {
			return nil, err
		}
		ins = append(ins, n)
	}
	if len(ins) == 0 {
		g := &plan.Generic{OpInfo: info("LocalTableScan")}
		return newNode(g, nil, 8), nil
	}
	op := strings.ToUpper(strings.Join(strings.Fields(r.SetOp), " "))
	switch {
	case strings.HasPrefix(op, "UNION"):
		var size int64
		for _, n := range ins {
			if n.size < 0 || size < 0 {
				size = -1
				continue
			}
			size += n.size
		}
		u := newNode(&plan.Union{OpInfo: info("Union")}, ins[0].out, size, ins...)
		for _, a := range u.out {
			if s.nullRejected[a.name] {
				// An isnotnull filter is pushed into every child: their outputs become
				// non-nullable while their partitionings keep the nullable scan attribute.
				u.nullRejected = true
			}
		}
		if op == "UNION ALL" {
			return u, nil
		}
		return s.aggregate(u, exprsOf(u.out), u.out, &plan.Select{}), nil
	case strings.HasPrefix(op, "INTERSECT"), strings.HasPrefix(op, "EXCEPT"), strings.HasPrefix(op, "MINUS"):
		typ := "LeftSemi"
		if !strings.HasPrefix(op, "INTERSECT") {
			typ = "LeftAnti"
		}
		n := ins[0]
		for _, right := range ins[1:] {
			k := len(n.out)
			if len(right.out) < k {
				k = len(right.out)
			}
			s.note("%s is planned as a %s join on every column with plain equality keys; Spark compares with <=> (null-safe)", op, typ)
			n = s.planJoin(n, right, typ, exprsOf(n.out[:k]), exprsOf(right.out[:k]), nil, nil)
		}
		return s.aggregate(n, exprsOf(n.out), n.out, &plan.Select{}), nil
	}
	s.note("set operation %s is not modelled", op)
	return ins[0], nil
}

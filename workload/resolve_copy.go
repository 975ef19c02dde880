package workload

import (
	"slices"

	"github.com/bucketlint/bucketlint/plan"
)

// copyQuery returns a copy of q deep enough for name resolution to change: relations, joins,
// selects, their keys and expression trees are new; tables and hints are shared.
func copyQuery(q *plan.Query) *plan.Query {
	c := *q
	c.CTEs = make([]*plan.CTE, len(q.CTEs))
	for i, cte := range q.CTEs {
		c.CTEs[i] = copyCTE(cte)
	}
	c.Root = copyRelation(q.Root)
	return &c
}

func copyCTE(cte *plan.CTE) *plan.CTE {
	c := *cte
	c.Root = copyRelation(cte.Root)
	return &c
}

func copyRelation(r *plan.Relation) *plan.Relation {
	if r == nil {
		return nil
	}
	c := *r
	if r.Join != nil {
		j := *r.Join
		j.Left, j.Right = copyRelation(r.Join.Left), copyRelation(r.Join.Right)
		j.LeftKeys, j.RightKeys = copyRefs(r.Join.LeftKeys), copyRefs(r.Join.RightKeys)
		j.Residual = slices.Clone(r.Join.Residual)
		j.ConditionX, j.ResidualX = copyX(r.Join.ConditionX), copyXs(r.Join.ResidualX)
		c.Join = &j
	}
	if r.Select != nil {
		c.Select = copySelect(r.Select)
	}
	if r.Inputs != nil {
		c.Inputs = make([]*plan.Relation, len(r.Inputs))
		for i, in := range r.Inputs {
			c.Inputs[i] = copyRelation(in)
		}
	}
	return &c
}

func copySelect(s *plan.Select) *plan.Select {
	c := *s
	c.From = copyRelation(s.From)
	c.ItemsX = copyXs(s.ItemsX)
	c.WhereX, c.HavingX = copyX(s.WhereX), copyX(s.HavingX)
	c.Filters = slices.Clone(s.Filters)
	for i := range c.Filters {
		c.Filters[i].Column = copyRef(c.Filters[i].Column)
	}
	c.Equalities = slices.Clone(s.Equalities)
	for i := range c.Equalities {
		c.Equalities[i].Left, c.Equalities[i].Right = copyRef(c.Equalities[i].Left), copyRef(c.Equalities[i].Right)
	}
	c.GroupBy = copyRefs(s.GroupBy)
	c.Windows = slices.Clone(s.Windows)
	for i := range c.Windows {
		c.Windows[i].PartitionBy = copyRefs(c.Windows[i].PartitionBy)
		c.Windows[i].OrderBy = copyRefs(c.Windows[i].OrderBy)
		c.Windows[i].ArgsX = copyXs(c.Windows[i].ArgsX)
	}
	c.DistributeBy, c.SortBy, c.OrderBy = copyRefs(s.DistributeBy), copyRefs(s.SortBy), copyRefs(s.OrderBy)
	c.Hints = slices.Clone(s.Hints)
	for i := range c.Hints {
		c.Hints[i].ArgsX = copyXs(c.Hints[i].ArgsX)
	}
	c.Generators = slices.Clone(s.Generators)
	for i := range c.Generators {
		c.Generators[i].X = copyX(c.Generators[i].X)
	}
	if s.Pivot != nil {
		pv := *s.Pivot
		pv.Columns = copyRefs(s.Pivot.Columns)
		c.Pivot = &pv
	}
	return &c
}

func copyRefs(refs []plan.ColumnRef) []plan.ColumnRef {
	if refs == nil {
		return nil
	}
	out := make([]plan.ColumnRef, len(refs))
	for i, k := range refs {
		out[i] = copyRef(k)
	}
	return out
}

func copyRef(k plan.ColumnRef) plan.ColumnRef {
	k.X = copyX(k.X)
	return k
}

func copyXs(xs []*plan.X) []*plan.X {
	if xs == nil {
		return nil
	}
	out := make([]*plan.X, len(xs))
	for i, x := range xs {
		out[i] = copyX(x)
	}
	return out
}

func copyX(x *plan.X) *plan.X {
	if x == nil {
		return nil
	}
	c := *x
	c.Args = copyXs(x.Args)
	return &c
}

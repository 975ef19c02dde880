package rules

import (
	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
	"github.com/bucketlint/bucketlint/workload"
)

// joinSites returns every equi-join of the workload with the causes of its shuffles, computed
// once per workload (workload.Workload.Sites): each join rule selects the sites holding its
// cause.
func (p *Pass) joinSites() []*workload.Site {
	if p.Workload == nil {
		return nil
	}
	return p.Workload.Sites(p.Thresholds.BroadcastBytes)
}

// simulate predicts the plan of q after name resolution (Workload.Simulate, once per run
// for every rule and command), nil on error or without a workload.
func (p *Pass) simulate(q *plan.Query) *simulate.Result {
	if p.Workload == nil {
		return nil
	}
	res, err := p.Workload.Simulate(q)
	if err != nil {
		return nil
	}
	return res
}

// joinedToBucketed reports whether a join of the workload reads table t on one side and
// another bucketed table on the other.
func (p *Pass) joinedToBucketed(t *plan.Table) bool {
	for _, s := range p.joinSites() {
		l, r := s.Left.Table, s.Right.Table
		if l == nil || r == nil || l.Name == r.Name {
			continue
		}
		if (l.Name == t.Name && r.Buckets() != nil) || (r.Name == t.Name && l.Buckets() != nil) {
			return true
		}
	}
	return false
}

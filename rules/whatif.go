package rules

import (
	"maps"

	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
)

// shuffleFreeWith reports whether the simulator plans a join without any shuffle on either
// side once the given settings are added to the options in force at the join: the check
// behind advice such as "with coalescing enabled the join needs no shuffle". It is false
// when the join's sides are not both known tables, when the join is not found in the
// simulated plan, and when the simulation fails.
func (p *Pass) shuffleFreeWith(s *joinSite, set map[string]string) bool {
	if s.Left.Table == nil || s.Right.Table == nil {
		return false
	}
	q := s.Query
	if q == nil {
		q = joinQuery(s)
	}
	res, err := p.simulateWith(q, set)
	if err != nil {
		return false
	}
	probe := &joinSite{Span: s.Span, Type: s.Type, Left: sideOnly(s.Left), Right: sideOnly(s.Right)}
	matchSimulated(probe, res)
	return probe.Known && !probe.Left.Shuffled && !probe.Right.Shuffled
}

// simulateWith simulates q in its session with settings added to those in force there.
func (p *Pass) simulateWith(q *plan.Query, set map[string]string) (*simulate.Result, error) {
	if p.Workload != nil {
		return p.Workload.SimulateWith(q, set)
	}
	opts := p.OptionsAt(q.Span.Start)
	confs := maps.Clone(opts.Confs)
	if confs == nil {
		confs = map[string]string{}
	}
	maps.Copy(confs, set)
	opts.Confs = confs
	return simulate.Simulate(p.tables(), p.resolved(q).Query, opts)
}

// sideOnly is a join side without what a simulation or explain output filled in.
func sideOnly(s joinSide) joinSide {
	return joinSide{Name: s.Name, Table: s.Table, Keys: s.Keys, Span: s.Span}
}

package rules

import (
	"github.com/bucketlint/bucketlint/simulate"
	"github.com/bucketlint/bucketlint/workload"
)

// site returns the join as the workload's site analysis classifies it: each cause of its
// shuffles a rule reports, decided once for every rule of the run.
func (p *Pass) site(s *joinSite) *workload.Site {
	if p.cache != nil {
		if ws, ok := p.cache.sites[s]; ok {
			return ws
		}
	}
	ws := &workload.Site{
		Span: s.Span, Type: s.Type, Broadcast: s.Broadcast, Known: s.Known, Node: s.Node, Query: s.Query, Sim: s.Sim,
		Left: workloadSide(&s.Left), Right: workloadSide(&s.Right), Options: p.OptionsAt(s.Span.Start),
	}
	switch s.Kind {
	case "query":
		ws.Kind = workload.QuerySite
	case "code":
		ws.Kind = workload.CodeSite
	case "explain":
		ws.Kind = workload.ExplainSite
	}
	ws.Classify(p.broadcastLimit(s.Span.Start), func(_ *workload.Site, set map[string]string) bool {
		return p.shuffleFreeWith(s, set)
	})
	if p.cache != nil {
		if p.cache.sites == nil {
			p.cache.sites = map[*joinSite]*workload.Site{}
		}
		p.cache.sites[s] = ws
	}
	return ws
}

func workloadSide(s *joinSide) workload.Side {
	return workload.Side{
		JoinSide: simulate.JoinSide{Label: sideName(s), Table: s.Table, Keys: s.Keys, Scan: s.Scan},
		Name:     s.Name, Span: s.Span, Via: s.Via, Shuffled: s.Shuffled, Exchange: s.Exchange, Decision: s.Cause,
	}
}

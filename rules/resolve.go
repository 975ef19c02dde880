package rules

import (
	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/workload"
)

// tablesCatalog is a catalogue of tables only, for a pass without a workload.
type tablesCatalog map[string]*plan.Table

func (c tablesCatalog) Table(name string) *plan.Table { return lookup(c, name) }
func (c tablesCatalog) View(string) *plan.Query       { return nil }

// catalogAt is the catalogue the session of pos sees there, as name resolution reads it.
func (p *Pass) catalogAt(pos plan.Pos) workload.Catalog {
	if p.Workload == nil {
		return tablesCatalog(p.tablesAt(pos))
	}
	return p.Workload.CatalogueAt(pos)
}

// resolved returns q with its names resolved against the catalogue its session sees,
// computed once per driver run: every rule and every simulation of the query sees the same
// keys, sides and views.
func (p *Pass) resolved(q *plan.Query) *workload.Resolved {
	c := p.cache
	if c == nil {
		return workload.Resolve(p.catalogAt(q.Span.Start), q)
	}
	if res, ok := c.resolved[q]; ok {
		return res
	}
	if c.resolved == nil {
		c.resolved = map[*plan.Query]*workload.Resolved{}
	}
	res := workload.Resolve(p.catalogAt(q.Span.Start), q)
	c.resolved[q] = res
	return res
}

//go:build engine

package verify

import (
	"fmt"

	"github.com/bucketlint/bucketlint/advise"
	"github.com/bucketlint/bucketlint/plan"
)

// Scenarios are the scenarios the file asks for over a workload: tables are the shared
// catalogue and queries the workload's queries, each with the tables of its session where it
// has its own. The file's current layouts are applied first, to both. Then its layout is
// verified on every query; without one, the advice of advise.Advise under opt is
// (FromAdvice). Every scenario is named after the file and reads its data and written
// layouts. A table or column the SQL files do not declare is a *ScenarioError.
func (sf *ScenarioFile) Scenarios(tables map[string]*plan.Table, queries []advise.WeightedQuery, opt advise.Options) ([]Scenario, error) {
	if err := sf.CheckTables(tables); err != nil {
		return nil, err
	}
	tables, queries, err := sf.withCurrent(tables, queries)
	if err != nil {
		return nil, err
	}
	var out []Scenario
	if len(sf.Layout) > 0 {
		if out, err = sf.layoutScenarios(tables, queries); err != nil {
			return nil, err
		}
	} else {
		out = FromAdvice(tables, queries, advise.Advise(tables, queries, opt))
	}
	for i := range out {
		out[i].Name = sf.Name + ": " + out[i].Name
		out[i].Data = sf.Data()
		out[i].Written = sf.WrittenSpecs()
	}
	return out, nil
}

// withCurrent applies the file's current layout to the shared tables and to the tables of
// each query's session.
func (sf *ScenarioFile) withCurrent(tables map[string]*plan.Table, queries []advise.WeightedQuery) (map[string]*plan.Table, []advise.WeightedQuery, error) {
	if len(sf.Current) == 0 {
		return tables, queries, nil
	}
	tables, err := ApplyLayout(tables, sf.Current)
	if err != nil {
		return nil, nil, err
	}
	out := make([]advise.WeightedQuery, len(queries))
	for i, q := range queries {
		out[i] = q
		if q.Tables != nil {
			if out[i].Tables, err = ApplyLayout(q.Tables, sf.Current); err != nil {
				return nil, nil, err
			}
		}
	}
	return tables, out, nil
}

// layoutScenarios verifies the file's explicit layout on every query, in its session.
func (sf *ScenarioFile) layoutScenarios(tables map[string]*plan.Table, queries []advise.WeightedQuery) ([]Scenario, error) {
	var out []Scenario
	for i, q := range queries {
		before := tables
		if q.Tables != nil {
			before = q.Tables
		}
		after, err := ApplyLayout(before, sf.Layout)
		if err != nil {
			return nil, err
		}
		out = append(out, Scenario{Name: fmt.Sprintf("query %d", i+1), Query: AsSelect(q.Query), Before: before, After: after, Sim: q.Spark})
	}
	return out, nil
}

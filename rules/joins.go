package rules

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
	"github.com/bucketlint/bucketlint/workload"
)

// A joinSide is one input of a join as far as the input shows it.
type joinSide struct {
	// Name is the table read, as referenced; Table its declaration, nil when unknown (a
	// subquery, another join, a path, a table without DDL).
	Name  string
	Table *plan.Table
	// Keys are the equi-join keys oriented to this side.
	Keys []plan.ColumnRef
	// Span is the relation as written, or the scan line of an explain.
	Span plan.Span
	// Shuffled reports a shuffle Exchange on this side (simulated or printed); Cause says
	// why when the simulator gave one; Exchange is the printed Exchange.
	Shuffled bool
	Cause    simulate.Cause
	Exchange *plan.Exchange
	// Scan is the printed scan of an explain side.
	Scan plan.Node
	// Via names what the side is when it is not a plain table read — "CTE t", "a subquery",
	// "a join", the frame variable of a derived DataFrame — and Table then is the table whose
	// bucket layout the side's output keeps.
	Via string
}

// A joinSite is one equi-join of a query, a code file or an explain output.
type joinSite struct {
	Span plan.Span
	// Kind is "query", "code" or "explain".
	Kind        string
	Type        string
	Left, Right joinSide
	// Broadcast is set when a broadcast hint or a broadcast strategy (simulated or printed)
	// makes the join shuffle-free whatever the layout.
	Broadcast bool
	// Known is set when Shuffled was simulated or printed, not guessed.
	Known bool
	// Node is the printed or simulated join operator.
	Node plan.Node
	// Query is the query the join is part of, or the one built for a join in code.
	Query *plan.Query
	// Sim is the simulation of a join in code (Query), nil otherwise.
	Sim *simulate.Result
}

// sides returns both sides, left first.
func (s *joinSite) sides() [2]*joinSide { return [2]*joinSide{&s.Left, &s.Right} }

// keyText lists the key pairs: "o.id = c.id, o.dt = c.dt".
func (s *joinSite) keyText() string {
	var parts []string
	for i := range s.Left.Keys {
		if i < len(s.Right.Keys) {
			parts = append(parts, keyLabel(s.Left.Keys[i])+" = "+keyLabel(s.Right.Keys[i]))
		}
	}
	return strings.Join(parts, ", ")
}

// joinSites returns every equi-join of the project's queries, code and explain outputs,
// computed once per driver run.
func (p *Pass) joinSites() []*joinSite {
	if p.cache != nil && p.cache.joins != nil {
		return p.cache.joins
	}
	// A query or a code join sees the tables of its session where it runs; explain output
	// names the catalogue's.
	var out []*joinSite
	for _, q := range p.Project.Queries {
		out = append(out, p.queryJoins(q, p.tablesAt(q.Span.Start))...)
	}
	for _, cf := range p.Project.Code {
		for _, j := range cf.Joins {
			if s := p.codeJoin(cf, j, p.tablesAt(j.Span.Start)); s != nil {
				out = append(out, s)
			}
		}
	}
	for _, e := range p.Project.Explains {
		out = append(out, explainJoins(e, p.tables())...)
	}
	if p.cache != nil {
		p.cache.joins = out
	}
	return out
}

// A passCache holds what several rules of one driver run compute from the same project.
type passCache struct {
	joins []*joinSite
	// sites are the join sites as the workload classifies them.
	sites map[*joinSite]*workload.Site
}

// simulate predicts the plan of q after name resolution, nil on error: the workload's
// simulation (Workload.Simulate, once per run for every rule and command); a pass without a
// workload simulates q resolved against its tables.
func (p *Pass) simulate(q *plan.Query) *simulate.Result {
	var res *simulate.Result
	var err error
	if p.Workload != nil {
		res, err = p.Workload.Simulate(q)
	} else {
		res, err = simulate.Simulate(p.tablesAt(q.Span.Start), p.resolved(q).Query, p.OptionsAt(q.Span.Start))
	}
	if err != nil {
		return nil
	}
	return res
}

// keysTable returns the one table all keys are placed in, "" when they are not.
func keysTable(keys []plan.ColumnRef) string {
	t := ""
	for _, k := range keys {
		if k.Table == "" || (t != "" && k.Table != t) {
			return ""
		}
		t = k.Table
	}
	return t
}

// newSide builds a join side from a relation of q and its keys. A CTE, a subquery or a join
// stands for the table whose layout its output keeps (layoutSource), with Via naming it.
func newSide(q *plan.Query, rel *plan.Relation, keys []plan.ColumnRef, tables map[string]*plan.Table) joinSide {
	s := joinSide{Keys: keys}
	if rel != nil {
		s.Span = rel.Span
	}
	if rel != nil && (rel.CTE || rel.Kind == plan.SelectRel || rel.Kind == plan.JoinRel) {
		t, mapped, via := layoutSource(q, rel, keys, tables, 0)
		s.Via = via
		if t != nil {
			s.Name, s.Table, s.Keys = t.Name, t, placeKeys(mapped, t.Name)
		}
		return s
	}
	s.Name = keysTable(keys)
	if s.Name == "" && rel != nil && rel.Kind == plan.TableRel && !rel.CTE {
		s.Name = rel.Table
	}
	if s.Name != "" {
		s.Table = lookup(tables, s.Name)
	}
	return s
}

// matchSimulated fills the sides' shuffles from the simulated join over the same tables.
func matchSimulated(s *joinSite, res *simulate.Result) {
	if res == nil || s.Left.Table == nil || s.Right.Table == nil {
		return
	}
	plan.Walk(res.Plan, func(n plan.Node) bool {
		if s.Known {
			return false
		}
		j, ok := plan.JoinOf(n)
		kids := n.Children()
		if !ok || len(kids) != 2 || !readsTable(kids[0], s.Left.Table.Name) || !readsTable(kids[1], s.Right.Table.Name) {
			return true
		}
		s.Known, s.Node = true, n
		if j.Strategy == plan.BroadcastHashJoinStrategy || j.Strategy == plan.BroadcastNestedLoopJoinStrategy {
			s.Broadcast = true
		}
		for _, d := range res.Decisions {
			if d.Node != n || d.Inserted != simulate.InsertedExchange {
				continue
			}
			side := &s.Left
			if d.Side == "right" {
				side = &s.Right
			}
			side.Shuffled, side.Cause = true, d.Cause
		}
		return false
	})
}

// readsTable reports whether a plan reads the named table.
func readsTable(n plan.Node, name string) bool {
	found := false
	plan.Walk(n, func(m plan.Node) bool {
		if t := scanTable(m); t != "" && strings.EqualFold(strings.TrimPrefix(t, "spark_catalog."), name) {
			found = true
		}
		return !found
	})
	return found
}

// scanTable returns the table a scan reads, "" for anything else.
func scanTable(n plan.Node) string {
	switch s := n.(type) {
	case *plan.FileScan:
		return s.Table
	case *plan.HiveTableScan:
		return s.Table
	case *plan.BatchScan:
		return s.Table
	}
	return ""
}

// isBroadcastHint reports whether a hint name asks for a broadcast join.
func isBroadcastHint(name string) bool {
	switch strings.ToUpper(name) {
	case "BROADCAST", "BROADCASTJOIN", "MAPJOIN":
		return true
	}
	return false
}

// keyLabel is a key as a message shows it: as written, or its column when written as a
// string literal (a DataFrame join on names).
func keyLabel(k plan.ColumnRef) string {
	if k.Column != "" && k.NameString {
		return k.Column
	}
	return k.Text
}

package rules

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
)

// queryJoins returns the equi-joins of a SQL query, with the shuffles the simulator
// predicts for them.
func (p *Pass) queryJoins(q *plan.Query, tables map[string]*plan.Table) []*joinSite {
	var out []*joinSite
	var walk func(r *plan.Relation, hints []plan.Hint)
	walk = func(r *plan.Relation, hints []plan.Hint) {
		if r == nil {
			return
		}
		switch r.Kind {
		case plan.SelectRel:
			if r.Select != nil {
				walk(r.Select.From, append(hints[:len(hints):len(hints)], r.Select.Hints...))
			}
		case plan.SetRel:
			for _, in := range r.Inputs {
				walk(in, hints)
			}
		case plan.JoinRel:
			j := r.Join
			walk(j.Left, hints)
			walk(j.Right, hints)
			if len(j.LeftKeys) == 0 || len(j.LeftKeys) != len(j.RightKeys) {
				return
			}
			s := &joinSite{
				Span: j.Span, Kind: "query", Type: j.Type,
				Left: newSide(q, j.Left, j.LeftKeys, tables), Right: newSide(q, j.Right, j.RightKeys, tables),
			}
			if !s.Span.Start.IsValid() {
				s.Span = r.Span
			}
			s.Broadcast = hinted(hints, j.Left) || hinted(hints, j.Right)
			s.Query = q
			out = append(out, s)
		}
	}
	for _, c := range q.CTEs {
		walk(c.Root, nil)
	}
	walk(q.Root, q.Hints)
	if len(out) == 0 {
		return nil
	}
	res := p.simulate(q)
	for _, s := range out {
		matchSimulated(s, res)
	}
	return out
}

// hinted reports whether a broadcast hint names the relation (by alias or table name).
func hinted(hints []plan.Hint, r *plan.Relation) bool {
	if r == nil || r.Kind != plan.TableRel {
		return false
	}
	for _, h := range hints {
		if !isBroadcastHint(h.Name) {
			continue
		}
		for _, a := range h.Args {
			if strings.EqualFold(a, r.Name()) || strings.EqualFold(a, r.Table) {
				return true
			}
		}
	}
	return false
}

// codeJoin returns a DataFrame join between two frames read from one table each, simulated
// as the equivalent SQL join; nil when a side is not such a frame.
func (p *Pass) codeJoin(j *plan.CodeJoin, tables map[string]*plan.Table) *joinSite {
	if len(j.LeftKeys) == 0 || len(j.LeftKeys) != len(j.RightKeys) {
		return nil
	}
	lt, rt := frameTable(j.Left), frameTable(j.Right)
	if lt == "" || rt == "" {
		return nil
	}
	typ := j.Type
	if typ == "" {
		typ = "Inner"
	}
	s := &joinSite{Span: j.Span, Kind: "code", Type: typ, Broadcast: j.Broadcast != "" || j.Left.Broadcast || j.Right.Broadcast}
	s.Left = joinSide{Name: lt, Table: lookup(tables, lt), Keys: placeKeys(j.LeftKeys, lt), Span: j.Left.Span}
	s.Right = joinSide{Name: rt, Table: lookup(tables, rt), Keys: placeKeys(j.RightKeys, rt), Span: j.Right.Span}
	for _, h := range j.Hints {
		s.Broadcast = s.Broadcast || isBroadcastHint(h)
	}
	if s.Left.Table == nil || s.Right.Table == nil || s.Broadcast {
		return s
	}
	q := joinQuery(s)
	s.Query = q
	// The synthetic query is simulated over the catalog, which includes tables that code
	// writes; the driver does not memoise it.
	if res, err := simulate.Simulate(tables, q, p.OptionsAt(j.Span.Start)); err == nil {
		s.Sim = res
		matchSimulated(s, res)
	}
	return s
}

// frameTable returns the one table a frame reads, "" otherwise.
func frameTable(f plan.FrameRef) string {
	if len(f.Tables) != 1 || len(f.Paths) > 0 || len(f.SQL) > 0 {
		return ""
	}
	return f.Tables[0]
}

// placeKeys sets the table of keys that name a column of the side.
func placeKeys(keys []plan.ColumnRef, table string) []plan.ColumnRef {
	out := make([]plan.ColumnRef, len(keys))
	for i, k := range keys {
		if k.Table == "" && k.Column != "" {
			k.Table = table
		}
		out[i] = k
	}
	return out
}

// qualify rewrites keys to refer to a relation alias, for a synthetic query.
func qualify(keys []plan.ColumnRef, alias, table string) []plan.ColumnRef {
	out := make([]plan.ColumnRef, len(keys))
	for i, k := range keys {
		k.Qualifier, k.Relation, k.Table = alias, alias, table
		if k.Column != "" {
			k.Text = alias + "." + k.Column
			if k.Cast != "" {
				k.Text = "CAST(" + k.Text + " AS " + k.Cast + ")"
			}
		}
		out[i] = k
	}
	return out
}

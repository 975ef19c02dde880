package workload

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
)

// queryJoins returns the equi-joins of a SQL query, with the shuffles the simulator
// predicts for them. The query is read after name resolution: each key belongs to the side
// its column resolved to, whatever order the condition wrote it in, and a view is read
// through to its query. A join whose keys do not all resolve is left out (its sides cannot
// be told), as are the joins inside a view, reported where the view is defined.
func (b *siteBuilder) queryJoins(q *plan.Query, tables map[string]*plan.Table) []*Site {
	rq := b.w.Resolved(q).Query
	var out []*Site
	var walk func(r *plan.Relation, hints []plan.Hint)
	walk = func(r *plan.Relation, hints []plan.Hint) {
		if r == nil || r.View != "" {
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
			if len(j.LeftKeys) == 0 || !Complete(j) {
				return
			}
			s := &Site{
				Span: j.Span, Kind: QuerySite, Type: j.Type,
				Left: newSide(rq, j.Left, j.LeftKeys, tables), Right: newSide(rq, j.Right, j.RightKeys, tables),
			}
			if !s.Span.Start.IsValid() {
				s.Span = r.Span
			}
			s.Broadcast = hinted(hints, j.Left) || hinted(hints, j.Right)
			s.Query = rq
			out = append(out, s)
		}
	}
	// The CTEs after the query's own come from the views it reads.
	for _, c := range rq.CTEs[:len(q.CTEs)] {
		walk(c.Root, nil)
	}
	walk(rq.Root, rq.Hints)
	if len(out) == 0 {
		return nil
	}
	res := b.simulate(q)
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
// as the equivalent SQL join; a join of a derived frame (a join or groupBy of frames) is
// built from the frames' definitions (derivedJoin). nil when a side is neither.
func (b *siteBuilder) codeJoin(cf *plan.CodeFile, j *plan.CodeJoin, tables map[string]*plan.Table) *Site {
	if len(j.LeftKeys) == 0 || len(j.LeftKeys) != len(j.RightKeys) {
		return nil
	}
	lt, rt := FrameTable(j.Left), FrameTable(j.Right)
	if lt == "" || rt == "" {
		return b.derivedJoin(cf, j, tables)
	}
	typ := j.Type
	if typ == "" {
		typ = "Inner"
	}
	s := &Site{Span: j.Span, Kind: CodeSite, Type: typ, Broadcast: j.Broadcast != "" || j.Left.Broadcast || j.Right.Broadcast}
	s.Left = Side{Name: lt, JoinSide: simulate.JoinSide{Table: Lookup(tables, lt), Keys: placeKeys(j.LeftKeys, lt)}, Span: j.Left.Span}
	s.Right = Side{Name: rt, JoinSide: simulate.JoinSide{Table: Lookup(tables, rt), Keys: placeKeys(j.RightKeys, rt)}, Span: j.Right.Span}
	if s.Left.Table != nil && s.Right.Table != nil {
		lks, rks, ok := codeKeys(j, s.Left.Table, s.Right.Table)
		if !ok {
			return nil // a key's side cannot be told
		}
		s.Left.Keys, s.Right.Keys = lks, rks
	}
	for _, h := range j.Hints {
		s.Broadcast = s.Broadcast || isBroadcastHint(h)
	}
	if s.Left.Table == nil || s.Right.Table == nil || s.Broadcast {
		return s
	}
	if b.codeQuery(s, j) {
		return s
	}
	q := s.JoinQuery()
	s.Query = q
	// The synthetic query is simulated over the catalog, which includes tables that code
	// writes; the driver does not memoise it.
	if res, err := simulate.Simulate(tables, q, b.w.OptionsAt(j.Span.Start)); err == nil {
		s.Sim = res
		matchSimulated(s, res)
	}
	return s
}

// codeQuery fills a code join's site from the query built from code that runs the join
// (Workload.Queries), as every command plans it: the site's query is that query, its
// shuffles are those of the query's simulation. It reports false when no such query was
// built.
func (b *siteBuilder) codeQuery(s *Site, j *plan.CodeJoin) bool {
	q := b.w.codeJoins[j]
	if q == nil {
		return false
	}
	s.Query = q
	if res := b.simulate(q); res != nil {
		s.Sim = res
		matchSimulated(s, res)
	}
	return true
}

// FrameTable returns the one table a frame reads, "" otherwise.
func FrameTable(f plan.FrameRef) string {
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
			k.Text, k.NameString = alias+"."+k.Column, false
			k.X = columnX(k, alias)
			if k.Cast != "" {
				k.Text = "CAST(" + k.Text + " AS " + k.Cast + ")"
			}
		}
		out[i] = k
	}
	return out
}

// columnX is the tree of key k's column qualified by alias (under k's cast): the tree a
// simulator reads, which must name the relation the key was placed on.
func columnX(k plan.ColumnRef, alias string) *plan.X {
	raw := k.Column
	if alias != "" {
		raw = alias + "." + raw
	}
	x := &plan.X{Op: plan.OpColumn, Name: strings.ToLower(k.Column), Qualifier: alias, Raw: raw}
	if k.X != nil {
		x.Span = k.X.Span
	}
	if k.Cast != "" {
		x = &plan.X{Op: plan.OpCast, Name: "cast", Type: k.Cast, Args: []*plan.X{x}, Raw: "CAST(" + x.Raw + " AS " + k.Cast + ")", Span: x.Span}
	}
	return x
}

// derivedJoin returns a DataFrame join of frames that are not plain table reads — the
// aggregation day_totals = joined.groupBy(…) of a join — built from the frames' definitions
// in the file into an SQL query and simulated; each side stands for the table whose bucket
// layout it keeps (layoutSource), Via naming the frame. nil when a definition is not visible,
// and when a key is written without its frame (col("k")).
func (b *siteBuilder) derivedJoin(cf *plan.CodeFile, j *plan.CodeJoin, tables map[string]*plan.Table) *Site {
	for i := range j.LeftKeys {
		if k := j.LeftKeys[i]; k.Qualifier == "" && !isNameKey(k) || j.RightKeys[i].Qualifier == "" && !isNameKey(j.RightKeys[i]) {
			return nil // col("k") names a column of a derived frame's output, which is not resolved
		}
	}
	fb := newFrameBuilder(cf)
	l, r := fb.relation(j.Left, j.Span.Start, 0), fb.relation(j.Right, j.Span.Start, 0)
	if l == nil || r == nil {
		return nil
	}
	l.Alias, r.Alias = "l", "r"
	typ := j.Type
	if typ == "" {
		typ = "Inner"
	}
	q := &plan.Query{Span: j.Span, Root: &plan.Relation{Kind: plan.SelectRel, Select: &plan.Select{
		Items: []string{"*"}, ItemsX: []*plan.X{{Op: plan.OpStar, Raw: "*"}},
		From: &plan.Relation{Kind: plan.JoinRel, Join: &plan.JoinSpec{
			Type: typ, Left: l, Right: r,
			LeftKeys: qualify(j.LeftKeys, "l", l.Table), RightKeys: qualify(j.RightKeys, "r", r.Table),
		}},
	}}}
	s := &Site{
		Span: j.Span, Kind: CodeSite, Type: typ, Query: q,
		Broadcast: j.Broadcast != "" || j.Left.Broadcast || j.Right.Broadcast,
	}
	for _, h := range j.Hints {
		s.Broadcast = s.Broadcast || isBroadcastHint(h)
	}
	for i, side := range s.Sides() {
		f, rel, keys := j.Left, l, j.LeftKeys
		if i == 1 {
			f, rel, keys = j.Right, r, j.RightKeys
		}
		side.Span, side.Keys = f.Span, keys
		t, mapped, _ := layoutSource(q, rel, qualify(keys, rel.Alias, rel.Table), tables, 0)
		if rel.Kind == plan.TableRel {
			t, mapped = Lookup(tables, rel.Table), placeKeys(keys, rel.Table)
		} else {
			side.Via = f.Var
		}
		if t != nil {
			side.Name, side.Table, side.Keys = t.Name, t, placeKeys(mapped, t.Name)
		}
	}
	if s.Left.Table == nil || s.Right.Table == nil || s.Broadcast || b.codeQuery(s, j) {
		return s
	}
	if res, err := simulate.Simulate(tables, q, b.w.OptionsAt(j.Span.Start)); err == nil {
		s.Sim = res
		matchSimulated(s, res)
	}
	return s
}

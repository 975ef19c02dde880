package workload

import (
	"slices"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// codeQueries builds the queries the DataFrame joins and aggregations of the code files run,
// as SQL queries are: each join of two frames and each groupBy of a frame becomes a query
// whose relations are the frames' tables, files read by path and the joins and groupBys that
// define them (frameBuilder). A join or groupBy assigned to a variable that another one reads
// is part of that one's query, not a query of its own. Keys written with their frame
// (df.k, df["k"], col("alias.k")) are qualified by that frame's relation; keys written
// without one (col("k")) are left for name resolution to place, as Spark's analyzer does; a
// join on names is a USING join. A join or groupBy whose inputs are not visible in its file
// (a frame passed in, a key that is an expression) is no query. byJoin maps each join that
// is a query, or part of one, to it.
func codeQueries(p *plan.Project) (qs []*plan.Query, byJoin map[*plan.CodeJoin]*plan.Query) {
	byJoin = map[*plan.CodeJoin]*plan.Query{}
	for _, cf := range p.Code {
		fb := newFrameBuilder(cf)
		type built struct {
			q     *plan.Query
			def   string
			join  *plan.CodeJoin
			joins []*plan.CodeJoin
			span  plan.Span
		}
		var all []built
		used := map[string]bool{}
		usedSpans := map[plan.Span]bool{}
		for _, j := range cf.Joins {
			fb.reset()
			if q := fb.joinQuery(j); q != nil {
				all = append(all, built{q: q, def: fb.assigned(j.Span.Start), join: j, joins: append(fb.joins, j), span: j.Span})
				mergeUse(used, usedSpans, fb)
			}
		}
		for _, a := range cf.Aggregates {
			fb.reset()
			if q := fb.aggregateQuery(a); q != nil {
				all = append(all, built{q: q, def: fb.assigned(a.Span.Start), joins: fb.joins, span: a.Span})
				mergeUse(used, usedSpans, fb)
			}
		}
		for _, b := range all {
			if b.def != "" && used[b.def] || b.join != nil && usedSpans[b.span] {
				continue // part of another query
			}
			qs = append(qs, b.q)
			for _, j := range b.joins {
				if byJoin[j] == nil || b.join == j {
					byJoin[j] = b.q
				}
			}
		}
	}
	slices.SortStableFunc(qs, func(a, b *plan.Query) int { return comparePos(a.Span.Start, b.Span.Start) })
	return qs, byJoin
}

// mergeUse adds the variables and inline frames a builder expanded to the sets.
func mergeUse(used map[string]bool, spans map[plan.Span]bool, fb *frameBuilder) {
	for v := range fb.used {
		used[v] = true
	}
	for s := range fb.usedSpans {
		spans[s] = true
	}
}

// comparePos orders positions by file, line and column.
func comparePos(a, b plan.Pos) int {
	switch {
	case a.File != b.File:
		return strings.Compare(a.File, b.File)
	case a.Before(b):
		return -1
	case b.Before(a):
		return 1
	}
	return 0
}

// assigned returns the variable the statement holding pos assigns, "" when none does.
func (b *frameBuilder) assigned(pos plan.Pos) string {
	v := ""
	for _, a := range b.cf.Assigns {
		if !pos.Before(a.Span.Start) && !a.Span.End.Before(pos) {
			v = a.Var
		}
	}
	return v
}

// joinQuery builds the query of a DataFrame join, nil when a side or a key is not known.
func (b *frameBuilder) joinQuery(j *plan.CodeJoin) *plan.Query {
	rel := b.joinRelation(j, 0)
	if rel == nil {
		return nil
	}
	q := &plan.Query{Span: j.Span, Root: &plan.Relation{Kind: plan.SelectRel, Span: j.Span, Select: &plan.Select{
		Items: []string{"*"}, ItemsX: []*plan.X{{Op: plan.OpStar, Raw: "*"}}, From: rel,
	}}}
	q.Text = querySQL(q)
	return q
}

// joinRelation builds the relation of a join: its two frames' relations and its keys, each
// qualified by the relation of the frame it is written with.
func (b *frameBuilder) joinRelation(j *plan.CodeJoin, depth int) *plan.Relation {
	if len(j.LeftKeys) == 0 || len(j.LeftKeys) != len(j.RightKeys) || len(j.Residual) > 0 || j.Type == "" {
		return nil
	}
	l, r := b.relation(j.Left, j.Span.Start, depth+1), b.relation(j.Right, j.Span.Start, depth+1)
	if l == nil || r == nil {
		return nil
	}
	spec := &plan.JoinSpec{Type: j.Type, Left: l, Right: r, Span: j.Span, Condition: j.On}
	if j.Using {
		// A join on names is a USING join; its keys are each name on each side.
		for _, k := range j.LeftKeys {
			if k.Column == "" || strings.ContainsAny(k.Column, "{} ") {
				return nil // a name that is not known
			}
			key := plan.ColumnRef{Text: k.Column, Column: k.Column, Pos: k.Pos}
			spec.Using = append(spec.Using, k.Column)
			spec.LeftKeys = append(spec.LeftKeys, qualify([]plan.ColumnRef{key}, l.Name(), l.Table)[0])
			spec.RightKeys = append(spec.RightKeys, qualify([]plan.ColumnRef{key}, r.Name(), r.Table)[0])
		}
	} else {
		for i := range j.LeftKeys {
			lk, ok1 := b.sideKey(j.LeftKeys[i], j, l, r)
			rk, ok2 := b.sideKey(j.RightKeys[i], j, l, r)
			if !ok1 || !ok2 {
				return nil
			}
			spec.LeftKeys, spec.RightKeys = append(spec.LeftKeys, lk), append(spec.RightKeys, rk)
		}
	}
	b.joins = append(b.joins, j)
	return &plan.Relation{Kind: plan.JoinRel, Span: j.Span, Join: spec}
}

// sideKey returns a join key as the query writes it: qualified by the relation of the frame
// its qualifier names, unqualified (for name resolution) when it has none. ok is false for a
// key that is not a column, and for a qualifier that names both frames or neither.
func (b *frameBuilder) sideKey(k plan.ColumnRef, j *plan.CodeJoin, l, r *plan.Relation) (plan.ColumnRef, bool) {
	if k.Column == "" {
		return k, false
	}
	out := plan.ColumnRef{Text: k.Column, Column: k.Column, Cast: k.Cast, Desc: k.Desc, Pos: k.Pos}
	if k.Qualifier == "" {
		out.X = columnX(out, "")
		if k.Cast != "" {
			out.Text = "CAST(" + k.Column + " AS " + k.Cast + ")"
		}
		return out, true
	}
	inL, inR := names(j.Left, k.Qualifier), names(j.Right, k.Qualifier)
	if inL == inR {
		return k, false
	}
	rel := l
	if inR {
		rel = r
	}
	return qualify([]plan.ColumnRef{out}, rel.Name(), rel.Table)[0], true
}

// names reports whether a key's qualifier names frame f: its variable, its alias or its
// expression as written.
func names(f plan.FrameRef, q string) bool {
	return q != "" && (q == f.Var || strings.EqualFold(q, f.Alias) || q == f.Text)
}

// aggregateQuery builds the query of a groupBy or a dropDuplicates on keys (which Spark
// plans as an aggregation grouped by them), nil for other aggregations and when the frame or
// a key is not known.
func (b *frameBuilder) aggregateQuery(a *plan.CodeAggregate) *plan.Query {
	if a.Kind != "groupBy" && a.Kind != "dropDuplicates" || len(a.Keys) == 0 {
		return nil
	}
	child := b.relation(a.Frame, a.Span.Start, 0)
	if child == nil {
		return nil
	}
	sel := b.aggregateSelect(a, child)
	if sel == nil {
		return nil
	}
	q := &plan.Query{Span: a.Span, Root: &plan.Relation{Kind: plan.SelectRel, Span: a.Span, Select: sel}}
	q.Text = querySQL(q)
	return q
}

// mergeQueries adds the queries built from code to the SQL ones: each after the last query
// of its file that comes before it, at the end when its file has none.
func mergeQueries(sqlq []Query, code []*plan.Query, sessions map[string]*Session) []Query {
	out := sqlq
	for _, q := range code {
		at := len(out)
		pos := q.Span.Start
		for i := len(out) - 1; i >= 0; i-- {
			s := out[i].Query.Span.Start
			if s.File == pos.File {
				at = i + 1
				if s.Before(pos) {
					break
				}
				at = i
			}
		}
		out = slices.Insert(out, at, Query{Query: q, Session: sessions[pos.File]})
	}
	return out
}

// resolvedCode returns the queries built from code whose names all resolve in their
// sessions. One that names a column no relation is known to have (a column withColumn or
// agg made, which the code model does not follow) is not a query: its plan would not be
// Spark's; its joins keep their sites without it.
func (w *Workload) resolvedCode(qs []*plan.Query) []*plan.Query {
	var out []*plan.Query
	drop := map[*plan.Query]bool{}
	for _, q := range qs {
		if len(w.Resolved(q).Unresolved) > 0 {
			drop[q] = true
			continue
		}
		out = append(out, q)
	}
	for j, q := range w.codeJoins {
		if drop[q] {
			delete(w.codeJoins, j)
		}
	}
	return out
}

// UnreadCode returns the positions of the DataFrame joins and groupBys of code that are no
// query (codeQueries, resolvedCode): a frame, a key or a column that the file does not show.
// They are said, not guessed.
func (w *Workload) UnreadCode() []plan.Pos {
	read := map[plan.Pos]bool{}
	for _, q := range w.queries {
		read[q.Query.Span.Start] = true
	}
	for j, q := range w.codeJoins {
		if q != nil {
			read[j.Span.Start] = true
		}
	}
	var out []plan.Pos
	for _, cf := range w.project.Code {
		for _, j := range cf.Joins {
			if !read[j.Span.Start] {
				out = append(out, j.Span.Start)
			}
		}
		for _, a := range cf.Aggregates {
			if a.Kind == "groupBy" && !read[a.Span.Start] && !w.inQuery(a.Span.Start) {
				out = append(out, a.Span.Start)
			}
		}
	}
	slices.SortFunc(out, comparePos)
	return out
}

// inQuery reports whether pos lies in the span of a query built from code.
func (w *Workload) inQuery(pos plan.Pos) bool {
	for _, q := range w.queries {
		if q.Query.Span.Contains(pos) {
			return true
		}
	}
	return false
}

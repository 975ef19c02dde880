package sql

import (
	"fmt"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

func (p *printer) query(q *plan.Query) {
	head := "query @" + lc(q.Span.Start)
	if q.Target != "" {
		head += " target=" + q.Target
		if q.Overwrite {
			head += " overwrite"
		}
		if q.View {
			head += " view"
		}
		if q.Temp {
			head += " temp"
		}
	}
	p.line("", "%s", head)
	for _, h := range q.Hints {
		p.line("  ", "hint %s(%s)", h.Name, strings.Join(h.Args, ", "))
	}
	for _, c := range q.CTEs {
		p.line("  ", "cte %s", c.Name)
		p.rel(c.Root, "    ")
	}
	p.rel(q.Root, "  ")
}

func (p *printer) rel(r *plan.Relation, in string) {
	if r == nil {
		p.line(in, "<nil>")
		return
	}
	alias := ""
	if r.Alias != "" {
		alias = " as " + r.Alias
	}
	switch r.Kind {
	case plan.TableRel:
		kind := "table"
		if r.CTE {
			kind = "cte-ref"
		}
		p.line(in, "%s %s%s", kind, r.Table, alias)
	case plan.JoinRel:
		p.join(r.Join, alias, in)
	case plan.SelectRel:
		p.line(in, "select%s", alias)
		p.sel(r.Select, in+"  ")
	case plan.SetRel:
		p.line(in, "%s%s", strings.ToLower(r.SetOp), alias)
		for _, x := range r.Inputs {
			p.rel(x, in+"  ")
		}
	default:
		p.line(in, "other%s %q", alias, firstLine(r.Text))
	}
}

func (p *printer) join(j *plan.JoinSpec, alias, in string) {
	s := "join " + j.Type
	if j.Natural {
		s += " natural"
	}
	if j.Comma {
		s += " comma"
	}
	if len(j.Using) > 0 {
		s += " using(" + strings.Join(j.Using, ", ") + ")"
	}
	p.line(in, "%s%s", s, alias)
	for i := range j.LeftKeys {
		p.line(in, "  key %s = %s", keyString(j.LeftKeys[i]), keyString(j.RightKeys[i]))
	}
	for _, r := range j.Residual {
		p.line(in, "  residual %s", oneLine(r))
	}
	p.rel(j.Left, in+"  ")
	p.rel(j.Right, in+"  ")
}

func (p *printer) sel(s *plan.Select, in string) {
	for _, h := range s.Hints {
		p.line(in, "hint %s(%s)", h.Name, strings.Join(h.Args, ", "))
	}
	if s.Distinct {
		p.line(in, "distinct")
	}
	p.line(in, "items %s", oneLine(strings.Join(s.Items, " | ")))
	if s.From != nil {
		p.line(in, "from")
		p.rel(s.From, in+"  ")
	}
	for _, g := range s.Generators {
		outer := ""
		if g.Outer {
			outer = " outer"
		}
		p.line(in, "generate%s %s as %s (%s)", outer, oneLine(g.X.Raw), g.Alias, strings.Join(g.Columns, ", "))
	}
	if pv := s.Pivot; pv != nil {
		p.line(in, "pivot for %s in (%s) as (%s)", keyList(pv.Columns), oneLine(strings.Join(pv.Values, ", ")), strings.Join(pv.Names, ", "))
	}
	if s.Where != "" {
		p.line(in, "where %s", oneLine(s.Where))
	}
	for _, e := range s.Equalities {
		p.line(in, "equality %s = %s", keyString(e.Left), keyString(e.Right))
	}
	for _, f := range s.Filters {
		p.line(in, "filter %s %s (%s)", keyString(f.Column), f.Op, strings.Join(f.Values, ", "))
	}
	if s.Aggregate {
		p.line(in, "aggregate by %s", keyList(s.GroupBy))
	}
	if s.Having != "" {
		p.line(in, "having %s", oneLine(s.Having))
	}
	for _, w := range s.Windows {
		p.line(in, "window %s partition by %s order by %s", w.Function, keyList(w.PartitionBy), keyList(w.OrderBy))
	}
	for _, x := range []struct {
		name string
		keys []plan.ColumnRef
	}{{"distribute by", s.DistributeBy}, {"sort by", s.SortBy}, {"order by", s.OrderBy}} {
		if len(x.keys) > 0 {
			p.line(in, "%s %s", x.name, keyList(x.keys))
		}
	}
	if s.Limit != "" {
		p.line(in, "limit %s", s.Limit)
	}
}

// keyString prints a key as relation.column[::cast] (table), or its text in braces when it is
// not a column.
func keyString(k plan.ColumnRef) string {
	if !k.IsColumn() {
		return "{" + k.Text + "}"
	}
	s := k.Column
	switch {
	case k.Relation != "":
		s = k.Relation + "." + s
	case k.Qualifier != "":
		s = k.Qualifier + "?." + s
	default:
		s = "?." + s
	}
	if k.Cast != "" {
		s += "::" + k.Cast
	}
	if k.Table != "" && k.Table != k.Relation {
		s += fmt.Sprintf("(%s)", k.Table)
	}
	if k.Desc {
		s += " desc"
	}
	return s
}

func keyList(ks []plan.ColumnRef) string {
	if len(ks) == 0 {
		return "()"
	}
	out := make([]string, len(ks))
	for i, k := range ks {
		out[i] = keyString(k)
	}
	return strings.Join(out, ", ")
}

// oneLine collapses blanks so that multi-line source text prints on one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

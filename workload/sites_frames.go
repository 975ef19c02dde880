package workload

import (
	"fmt"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// A frameBuilder turns the DataFrame variables of one code file into relations, as far as the
// code model shows their definitions: a table read, a file read by path, a join of two
// frames, a groupBy of a frame. Filters, projections and column expressions are not
// modelled; they do not change a frame's partitioning.
type frameBuilder struct {
	cf      *plan.CodeFile
	aliases int
	// taken are the relation aliases given; used the variables and usedSpans the inline join
	// frames whose definitions were expanded; joins the joins built, since the last reset.
	taken     map[string]bool
	used      map[string]bool
	usedSpans map[plan.Span]bool
	joins     []*plan.CodeJoin
}

// newFrameBuilder returns a builder for cf.
func newFrameBuilder(cf *plan.CodeFile) *frameBuilder {
	b := &frameBuilder{cf: cf}
	b.reset()
	return b
}

// reset starts a new query: aliases from f1, nothing used.
func (b *frameBuilder) reset() {
	b.aliases, b.joins = 0, nil
	b.taken, b.used, b.usedSpans = map[string]bool{}, map[string]bool{}, map[plan.Span]bool{}
}

// alias returns a fresh relation alias.
func (b *frameBuilder) alias() string {
	for {
		b.aliases++
		a := fmt.Sprintf("f%d", b.aliases)
		if !b.taken[a] {
			b.taken[a] = true
			return a
		}
	}
}

// aliasFor returns the alias of a frame's relation: its alias or variable when that is a
// plain name not given yet, else a fresh one.
func (b *frameBuilder) aliasFor(f plan.FrameRef) string {
	for _, a := range []string{strings.ToLower(f.Alias), strings.ToLower(f.Var)} {
		if plainName(a) && (a[0] < '0' || a[0] > '9') && !b.taken[a] {
			b.taken[a] = true
			return a
		}
	}
	return b.alias()
}

// relation builds the relation of a frame used at pos: the join or groupBy defining its
// variable, the join it is the inline result of, the one table it reads, or the one file it
// reads by path (format.`path`, as Spark SQL reads files). nil when none is visible.
func (b *frameBuilder) relation(f plan.FrameRef, pos plan.Pos, depth int) *plan.Relation {
	if depth > maxLineage {
		return nil
	}
	if f.Var != "" {
		if r := b.definition(f.Var, pos, depth); r != nil {
			b.used[f.Var] = true
			return r
		}
	}
	if t := FrameTable(f); t != "" {
		return &plan.Relation{Kind: plan.TableRel, Table: t, Alias: b.aliasFor(f), Text: t, Span: f.Span}
	}
	if f.Var == "" {
		for _, j := range b.cf.Joins {
			if j.Span == f.Span {
				return b.wrapJoin(j, "", depth)
			}
		}
	}
	if p := b.pathTable(f); p != "" {
		return &plan.Relation{Kind: plan.TableRel, Table: p, Alias: b.aliasFor(f), Text: p, Span: f.Span}
	}
	return nil
}

// pathTable names the one file a frame reads by path as Spark SQL does (parquet.`/p`), ""
// when the frame reads anything else or the read's format is not given.
func (b *frameBuilder) pathTable(f plan.FrameRef) string {
	if len(f.Paths) != 1 || len(f.Tables)+len(f.SQL) > 0 || strings.Contains(f.Paths[0], "`") {
		return ""
	}
	for _, r := range b.cf.Reads {
		if r.Kind == plan.ReadPath && r.Path == f.Paths[0] && plainName(strings.ToLower(r.Format)) {
			return r.Format + ".`" + r.Path + "`"
		}
	}
	return ""
}

// wrapJoin builds the relation of a join as a frame: a SELECT * over it, named v.
func (b *frameBuilder) wrapJoin(j *plan.CodeJoin, v string, depth int) *plan.Relation {
	join := b.joinRelation(j, depth)
	if join == nil {
		return nil
	}
	b.usedSpans[j.Span] = true
	return &plan.Relation{
		Kind: plan.SelectRel, Alias: b.alias(), Text: v, Span: j.Span,
		Select: &plan.Select{Items: []string{"*"}, ItemsX: []*plan.X{{Op: plan.OpStar, Raw: "*"}}, From: join},
	}
}

// definition builds the relation assigned to variable v by the last assignment before pos
// when that statement holds a join or a groupBy; nil otherwise. The statement runs from the
// assignment's line to the next assignment's (or pos's) line.
func (b *frameBuilder) definition(v string, pos plan.Pos, depth int) *plan.Relation {
	from, to := 0, pos.Line
	for _, a := range b.cf.Assigns {
		if a.Var == v && a.Span.Start.Line < pos.Line {
			from = a.Span.Start.Line
		}
	}
	if from == 0 {
		return nil
	}
	for _, a := range b.cf.Assigns {
		if l := a.Span.Start.Line; l > from && l < to {
			to = l
		}
	}
	in := func(p plan.Pos) bool { return p.File == b.cf.File && p.Line >= from && p.Line < to }
	for _, a := range b.cf.Aggregates {
		if a.Kind != "groupBy" || !in(a.Span.Start) || a.Frame.Var == v || len(a.Keys) == 0 {
			continue
		}
		child := b.relation(a.Frame, a.Span.Start, depth+1)
		if child == nil {
			return nil
		}
		sel := b.aggregateSelect(a, child)
		if sel == nil {
			return nil
		}
		return &plan.Relation{Kind: plan.SelectRel, Select: sel, Alias: b.alias(), Text: v, Span: a.Span}
	}
	for _, j := range b.cf.Joins {
		if !in(j.Span.Start) || j.Left.Var == v || j.Right.Var == v {
			continue
		}
		return b.wrapJoin(j, v, depth)
	}
	return nil
}

// aggregateSelect is the SELECT block of a groupBy of the frame whose relation is child. A
// frame that is a join is grouped over the join itself, so that a key written with one of
// the joined frames (joined.groupBy(orders.k)) names that frame's relation; a key written
// with the grouped frame itself, or with none, is qualified by child when child is not a
// join and left to name resolution when it is. nil when a key is not a column, or names a
// frame that is not among the relations grouped.
func (b *frameBuilder) aggregateSelect(a *plan.CodeAggregate, child *plan.Relation) *plan.Select {
	from := child
	if c := child.Select; child.Kind == plan.SelectRel && c != nil && c.From != nil && c.From.Kind == plan.JoinRel && starOnly(c) {
		from = c.From
	}
	leaves := map[string]*plan.Relation{}
	plan.WalkRelation(from, func(r *plan.Relation) bool {
		if r.Kind == plan.TableRel {
			leaves[r.Name()] = r
		}
		return r == from || r.Kind == plan.JoinRel
	})
	sel := &plan.Select{Aggregate: true, From: from, Span: a.Span}
	for _, k := range a.Keys {
		if k.Column == "" {
			return nil
		}
		key := plan.ColumnRef{Text: k.Column, Column: k.Column, Cast: k.Cast, Pos: k.Pos}
		switch leaf := leaves[strings.ToLower(k.Qualifier)]; {
		case (k.Qualifier == "" || names(a.Frame, k.Qualifier)) && from == child:
			key = qualify([]plan.ColumnRef{key}, child.Name(), child.Table)[0]
		case k.Qualifier == "" || names(a.Frame, k.Qualifier):
			key.X = columnX(key, "")
			if k.Cast != "" {
				key.Text = "CAST(" + k.Column + " AS " + k.Cast + ")"
			}
		case leaf != nil && from != child:
			key = qualify([]plan.ColumnRef{key}, leaf.Name(), leaf.Table)[0]
		default:
			return nil
		}
		sel.Items = append(sel.Items, key.Text)
		sel.ItemsX = append(sel.ItemsX, key.X)
		sel.GroupBy = append(sel.GroupBy, key)
	}
	return sel
}

// starOnly reports a select list that is a lone "*".
func starOnly(sel *plan.Select) bool {
	return len(sel.ItemsX) == 1 && sel.ItemsX[0] != nil && sel.ItemsX[0].Op == plan.OpStar && sel.ItemsX[0].Qualifier == ""
}

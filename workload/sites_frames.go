package workload

import (
	"fmt"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// A frameBuilder turns the DataFrame variables of one code file into relations, as far as the
// code model shows their definitions: a table read, a join of two frames, a groupBy of a
// frame. Filters, projections and column expressions are not modelled; they do not change a
// frame's partitioning.
type frameBuilder struct {
	cf      *plan.CodeFile
	aliases int
}

// newFrameBuilder returns a builder for cf.
func newFrameBuilder(cf *plan.CodeFile) *frameBuilder {
	return &frameBuilder{cf: cf}
}

// alias returns a fresh relation alias.
func (b *frameBuilder) alias() string {
	b.aliases++
	return fmt.Sprintf("f%d", b.aliases)
}

// relation builds the relation of a frame used at pos: a table read when the frame reads one
// table and its definition neither joins nor groups, else the join or aggregation defining
// its variable. nil when the definition is not visible.
func (b *frameBuilder) relation(f plan.FrameRef, pos plan.Pos, depth int) *plan.Relation {
	if depth > maxLineage {
		return nil
	}
	if f.Var != "" {
		if r := b.definition(f.Var, pos, depth); r != nil {
			return r
		}
	}
	if t := FrameTable(f); t != "" {
		return &plan.Relation{Kind: plan.TableRel, Table: t, Alias: b.alias(), Text: t}
	}
	return nil
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
		sel := &plan.Select{Aggregate: true, From: child}
		for _, k := range a.Keys {
			if k.Column == "" {
				return nil
			}
			sel.Items = append(sel.Items, k.Column)
			sel.ItemsX = append(sel.ItemsX, &plan.X{Op: plan.OpColumn, Name: strings.ToLower(k.Column), Raw: k.Column})
			sel.GroupBy = append(sel.GroupBy, plan.ColumnRef{Text: k.Column, Column: k.Column, Pos: k.Pos})
		}
		return &plan.Relation{Kind: plan.SelectRel, Select: sel, Alias: b.alias(), Text: v}
	}
	for _, j := range b.cf.Joins {
		if !in(j.Span.Start) || j.Left.Var == v || j.Right.Var == v {
			continue
		}
		if len(j.LeftKeys) == 0 || len(j.LeftKeys) != len(j.RightKeys) {
			return nil
		}
		l, r := b.relation(j.Left, j.Span.Start, depth+1), b.relation(j.Right, j.Span.Start, depth+1)
		if l == nil || r == nil {
			return nil
		}
		typ := j.Type
		if typ == "" {
			typ = "Inner"
		}
		join := &plan.Relation{Kind: plan.JoinRel, Join: &plan.JoinSpec{
			Type: typ, Left: l, Right: r,
			LeftKeys: qualify(j.LeftKeys, l.Alias, l.Table), RightKeys: qualify(j.RightKeys, r.Alias, r.Table),
		}}
		return &plan.Relation{
			Kind: plan.SelectRel, Alias: b.alias(), Text: v,
			Select: &plan.Select{Items: []string{"*"}, ItemsX: []*plan.X{{Op: plan.OpStar, Raw: "*"}}, From: join},
		}
	}
	return nil
}

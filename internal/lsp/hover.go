package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"strings"

	"github.com/bucketlint/bucketlint/internal/lsp/jsonrpc"
	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/report"
	"github.com/bucketlint/bucketlint/workload"
)

// hover describes what is under the cursor: a table name (its layout and where it is
// defined) and the join around it (each side shuffled or not and why, and the query's
// predicted plan). Nothing known there is a null result.
func (s *Server) hover(ctx context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
	var p textDocumentPositionParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	name, ok := uriPath(p.TextDocument.URI)
	if !ok {
		return nil, nil
	}
	snap, err := s.await(ctx, name)
	if err != nil || snap.model == nil || snap.model.Workload == nil {
		return nil, nil
	}
	s.mu.Lock()
	c := s.converterLocked(snap.p, snap.texts)
	markdown := s.markdown
	s.mu.Unlock()
	line, col := c.lines(name).pos(p.Position, c.enc)
	h := &hoverer{w: snap.model.Workload, c: c, name: name, line: line, col: col}
	var b strings.Builder
	var at *plan.Span
	if ref, ok := h.tableRef(); ok {
		h.table(&b, ref)
		at = &ref.span
	}
	if site := h.site(); site != nil {
		if b.Len() > 0 {
			b.WriteString("\n---\n\n")
		}
		h.join(&b, site)
		if at == nil {
			at = &site.Span
		}
	}
	if b.Len() == 0 {
		return nil, nil
	}
	kind := "markdown"
	if !markdown {
		kind = "plaintext"
	}
	res := &hoverResult{Contents: markupContent{Kind: kind, Value: b.String()}}
	if _, r := c.rangeOf(*at); at.Start.IsValid() {
		res.Range = &r
	}
	return res, nil
}

// A hoverer finds what a workload knows at one position of one file.
type hoverer struct {
	w         *workload.Workload
	c         *converter
	name      string // the file, as the server names it
	line, col int    // 1-based, the column in bytes
}

// in reports whether the position lies in sp.
func (h *hoverer) in(sp plan.Span) bool {
	if sp.Start.File == "" || h.c.name(sp.Start.File) != h.name {
		return false
	}
	return sp.Contains(plan.Pos{File: sp.Start.File, Line: h.line, Col: h.col})
}

// A tableRef is a table name written in a file: its span, and the table or view it names
// where it is written (nil when the workload does not know it).
type tableRef struct {
	name  string
	span  plan.Span
	table *plan.Table
	view  *workload.View
}

// tableRef finds the table name at the position: a query's relation, a table a DataFrame
// reads or writes, or a table declared on the position's line.
func (h *hoverer) tableRef() (tableRef, bool) {
	src := h.w.Source()
	for _, q := range src.Queries {
		if !h.in(q.Span) {
			continue
		}
		if r := h.relation(q); r != nil {
			cat := h.w.CatalogueAt(q.Span.Start)
			return tableRef{name: r.Table, span: r.NameSpan, table: cat.Table(r.Table), view: cat.ViewEntry(r.Table)}, true
		}
	}
	for _, cf := range src.Code {
		for _, r := range cf.Reads {
			if r.Kind == plan.ReadTable && r.Table != "" && h.in(r.Span) {
				return tableRef{name: r.Table, span: r.Span, table: h.w.CatalogueAt(r.Span.Start).Table(r.Table)}, true
			}
		}
		for _, wr := range cf.Writes {
			if wr.Table != "" && h.in(wr.TerminalSpan) {
				return tableRef{name: wr.Table, span: wr.TerminalSpan, table: h.w.Catalogue().Table(wr.Table)}, true
			}
		}
	}
	// A declaration on the line: the last one starting at or before the position (the first
	// on the line when the position is before them all), by name when two start together.
	var best tableRef
	var bestAt plan.Pos
	for _, t := range h.w.Project().Tables {
		for _, p := range t.Sources {
			if p.File == "" || h.c.name(p.File) != h.name || p.Line != h.line {
				continue
			}
			if best.table == nil || declaredBefore(p, bestAt, h.col) || p == bestAt && t.Name < best.name {
				best, bestAt = tableRef{name: t.Name, span: plan.Span{Start: p}, table: t}, p
			}
		}
	}
	return best, best.table != nil
}

// declaredBefore reports whether a declaration starting at p is a better match for the
// column col than one starting at q, both on col's line: the closer one at or before col,
// else the earlier one.
func declaredBefore(p, q plan.Pos, col int) bool {
	switch pIn, qIn := p.Col <= col, q.Col <= col; {
	case pIn && qIn:
		return p.Col > q.Col
	case pIn != qIn:
		return pIn
	}
	return p.Col < q.Col
}

// relation returns the table relation of q whose name holds the position, nil for none.
func (h *hoverer) relation(q *plan.Query) *plan.Relation {
	var found *plan.Relation
	var walk func(r *plan.Relation)
	walk = func(r *plan.Relation) {
		if r == nil || found != nil {
			return
		}
		switch r.Kind {
		case plan.TableRel:
			if !r.CTE && r.Table != "" && h.in(r.NameSpan) {
				found = r
			}
		case plan.JoinRel:
			if r.Join != nil {
				walk(r.Join.Left)
				walk(r.Join.Right)
			}
		case plan.SelectRel:
			if r.Select != nil {
				walk(r.Select.From)
			}
		case plan.SetRel:
			for _, in := range r.Inputs {
				walk(in)
			}
		}
	}
	for _, cte := range q.CTEs {
		walk(cte.Root)
	}
	walk(q.Root)
	return found
}

// site returns the innermost join site holding the position, nil for none.
func (h *hoverer) site() *workload.Site {
	var best *workload.Site
	for _, s := range h.w.Sites(0) {
		if h.in(s.Span) && (best == nil || narrower(s.Span, best.Span)) {
			best = s
		}
	}
	return best
}

// narrower reports whether a starts after b or ends before it.
func narrower(a, b plan.Span) bool {
	return b.Start.Before(a.Start) || a.End.IsValid() && a.End.Before(b.End)
}

// table writes a table's layout and where it is defined.
func (h *hoverer) table(b *strings.Builder, ref tableRef) {
	t := ref.table
	switch {
	case t == nil && ref.view != nil:
		fmt.Fprintf(b, "**%s**: view, defined at %s\n", code(ref.name), h.link(ref.view.Pos))
		return
	case t == nil:
		fmt.Fprintf(b, "**%s**: no table of this name is defined in the workspace (no DDL, catalog or saveAsTable): its layout is not known\n", code(ref.name))
		return
	}
	format := t.Format
	switch {
	case format == "":
		format = "format not known"
	case t.Hive && format != "hive":
		format += " (Hive serde)"
	}
	fmt.Fprintf(b, "**%s**: table, %s\n\n", code(t.Name), format)
	fmt.Fprintf(b, "- bucketing: %s\n", code(t.Buckets().String()))
	if len(t.PartitionColumns) > 0 {
		fmt.Fprintf(b, "- partitioned by %s\n", code("("+strings.Join(t.PartitionColumns, ", ")+")"))
	}
	if cl := t.ClusterBy(); len(cl) > 0 {
		fmt.Fprintf(b, "- clustered by %s (clustering, not bucketing)\n", code("("+strings.Join(cl, ", ")+")"))
	}
	if l, ok := t.Layout.(*plan.Transforms); ok {
		fmt.Fprintf(b, "- partition transforms %s (the catalog's partitioning, not Spark bucketing)\n", code(l.String()))
	}
	if len(t.Columns) > 0 {
		cols := make([]string, len(t.Columns))
		for i, col := range t.Columns {
			cols[i] = strings.TrimSpace(col.Name + " " + col.Type)
		}
		fmt.Fprintf(b, "- columns: %s\n", code(strings.Join(cols, ", ")))
	}
	if t.Location != "" {
		fmt.Fprintf(b, "- location: %s\n", code(t.Location))
	}
	if t.SizeInBytes >= 0 {
		fmt.Fprintf(b, "- size: %s\n", plan.SizeText(t.SizeInBytes))
	}
	if len(t.Sources) > 0 {
		links := make([]string, len(t.Sources))
		for i, p := range t.Sources {
			links[i] = h.link(p)
		}
		fmt.Fprintf(b, "- defined at %s\n", strings.Join(links, ", "))
	}
}

// join writes a join site: each side shuffled or not and why, then the query's predicted
// plan.
func (h *hoverer) join(b *strings.Builder, s *workload.Site) {
	fmt.Fprintf(b, "**%s join** of %s and %s", s.Type, code(sideName(&s.Left)), code(sideName(&s.Right)))
	switch s.Kind {
	case workload.ExplainSite:
		b.WriteString(", as the explain output prints it\n\n")
	default:
		fmt.Fprintf(b, ", predicted for Spark %s\n\n", s.Options.Version())
	}
	if s.Broadcast {
		b.WriteString("- broadcast: no side is shuffled, whatever the layout\n")
	}
	for i, side := range s.Sides() {
		label := [2]string{"left", "right"}[i]
		fmt.Fprintf(b, "- %s %s: %s\n", label, code(sideName(side)), sideState(s, side))
	}
	res := s.Sim
	if res == nil && s.Query != nil && s.Kind != workload.ExplainSite {
		res, _ = h.w.Simulate(s.Query)
	}
	if res == nil || s.Query == nil {
		return
	}
	var pl strings.Builder
	if err := report.WriteSimulateText(&pl, []report.Simulation{{Query: s.Query, Result: res, Unresolved: h.w.Resolved(s.Query).Unresolved}}); err != nil {
		return
	}
	b.WriteString("\n```text\n" + strings.ReplaceAll(pl.String(), "```", "'''") + "```\n")
}

// sideName names a join side as its sentences do.
func sideName(side *workload.Side) string {
	switch {
	case side.Label != "":
		return side.Label
	case side.Name != "":
		return side.Name
	}
	return "the other input"
}

// sideState says whether a join shuffles a side, and why.
func sideState(s *workload.Site, side *workload.Side) string {
	switch {
	case !s.Known:
		return "not simulated: whether it is shuffled is not known"
	case side.Shuffled:
		why := s.Explain(side).Text
		if why == "" {
			return "shuffled (Exchange)"
		}
		return "shuffled (Exchange): " + why
	case side.Table != nil && side.Table.Buckets() != nil:
		return "not shuffled; " + side.Table.Name + " is " + side.Table.Buckets().String()
	}
	return "not shuffled"
}

// link is a Markdown link to a position: its file relative to the project, and line.
func (h *hoverer) link(p plan.Pos) string {
	if p.File == "" {
		return "(no file)"
	}
	name := h.c.name(p.File)
	shown := name
	if rel, ok := strings.CutPrefix(name, strings.TrimSuffix(h.c.base, "/")+"/"); ok {
		shown = rel
	}
	label := shown
	target := h.c.uri(name)
	if p.Line > 0 {
		label = fmt.Sprintf("%s:%d", shown, p.Line)
		target += fmt.Sprintf("#L%d", p.Line)
	}
	return "[" + escapeLink(label) + "](" + target + ")"
}

// code quotes text as Markdown inline code (backquotes in it become quotes).
func code(s string) string { return "`" + strings.ReplaceAll(s, "`", "'") + "`" }

// escapeLink escapes the characters that end a Markdown link's text.
func escapeLink(s string) string {
	return strings.NewReplacer(`\`, `\\`, "[", `\[`, "]", `\]`).Replace(path.Clean(s))
}

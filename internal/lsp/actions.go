package lsp

import (
	"context"
	"encoding/json"
	"slices"
	"sort"
	"strings"

	"github.com/bucketlint/bucketlint/internal/lsp/jsonrpc"
	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/rules"
)

// codeActions offers a quick fix for each finding in the requested range whose fix has
// edits: the edits at the spans the parsers recorded, in every file they touch.
func (s *Server) codeActions(ctx context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
	var p codeActionParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	out := []codeAction{}
	name, ok := uriPath(p.TextDocument.URI)
	if !ok || !wantsQuickFix(p.Context.Only) {
		return out, nil
	}
	snap, err := s.await(ctx, name)
	if err != nil || snap.model == nil {
		return out, nil
	}
	s.mu.Lock()
	c := s.converterLocked(snap.p, snap.texts)
	docChanges := s.docChanges
	s.mu.Unlock()
	for _, f := range snap.model.Findings {
		if f.Fix == nil || len(f.Fix.Edits) == 0 {
			continue
		}
		fname, r := c.rangeOf(f.Span)
		if fname != name || !overlaps(r, p.Range) {
			continue
		}
		edit, ok := c.workspaceEdit(f.Fix.Edits, snap.versions, docChanges)
		if !ok {
			continue
		}
		title, _, _ := strings.Cut(f.Fix.Description, "\n")
		out = append(out, codeAction{Title: title, Kind: "quickfix", Diagnostics: []diagnostic{c.diagnostic(f)}, Edit: edit})
	}
	if len(out) == 1 {
		out[0].IsPreferred = true
	}
	return out, nil
}

// wantsQuickFix reports whether a request's "only" kinds admit quick fixes.
func wantsQuickFix(only []string) bool {
	if len(only) == 0 {
		return true
	}
	return slices.ContainsFunc(only, func(k string) bool { return k == "quickfix" || k == "" })
}

// overlaps reports whether two ranges share a position, their ends included (an empty range
// at a diagnostic's edge asks for its fixes).
func overlaps(a, b lspRange) bool {
	return !before(a.End, b.Start) && !before(b.End, a.Start)
}

func before(p, q position) bool {
	return p.Line < q.Line || p.Line == q.Line && p.Character < q.Character
}

// workspaceEdit converts a fix's edits, grouped by file and in order; false when an edit's
// span is not complete (no end, or no column), as it could not be applied safely.
// Versioned document changes tell the client to refuse the edit of a document changed since
// the check.
func (c *converter) workspaceEdit(edits []rules.Edit, versions map[string]int, docChanges bool) (*workspaceEdit, bool) {
	byFile := map[string][]textEdit{}
	for _, e := range edits {
		if !complete(e.Span) {
			return nil, false
		}
		name, r := c.rangeOf(e.Span)
		byFile[name] = append(byFile[name], textEdit{Range: r, NewText: e.Text})
	}
	names := make([]string, 0, len(byFile))
	for name, es := range byFile {
		names = append(names, name)
		sort.SliceStable(es, func(i, j int) bool { return before(es[i].Range.Start, es[j].Range.Start) })
	}
	sort.Strings(names)
	we := &workspaceEdit{}
	if !docChanges {
		we.Changes = map[string][]textEdit{}
	}
	for _, name := range names {
		if !docChanges {
			we.Changes[c.uri(name)] = byFile[name]
			continue
		}
		var version *int
		if v, ok := versions[name]; ok {
			version = &v
		}
		we.DocumentChanges = append(we.DocumentChanges, textDocumentEdit{TextDocument: optionalVersionedID{URI: c.uri(name), Version: version}, Edits: byFile[name]})
	}
	return we, true
}

// complete reports a span with a file, a start and an end, both with columns, in one file.
func complete(sp plan.Span) bool {
	return sp.Start.File != "" && sp.Start.IsValid() && sp.Start.Col > 0 && sp.End.IsValid() && sp.End.Col > 0 &&
		(sp.End.File == "" || sp.End.File == sp.Start.File)
}

package lsp

import (
	"encoding/json"
	"path"
	"sort"

	"github.com/bucketlint/bucketlint/internal/readcap"
	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/report"
	"github.com/bucketlint/bucketlint/rules"
)

// publish sends the diagnostics of a check of p: for every file with findings, and an empty
// list for every file that had some and has none now. A file another project owns (an inner
// folder) is left to it, and a file whose diagnostics did not change is not sent again.
func (s *Server) publish(p *project, m *Model, texts map[string][]byte, versions map[string]int) {
	s.mu.Lock()
	c := s.converterLocked(p, texts)
	s.mu.Unlock()
	byFile := map[string][]diagnostic{}
	for _, d := range m.Findings {
		if d.Span.Start.File == "" {
			continue // a finding of no file: a setting given on the command line
		}
		name := c.name(d.Span.Start.File)
		byFile[name] = append(byFile[name], c.diagnostic(d))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.shutdown || s.projects[p.root] != p {
		return
	}
	names := make([]string, 0, len(byFile)+len(p.files))
	for name := range byFile {
		names = append(names, name)
	}
	for name := range p.files {
		if _, ok := byFile[name]; !ok {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	files := map[string]bool{}
	for _, name := range names {
		if owner := s.ownerLocked(name); owner != nil && owner != p {
			continue
		}
		var version *int
		if v, ok := versions[name]; ok {
			version = &v
		}
		s.publishLocked(name, byFile[name], version)
		if len(byFile[name]) > 0 {
			files[name] = true
		}
	}
	p.files = files
}

// publishLocked sends one file's diagnostics unless they are those last sent.
func (s *Server) publishLocked(name string, ds []diagnostic, version *int) {
	if ds == nil {
		ds = []diagnostic{}
	}
	uri := s.uriLocked(name)
	body, err := json.Marshal(ds)
	if err != nil {
		s.logf("diagnostics of %s: %v", name, err)
		return
	}
	if last, ok := s.published[uri]; ok && last == string(body) || !ok && len(ds) == 0 {
		return
	}
	s.notify("textDocument/publishDiagnostics", publishDiagnosticsParams{URI: uri, Version: version, Diagnostics: ds})
	if len(ds) == 0 {
		delete(s.published, uri)
	} else {
		s.published[uri] = string(body)
	}
}

// A converter turns bucketlint's positions (1-based lines, byte columns, file names as the
// check gives them) into the protocol's, reading each file's text once: an open document's
// text as the check read it, else the file on disk.
type converter struct {
	enc   encoding
	base  string            // the directory relative file names are under
	texts map[string][]byte // the open documents' texts the check read
	uris  map[string]string // open documents' URIs, as the client spells them
	cache map[string]*lines
}

func (s *Server) converterLocked(p *project, texts map[string][]byte) *converter {
	base := p.root
	if p.loose {
		base = path.Dir(p.root)
	}
	uris := map[string]string{}
	for name, d := range s.docs {
		uris[name] = d.uri
	}
	return &converter{enc: s.enc, base: base, texts: texts, uris: uris, cache: map[string]*lines{}}
}

// name is the file name of a position's file: relative names are under the project.
func (c *converter) name(file string) string {
	if path.IsAbs(file) || len(file) > 1 && file[1] == ':' {
		return cleanName(file)
	}
	return cleanName(path.Join(c.base, file))
}

func (c *converter) uri(name string) string {
	if u, ok := c.uris[name]; ok {
		return u
	}
	return fileURI(name)
}

// lines returns a file's line index; an unreadable file has no lines (positions clamp to
// its start).
func (c *converter) lines(name string) *lines {
	if l, ok := c.cache[name]; ok {
		return l
	}
	text, ok := c.texts[name]
	if !ok {
		text, _ = readcap.File(name, 0)
	}
	l := newLines(text)
	c.cache[name] = l
	return l
}

// rangeOf converts a span: its end is exclusive; a span without an end, or an end without a
// column, runs to the end of its line; a position without a column covers its line.
func (c *converter) rangeOf(sp plan.Span) (string, lspRange) {
	name := c.name(sp.Start.File)
	l := c.lines(name)
	if !sp.Start.IsValid() {
		return name, lspRange{}
	}
	r := lspRange{Start: l.position(sp.Start.Line, sp.Start.Col, c.enc)}
	switch {
	case sp.End.IsValid() && sp.End.Col > 0 && (sp.End.File == "" || sp.End.File == sp.Start.File):
		r.End = l.position(sp.End.Line, sp.End.Col, c.enc)
	case sp.End.IsValid() && (sp.End.File == "" || sp.End.File == sp.Start.File):
		r.End = l.lineEnd(sp.End.Line, c.enc)
	default:
		r.End = l.lineEnd(sp.Start.Line, c.enc)
	}
	if r.End.Line < r.Start.Line || r.End.Line == r.Start.Line && r.End.Character < r.Start.Character {
		r.End = r.Start
	}
	return name, r
}

// diagnostic converts a finding: its rule's code and documentation link, its related
// places, and the advice of a fix that has no edits (a fix with edits is a code action).
func (c *converter) diagnostic(d rules.Diagnostic) diagnostic {
	_, r := c.rangeOf(d.Span)
	out := diagnostic{Range: r, Severity: severity(d.Severity), Code: d.Rule, Source: "bucketlint", Message: d.Message}
	if d.Rule != "" && d.Name != "" {
		out.CodeDescription = &codeDescription{Href: report.RuleURL(d.Rule, d.Name)}
	}
	for _, rel := range d.Related {
		if rel.Span.Start.File == "" {
			continue
		}
		name, rr := c.rangeOf(rel.Span)
		out.RelatedInformation = append(out.RelatedInformation, relatedLocation{Location: location{URI: c.uri(name), Range: rr}, Message: rel.Message})
	}
	if d.Fix != nil && len(d.Fix.Edits) == 0 && d.Fix.Description != "" {
		out.Message += "\n" + d.Fix.Description
	}
	return out
}

// severity maps bucketlint's severities to the protocol's.
func severity(s rules.Severity) int {
	switch s {
	case rules.Error:
		return severityError
	case rules.Warning:
		return severityWarning
	}
	return severityInformation
}

package lsp

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
)

// A document is a file open in the editor: its text overlays the file on disk.
type document struct {
	uri     string // as the client spells it
	version int
	text    []byte
}

// errNotFile is a document that is not a file (untitled:, git:, …): not checked.
var errNotFile = errors.New("not a file: URI; not checked")

// onDocument handles a notification about one document: it decodes params, resolves the
// document's file name, and, with the server locked, applies the change and re-checks every
// project that reads the file.
func onDocument[P any](s *Server, params json.RawMessage, uri func(*P) string, apply func(name string, p *P) error) error {
	var p P
	if err := decode(params, &p); err != nil {
		return err
	}
	name, ok := uriPath(uri(&p))
	if !ok {
		return errNotFile
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := apply(name, &p); err != nil {
		return err
	}
	s.changedLocked(name)
	return nil
}

func (s *Server) didOpen(params json.RawMessage) error {
	return onDocument(s, params, func(p *didOpenParams) string { return p.TextDocument.URI },
		func(name string, p *didOpenParams) error {
			s.docs[name] = &document{uri: p.TextDocument.URI, version: p.TextDocument.Version, text: []byte(p.TextDocument.Text)}
			return nil
		})
}

func (s *Server) didChange(params json.RawMessage) error {
	return onDocument(s, params, func(p *didChangeParams) string { return p.TextDocument.URI },
		func(name string, p *didChangeParams) error {
			d := s.docs[name]
			if d == nil {
				return fmt.Errorf("%s is not open", p.TextDocument.URI)
			}
			for _, c := range p.ContentChanges {
				d.text = s.applyChange(d.text, c)
			}
			d.version = p.TextDocument.Version
			return nil
		})
}

// applyChange returns text with one content change applied: the whole text, or a range (an
// incremental change, though the server asked for full text, is applied all the same).
func (s *Server) applyChange(text []byte, c contentChange) []byte {
	if c.Range == nil {
		return []byte(c.Text)
	}
	li := newLines(text)
	start, end := li.offset(c.Range.Start, s.enc), li.offset(c.Range.End, s.enc)
	if end < start {
		start, end = end, start
	}
	return append(append(append([]byte(nil), text[:start]...), c.Text...), text[end:]...)
}

// didSave re-checks a saved file: files read from disk (the configuration, catalogs) may
// have changed too.
func (s *Server) didSave(params json.RawMessage) error {
	return onDocument(s, params, func(p *didSaveParams) string { return p.TextDocument.URI },
		func(name string, p *didSaveParams) error {
			if d := s.docs[name]; d != nil && p.Text != nil {
				d.text = []byte(*p.Text)
			}
			return nil
		})
}

func (s *Server) didClose(params json.RawMessage) error {
	return onDocument(s, params, func(p *didCloseParams) string { return p.TextDocument.URI },
		func(name string, _ *didCloseParams) error {
			delete(s.docs, name)
			return nil
		})
}

// didChangeWatched re-checks the folders of files changed on disk (a checkout, a generator).
func (s *Server) didChangeWatched(params json.RawMessage) error {
	var p didChangeWatchedFilesParams
	if err := decode(params, &p); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range p.Changes {
		if name, ok := uriPath(c.URI); ok {
			s.changedLocked(name)
		}
	}
	return nil
}

// changedLocked re-checks, after the debounce, every project that reads the file name.
func (s *Server) changedLocked(name string) {
	s.placeLocked(name)
	for _, p := range s.projects {
		if p.holds(name) {
			s.kickLocked(p)
		}
	}
}

// placeLocked gives an open document outside every folder a project of its own, and removes
// that project when the document closes or a folder now holds it.
func (s *Server) placeLocked(name string) {
	inFolder := s.ownerLocked(name) != nil
	loose := s.projects[name]
	if loose != nil && !loose.loose {
		return // a folder of that name
	}
	switch _, open := s.docs[name]; {
	case open && !inFolder && loose == nil:
		s.kickLocked(s.projectLocked(name, true))
	case (!open || inFolder) && loose != nil:
		s.removeLocked(loose)
	}
}

// uriPath returns the file name of a file: URI, slash-separated and cleaned ("c:/x/y.sql"
// for a Windows drive, "//host/share/y.sql" for a UNC path).
func uriPath(uri string) (string, bool) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" || u.Path == "" || u.Opaque != "" {
		return "", false
	}
	p := u.Path
	if len(p) >= 3 && p[0] == '/' && p[2] == ':' && isLetter(p[1]) {
		p = p[1:]
	}
	if u.Host != "" && u.Host != "localhost" {
		p = "//" + u.Host + p
	}
	return cleanName(p), true
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// cleanName is a file name as parser.Load spells it: cleaned, slash-separated.
func cleanName(p string) string { return filepath.ToSlash(filepath.Clean(filepath.FromSlash(p))) }

// fileURI is the file: URI of a file name.
func fileURI(name string) string {
	if strings.HasPrefix(name, "//") { // UNC
		host, rest, _ := strings.Cut(name[2:], "/")
		return (&url.URL{Scheme: "file", Host: host, Path: "/" + rest}).String()
	}
	if !strings.HasPrefix(name, "/") {
		name = "/" + name
	}
	return (&url.URL{Scheme: "file", Path: name}).String()
}

// uriLocked is the URI a file is published under: the client's own for an open document.
func (s *Server) uriLocked(name string) string {
	if d := s.docs[name]; d != nil {
		return d.uri
	}
	return fileURI(name)
}

// under reports whether name is dir or a file below it.
func under(name, dir string) bool {
	if name == dir {
		return true
	}
	return strings.HasPrefix(name, strings.TrimSuffix(dir, "/")+"/")
}

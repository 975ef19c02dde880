package lsp

import (
	"encoding/json"
	"slices"

	"github.com/bucketlint/bucketlint/internal/lsp/jsonrpc"
)

// initialize records the client's workspace folders and capabilities and says what the
// server does.
func (s *Server) initialize(params json.RawMessage) (any, *jsonrpc.Error) {
	var p initializeParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	var folders []string
	for _, f := range p.WorkspaceFolders {
		if dir, ok := uriPath(f.URI); ok {
			folders = append(folders, dir)
		}
	}
	if len(p.WorkspaceFolders) == 0 {
		switch {
		case p.RootURI != nil:
			if dir, ok := uriPath(*p.RootURI); ok {
				folders = append(folders, dir)
			}
		case p.RootPath != nil && *p.RootPath != "":
			folders = append(folders, cleanName(*p.RootPath))
		}
	}
	enc := encUTF16
	if slices.Contains(p.Capabilities.General.PositionEncodings, "utf-8") {
		enc = encUTF8
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.initialized = true
	s.enc = enc
	s.docChanges = p.Capabilities.Workspace.WorkspaceEdit.DocumentChanges
	s.markdown = len(p.Capabilities.TextDocument.Hover.ContentFormat) == 0 || slices.Contains(p.Capabilities.TextDocument.Hover.ContentFormat, "markdown")
	s.folders = uniqueFolders(folders)
	return &initializeResult{
		Capabilities: serverCapabilities{
			PositionEncoding: enc.String(),
			TextDocumentSync: textDocumentSyncOptions{OpenClose: true, Change: syncFull, Save: saveOptions{}},
			HoverProvider:    true,
			CodeActionProvider: codeActionOptions{
				CodeActionKinds: []string{"quickfix"},
			},
			Workspace: workspaceCapabilities{WorkspaceFolders: workspaceFoldersCapability{Supported: true, ChangeNotifications: true}},
		},
		ServerInfo: serverInfo{Name: "bucketlint", Version: s.opts.Version},
	}, nil
}

// uniqueFolders drops repeated folders.
func uniqueFolders(fs []string) []string {
	slices.Sort(fs)
	return slices.Compact(fs)
}

// startFolders checks every workspace folder once the client is ready.
func (s *Server) startFolders() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range s.folders {
		s.projectLocked(f, false)
	}
	for _, p := range s.projects {
		s.kickLocked(p)
	}
}

// stop answers shutdown: the checks stop, no more diagnostics are sent.
func (s *Server) stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.shutdown = true
	for _, p := range s.projects {
		p.cancel()
	}
}

// didChangeFolders adds and removes workspace folders; a removed folder's diagnostics are
// cleared.
func (s *Server) didChangeFolders(params json.RawMessage) error {
	var p didChangeWorkspaceFoldersParams
	if err := decode(params, &p); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range p.Event.Removed {
		dir, ok := uriPath(f.URI)
		if !ok {
			continue
		}
		s.folders = slices.DeleteFunc(s.folders, func(x string) bool { return x == dir })
		if pr := s.projects[dir]; pr != nil {
			s.removeLocked(pr)
		}
	}
	for _, f := range p.Event.Added {
		if dir, ok := uriPath(f.URI); ok && !slices.Contains(s.folders, dir) {
			s.folders = append(s.folders, dir)
			s.kickLocked(s.projectLocked(dir, false))
		}
	}
	slices.Sort(s.folders)
	// Loose documents now inside a folder belong to it; folders' documents now outside any
	// folder are checked on their own.
	for name := range s.docs {
		s.placeLocked(name)
	}
	return nil
}

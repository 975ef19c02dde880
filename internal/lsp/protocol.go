package lsp

import "encoding/json"

// The Language Server Protocol's types, as far as the server uses them (LSP 3.17). Field
// names follow the specification's JSON.

// position is a zero-based line and a character offset in the negotiated encoding (UTF-16
// code units unless the client offered UTF-8).
type position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

type lspRange struct {
	Start position `json:"start"`
	End   position `json:"end"`
}

type location struct {
	URI   string   `json:"uri"`
	Range lspRange `json:"range"`
}

// The diagnostic severities.
const (
	severityError       = 1
	severityWarning     = 2
	severityInformation = 3
)

type diagnostic struct {
	Range              lspRange          `json:"range"`
	Severity           int               `json:"severity"`
	Code               string            `json:"code,omitempty"`
	CodeDescription    *codeDescription  `json:"codeDescription,omitempty"`
	Source             string            `json:"source"`
	Message            string            `json:"message"`
	RelatedInformation []relatedLocation `json:"relatedInformation,omitempty"`
}

type codeDescription struct {
	Href string `json:"href"`
}

type relatedLocation struct {
	Location location `json:"location"`
	Message  string   `json:"message"`
}

type publishDiagnosticsParams struct {
	URI         string       `json:"uri"`
	Version     *int         `json:"version,omitempty"`
	Diagnostics []diagnostic `json:"diagnostics"`
}

type workspaceFolder struct {
	URI  string `json:"uri"`
	Name string `json:"name"`
}

type initializeParams struct {
	ProcessID        *int              `json:"processId"`
	RootURI          *string           `json:"rootUri"`
	RootPath         *string           `json:"rootPath"`
	WorkspaceFolders []workspaceFolder `json:"workspaceFolders"`
	Capabilities     struct {
		General struct {
			PositionEncodings []string `json:"positionEncodings"`
		} `json:"general"`
		Workspace struct {
			WorkspaceEdit struct {
				DocumentChanges bool `json:"documentChanges"`
			} `json:"workspaceEdit"`
		} `json:"workspace"`
		TextDocument struct {
			Hover struct {
				ContentFormat []string `json:"contentFormat"`
			} `json:"hover"`
		} `json:"textDocument"`
	} `json:"capabilities"`
}

type initializeResult struct {
	Capabilities serverCapabilities `json:"capabilities"`
	ServerInfo   serverInfo         `json:"serverInfo"`
}

type serverInfo struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

type serverCapabilities struct {
	PositionEncoding   string                  `json:"positionEncoding"`
	TextDocumentSync   textDocumentSyncOptions `json:"textDocumentSync"`
	HoverProvider      bool                    `json:"hoverProvider"`
	CodeActionProvider codeActionOptions       `json:"codeActionProvider"`
	Workspace          workspaceCapabilities   `json:"workspace"`
}

// The text document sync kinds: the server asks for the whole text on each change.
const syncFull = 1

type textDocumentSyncOptions struct {
	OpenClose bool        `json:"openClose"`
	Change    int         `json:"change"`
	Save      saveOptions `json:"save"`
}

type saveOptions struct {
	IncludeText bool `json:"includeText"`
}

type codeActionOptions struct {
	CodeActionKinds []string `json:"codeActionKinds"`
}

type workspaceCapabilities struct {
	WorkspaceFolders workspaceFoldersCapability `json:"workspaceFolders"`
}

type workspaceFoldersCapability struct {
	Supported           bool `json:"supported"`
	ChangeNotifications bool `json:"changeNotifications"`
}

type textDocumentItem struct {
	URI        string `json:"uri"`
	LanguageID string `json:"languageId"`
	Version    int    `json:"version"`
	Text       string `json:"text"`
}

type textDocumentIdentifier struct {
	URI string `json:"uri"`
}

type versionedTextDocumentIdentifier struct {
	URI     string `json:"uri"`
	Version int    `json:"version"`
}

type didOpenParams struct {
	TextDocument textDocumentItem `json:"textDocument"`
}

type didChangeParams struct {
	TextDocument   versionedTextDocumentIdentifier `json:"textDocument"`
	ContentChanges []contentChange                 `json:"contentChanges"`
}

// contentChange is one change; with full sync the last change's Text is the document (a
// change with a Range is an incremental one, which the server did not ask for and applies
// anyway).
type contentChange struct {
	Range *lspRange `json:"range"`
	Text  string    `json:"text"`
}

type didSaveParams struct {
	TextDocument textDocumentIdentifier `json:"textDocument"`
	Text         *string                `json:"text"`
}

type didCloseParams struct {
	TextDocument textDocumentIdentifier `json:"textDocument"`
}

type didChangeWorkspaceFoldersParams struct {
	Event struct {
		Added   []workspaceFolder `json:"added"`
		Removed []workspaceFolder `json:"removed"`
	} `json:"event"`
}

type didChangeWatchedFilesParams struct {
	Changes []struct {
		URI string `json:"uri"`
	} `json:"changes"`
}

type textDocumentPositionParams struct {
	TextDocument textDocumentIdentifier `json:"textDocument"`
	Position     position               `json:"position"`
}

type hoverResult struct {
	Contents markupContent `json:"contents"`
	Range    *lspRange     `json:"range,omitempty"`
}

type markupContent struct {
	Kind  string `json:"kind"`
	Value string `json:"value"`
}

type codeActionParams struct {
	TextDocument textDocumentIdentifier `json:"textDocument"`
	Range        lspRange               `json:"range"`
	Context      struct {
		Only []string `json:"only"`
	} `json:"context"`
}

type codeAction struct {
	Title       string         `json:"title"`
	Kind        string         `json:"kind"`
	Diagnostics []diagnostic   `json:"diagnostics,omitempty"`
	IsPreferred bool           `json:"isPreferred,omitempty"`
	Edit        *workspaceEdit `json:"edit,omitempty"`
}

// workspaceEdit carries either Changes (by URI) or DocumentChanges (versioned, when the
// client supports them).
type workspaceEdit struct {
	Changes         map[string][]textEdit `json:"changes,omitempty"`
	DocumentChanges []textDocumentEdit    `json:"documentChanges,omitempty"`
}

type textDocumentEdit struct {
	TextDocument optionalVersionedID `json:"textDocument"`
	Edits        []textEdit          `json:"edits"`
}

type optionalVersionedID struct {
	URI     string `json:"uri"`
	Version *int   `json:"version"`
}

type textEdit struct {
	Range   lspRange `json:"range"`
	NewText string   `json:"newText"`
}

type logMessageParams struct {
	Type    int    `json:"type"`
	Message string `json:"message"`
}

// The message types of window/logMessage and window/showMessage.
const (
	messageError = 1
	messageInfo  = 3
)

type cancelParams struct {
	ID json.RawMessage `json:"id"`
}

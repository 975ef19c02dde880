package lsp

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/bucketlint/bucketlint/internal/lsp/jsonrpc"
)

// TestLifecycle answers requests before initialize, unknown methods, malformed messages and
// requests after shutdown with the protocol's errors, and ends cleanly on exit.
func TestLifecycle(t *testing.T) {
	t.Parallel()
	c := start(t, Options{})
	if code := rpcCode(c.call("textDocument/hover", map[string]any{})); code != jsonrpc.CodeServerNotInitialized {
		t.Errorf("hover before initialize: code %d", code)
	}
	c.initialize(map[string]any{}, t.TempDir())
	if code := rpcCode(c.call("initialize", map[string]any{})); code != jsonrpc.CodeInvalidRequest {
		t.Errorf("second initialize: code %d", code)
	}
	if code := rpcCode(c.call("workspace/symbol", map[string]any{})); code != jsonrpc.CodeMethodNotFound {
		t.Errorf("unknown method: code %d", code)
	}
	if code := rpcCode(c.call("textDocument/hover", "not an object")); code != jsonrpc.CodeInvalidParams {
		t.Errorf("bad params: code %d", code)
	}
	for body, want := range map[string]int{
		`{"jsonrpc":"2.0","id":`:                  jsonrpc.CodeParseError,
		`[{"jsonrpc":"2.0","id":1,"method":"x"}]`: jsonrpc.CodeInvalidRequest,
		`{"jsonrpc":"1.0","id":77,"method":"x"}`:  jsonrpc.CodeInvalidRequest,
	} {
		if err := c.w.Write([]byte(body)); err != nil {
			t.Fatal(err)
		}
		c.until(func(m *jsonrpc.Message) bool { return m.Method == "" && rpcCode(m) == want }, "the error for "+body)
	}
	// Notifications the server does not know, or with broken parameters, are ignored.
	c.notify("$/setTrace", map[string]any{"value": "off"})
	c.notify("textDocument/didOpen", "broken")
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": "file:///nowhere/open.sql"}})
	if resp := c.call("shutdown", nil); resp.Error != nil {
		t.Fatal(resp.Error)
	}
	if code := rpcCode(c.call("textDocument/hover", map[string]any{})); code != jsonrpc.CodeInvalidRequest {
		t.Errorf("hover after shutdown: code %d", code)
	}
	c.notify("exit", nil)
	if err := <-c.served; err != nil {
		t.Errorf("Serve: %v", err)
	}
	c.served <- nil
}

// TestExitWithoutShutdown is ErrNoShutdown, whether the client sends exit or closes the
// stream.
func TestExitWithoutShutdown(t *testing.T) {
	t.Parallel()
	c := start(t, Options{})
	c.initialize(map[string]any{}, t.TempDir())
	c.notify("exit", nil)
	if err := <-c.served; !errors.Is(err, ErrNoShutdown) {
		t.Errorf("Serve: %v, want ErrNoShutdown", err)
	}
	c.served <- nil

	c = start(t, Options{MaxMessageBytes: 64})
	// A message above the limit is skipped; the session goes on.
	if err := c.w.Write([]byte(`{"jsonrpc":"2.0","method":"x","params":"` + strings.Repeat("x", 100) + `"}`)); err != nil {
		t.Fatal(err)
	}
	if code := rpcCode(c.call("shutdown", nil)); code != jsonrpc.CodeServerNotInitialized {
		t.Errorf("shutdown before initialize: code %d", code)
	}
}

// TestLooseDocument checks a document outside every folder on its own and clears its
// diagnostics when it closes; a document that is not a file is not checked.
func TestLooseDocument(t *testing.T) {
	t.Parallel()
	c := start(t, Options{})
	c.initialize(map[string]any{}, t.TempDir())
	loose := uriOf(t.TempDir(), "scratch.sql")
	c.notify("textDocument/didOpen", didOpenParams{TextDocument: textDocumentItem{URI: loose, LanguageID: "sql", Version: 1, Text: "CREATE TABLE t (id INT) USING parquet CLUSTERED BY (id) INTO 0 BUCKETS;\n"}})
	ds := c.waitDiagnostics(loose, "BL103 on the loose file", func(ds []diagnostic) bool { return strings.Contains(codes(ds), "BL103") })
	if ds[0].Severity != severityError {
		t.Errorf("BL103 severity %d", ds[0].Severity)
	}
	c.notify("textDocument/didOpen", didOpenParams{TextDocument: textDocumentItem{URI: "untitled:Untitled-1", LanguageID: "sql", Version: 1, Text: "SELECT 1"}})
	c.notify("textDocument/didClose", didCloseParams{TextDocument: textDocumentIdentifier{URI: loose}})
	c.waitDiagnostics(loose, "the loose file's diagnostics cleared", func(ds []diagnostic) bool { return len(ds) == 0 })
	c.shutdown()
}

// TestFolders adds a folder after initialize (its findings appear) and removes it (they are
// cleared).
func TestFolders(t *testing.T) {
	t.Parallel()
	c := start(t, Options{})
	c.initialize(map[string]any{})
	dir := workspace(t, "16")
	job := uriOf(dir, "jobs/report.sql")
	folder := workspaceFolder{URI: fileURI(cleanName(dir)), Name: "ws"}
	c.notify("workspace/didChangeWorkspaceFolders", map[string]any{"event": map[string]any{"added": []workspaceFolder{folder}, "removed": []workspaceFolder{}}})
	c.waitDiagnostics(job, "BL301 in the added folder", func(ds []diagnostic) bool { return strings.Contains(codes(ds), "BL301") })
	c.notify("workspace/didChangeWorkspaceFolders", map[string]any{"event": map[string]any{"added": []workspaceFolder{}, "removed": []workspaceFolder{folder}}})
	c.waitDiagnostics(job, "the removed folder's diagnostics cleared", func(ds []diagnostic) bool { return len(ds) == 0 })
	c.shutdown()
}

// TestDebounce re-checks once for a burst of changes.
func TestDebounce(t *testing.T) {
	t.Parallel()
	dir := workspace(t, "8")
	checks := make(chan struct{}, 100)
	c := start(t, Options{Debounce: time.Second, Check: func(ctx context.Context, root string, overlay map[string][]byte) (*Model, error) {
		checks <- struct{}{}
		return testCheck(ctx, root, overlay)
	}})
	c.initialize(map[string]any{}, dir)
	ddl := uriOf(dir, "ddl/customers.sql")
	c.notify("textDocument/didOpen", didOpenParams{TextDocument: textDocumentItem{URI: ddl, LanguageID: "sql", Version: 1, Text: customersDDL("8")}})
	for v := 2; v < 12; v++ {
		c.notify("textDocument/didChange", map[string]any{
			"textDocument":   versionedTextDocumentIdentifier{URI: ddl, Version: v},
			"contentChanges": []contentChange{{Text: customersDDL("16")}},
		})
	}
	c.waitDiagnostics(uriOf(dir, "jobs/report.sql"), "BL301", func(ds []diagnostic) bool { return strings.Contains(codes(ds), "BL301") })
	c.shutdown()
	// One check for the folder and the burst when they come within the debounce, two when a
	// loaded machine delays the burst.
	if n := len(checks); n > 2 {
		t.Errorf("%d checks for the initial check and a burst of 11 changes, want at most 2", n)
	}
}

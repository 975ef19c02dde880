package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bucketlint/bucketlint/internal/lsp/jsonrpc"
	"github.com/bucketlint/bucketlint/parser"
	"github.com/bucketlint/bucketlint/rules"
	"github.com/bucketlint/bucketlint/workload"
)

// A client is a scripted Language Server client talking to a Server over pipes. It keeps
// the last diagnostics published for each URI.
type client struct {
	t      *testing.T
	w      *jsonrpc.Writer
	msgs   chan *jsonrpc.Message
	served chan error
	nextID int
	diags  map[string][]diagnostic
	// notes are the notifications other than diagnostics, in order.
	notes []*jsonrpc.Message
}

// testCheck is the pipeline check runs, without a configuration: the folder loaded with the
// overlay, resolved, every rule run, the inputs' errors as BL901.
func testCheck(ctx context.Context, root string, overlay map[string][]byte) (*Model, error) {
	proj, errs := parser.Load(ctx, []string{root}, parser.LoadOptions{Overlay: overlay})
	w, err := workload.New(proj, workload.Config{})
	if err != nil {
		return nil, err
	}
	catalogue := rules.All()
	ds := rules.Run(w, catalogue)
	for _, e := range errs {
		if d, ok := rules.InputError(catalogue, e.Pos, e.Msg); ok {
			ds = append(ds, d)
		}
	}
	return &Model{Workload: w, Findings: ds}, nil
}

// start runs a server with opts (testCheck and a short debounce unless set) and returns a
// client connected to it; the test's end closes the pipes and waits for the server.
func start(t *testing.T, opts Options) *client {
	t.Helper()
	if opts.Check == nil {
		opts.Check = testCheck
	}
	if opts.Debounce == 0 {
		opts.Debounce = 20 * time.Millisecond
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &client{t: t, w: jsonrpc.NewWriter(inW), msgs: make(chan *jsonrpc.Message, 100), served: make(chan error, 1), diags: map[string][]diagnostic{}}
	srv := New(opts)
	go func() {
		c.served <- srv.Serve(t.Context(), inR, outW)
		outW.Close()
	}()
	go func() {
		defer close(c.msgs)
		r := jsonrpc.NewReader(outR, 0)
		for {
			body, err := r.Read()
			if err != nil {
				return
			}
			m, rpcErr := jsonrpc.Decode(body)
			if rpcErr != nil {
				t.Errorf("server sent %s: %v", body, rpcErr)
				return
			}
			c.msgs <- m
		}
	}()
	t.Cleanup(func() {
		inW.Close()
		select {
		case err := <-c.served:
			_ = err // the tests that care have read it already and put back nil
		case <-time.After(10 * time.Second):
			t.Error("the server did not stop")
		}
		for range c.msgs {
			// drained: the reader stops when the server's output closes
		}
	})
	return c
}

// send writes one message.
func (c *client) send(m any) {
	c.t.Helper()
	body, err := json.Marshal(m)
	if err != nil {
		c.t.Fatal(err)
	}
	if err := c.w.Write(body); err != nil {
		c.t.Fatal(err)
	}
}

// notify sends a notification.
func (c *client) notify(method string, params any) {
	c.t.Helper()
	c.send(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// call sends a request and returns its response, recording what the server sends meanwhile.
func (c *client) call(method string, params any) *jsonrpc.Message {
	c.t.Helper()
	c.nextID++
	id := c.nextID
	c.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	want := fmt.Sprint(id)
	var resp *jsonrpc.Message
	c.until(func(m *jsonrpc.Message) bool {
		if m.Method == "" && string(m.ID) == want {
			resp = m
			return true
		}
		return false
	}, "the response to "+method)
	return resp
}

// result calls and decodes a successful response's result into v.
func (c *client) result(method string, params, v any) {
	c.t.Helper()
	resp := c.call(method, params)
	if resp.Error != nil {
		c.t.Fatalf("%s: %v", method, resp.Error)
	}
	if err := json.Unmarshal(resp.Result, v); err != nil {
		c.t.Fatalf("%s: %v in %s", method, err, resp.Result)
	}
}

// until reads messages until done accepts one, failing the test after a timeout.
func (c *client) until(done func(*jsonrpc.Message) bool, what string) {
	c.t.Helper()
	timeout := time.After(20 * time.Second)
	for {
		select {
		case m, ok := <-c.msgs:
			if !ok {
				c.t.Fatalf("the server closed its output waiting for %s", what)
			}
			if m.Method == "textDocument/publishDiagnostics" {
				var p publishDiagnosticsParams
				if err := json.Unmarshal(m.Params, &p); err != nil {
					c.t.Fatal(err)
				}
				c.diags[p.URI] = p.Diagnostics
			} else if m.Method != "" {
				c.notes = append(c.notes, m)
			}
			if done(m) {
				return
			}
		case <-timeout:
			c.t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// waitDiagnostics reads until the diagnostics of uri satisfy ok.
func (c *client) waitDiagnostics(uri string, what string, ok func([]diagnostic) bool) []diagnostic {
	c.t.Helper()
	if ds, seen := c.diags[uri]; seen && ok(ds) {
		return ds
	}
	c.until(func(m *jsonrpc.Message) bool {
		if m.Method != "textDocument/publishDiagnostics" {
			return false
		}
		ds, seen := c.diags[uri]
		return seen && ok(ds)
	}, what)
	return c.diags[uri]
}

// initialize opens the session on folders with capabilities.
func (c *client) initialize(capabilities map[string]any, folders ...string) {
	c.t.Helper()
	var fs []workspaceFolder
	for _, f := range folders {
		fs = append(fs, workspaceFolder{URI: fileURI(cleanName(f)), Name: filepath.Base(f)})
	}
	var res initializeResult
	c.result("initialize", map[string]any{"processId": nil, "rootUri": nil, "workspaceFolders": fs, "capabilities": capabilities}, &res)
	if !res.Capabilities.HoverProvider || res.Capabilities.TextDocumentSync.Change != syncFull {
		c.t.Fatalf("capabilities %+v", res.Capabilities)
	}
	c.notify("initialized", map[string]any{})
}

// shutdown ends the session as a client does and checks that the server stops cleanly.
func (c *client) shutdown() {
	c.t.Helper()
	if resp := c.call("shutdown", nil); resp.Error != nil || string(resp.Result) != "null" {
		c.t.Fatalf("shutdown: %s %v", resp.Result, resp.Error)
	}
	c.notify("exit", nil)
	select {
	case err := <-c.served:
		if err != nil {
			c.t.Fatalf("Serve after shutdown and exit: %v", err)
		}
		c.served <- nil
	case <-time.After(10 * time.Second):
		c.t.Fatal("the server did not exit")
	}
}

// writeFiles writes a workspace: file name to text.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// uriOf is the URI of a workspace file.
func uriOf(dir, name string) string {
	return fileURI(cleanName(filepath.Join(dir, filepath.FromSlash(name))))
}

// codes lists diagnostics' codes.
func codes(ds []diagnostic) string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Code)
	}
	return strings.Join(out, ",")
}

// rpcCode is a response's error code, 0 for success.
func rpcCode(m *jsonrpc.Message) int {
	var e *jsonrpc.Error
	if m.Error != nil && errors.As(m.Error, &e) {
		return e.Code
	}
	return 0
}

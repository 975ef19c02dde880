package lsp

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"testing"
	"time"
)

// frame frames bodies as the protocol does.
func frame(bodies ...string) []byte {
	var b bytes.Buffer
	for _, body := range bodies {
		fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n%s", len(body), body)
	}
	return b.Bytes()
}

// FuzzServe feeds a session arbitrary bytes after a valid initialize: the server never
// panics and always returns once the input ends.
func FuzzServe(f *testing.F) {
	open := `{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///ws/a.sql","languageId":"sql","version":1,"text":"SELECT 1"}}}`
	f.Add(frame(open, `{"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///ws/a.sql"},"position":{"line":0,"character":3}}}`))
	f.Add(frame(open, `{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///ws/a.sql","version":2},"contentChanges":[{"range":{"start":{"line":0,"character":9},"end":{"line":-1,"character":2}},"text":"é"}]}}`))
	f.Add(frame(`{"jsonrpc":"2.0","id":3,"method":"textDocument/codeAction","params":{"textDocument":{"uri":"file:///ws/a.sql"},"range":{},"context":{"only":[""]}}}`, `{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":3}}`))
	f.Add(frame(`{"jsonrpc":"2.0","method":"workspace/didChangeWorkspaceFolders","params":{"event":{"added":[{"uri":"file:///ws/sub"}],"removed":[{"uri":"file:///ws"}]}}}`, `{"jsonrpc":"2.0","id":4,"method":"shutdown"}`, `{"jsonrpc":"2.0","method":"exit"}`))
	f.Add([]byte("Content-Length: 5\r\n\r\n[1,2]Content-Length: 2\r\n\r\n{}"))
	stub := func(context.Context, string, map[string][]byte) (*Model, error) { return &Model{}, nil }
	init := frame(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"file:///ws","capabilities":{}}}`, `{"jsonrpc":"2.0","method":"initialized","params":{}}`)
	f.Fuzz(func(t *testing.T, stream []byte) {
		in := io.MultiReader(bytes.NewReader(init), bytes.NewReader(stream))
		done := make(chan struct{})
		go func() {
			defer close(done)
			_ = New(Options{Check: stub, Debounce: time.Millisecond, MaxMessageBytes: 1 << 16}).Serve(t.Context(), in, io.Discard)
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatal("Serve did not return after its input ended")
		}
	})
}

package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/bucketlint/bucketlint/internal/lsp/jsonrpc"
	"github.com/bucketlint/bucketlint/rules"
	"github.com/bucketlint/bucketlint/workload"
)

// A CheckFunc checks the project at root (a directory, walked, or a single file) as
// `bucketlint check` would, reading overlay's texts instead of the files of the same names
// (names as parser.Load gives them: cleaned and slash-separated).
type CheckFunc func(ctx context.Context, root string, overlay map[string][]byte) (*Model, error)

// A Model is one check of a project.
type Model struct {
	// Workload is the project as resolved; hover reads tables and join sites from it.
	Workload *workload.Workload
	// Findings are the findings check would report (configuration, inline ignores and
	// enable/disable applied), positions naming files as the workload does.
	Findings []rules.Diagnostic
}

// Options configure a Server.
type Options struct {
	// Check builds a project's model; required.
	Check CheckFunc
	// Debounce is how long the server waits after a change for the next one before it
	// re-checks; 0 means DefaultDebounce.
	Debounce time.Duration
	// MaxMessageBytes bounds a message from the client; 0 means jsonrpc.DefaultMaxBody.
	MaxMessageBytes int64
	// Version is the server's version, reported to the client.
	Version string
	// Log, when not nil, receives a line per re-check (folder, findings, time taken) and per
	// failure; the command passes standard error.
	Log io.Writer
}

// DefaultDebounce is the pause after a change before a re-check.
const DefaultDebounce = 200 * time.Millisecond

// ErrNoShutdown is Serve's error when the client exits, or the input ends, before a
// shutdown request: the protocol asks the server to exit with status 1 then.
var ErrNoShutdown = errors.New("lsp: exit without shutdown")

// A Server is one session of the protocol. Create it with New and run it with Serve.
type Server struct {
	opts Options
	out  *jsonrpc.Writer

	mu          sync.Mutex
	initialized bool
	shutdown    bool
	enc         encoding
	docChanges  bool // the client applies versioned documentChanges edits
	markdown    bool // the client renders Markdown hovers
	gen         uint64
	docs        map[string]*document // open documents by file name
	folders     []string             // workspace folders' directories, as file names
	projects    map[string]*project  // by root
	published   map[string]string    // by URI: the diagnostics last sent, as JSON
	inflight    map[string]context.CancelFunc
	workers     sync.WaitGroup
	ctx         context.Context // Serve's context: workers and requests stop with it
}

// New returns a server with opts.
func New(opts Options) *Server {
	if opts.Debounce <= 0 {
		opts.Debounce = DefaultDebounce
	}
	return &Server{
		opts:      opts,
		docs:      map[string]*document{},
		projects:  map[string]*project{},
		published: map[string]string{},
		inflight:  map[string]context.CancelFunc{},
	}
}

// Serve reads messages from in and writes messages to out until the client sends exit, in
// ends or ctx is done. It returns nil after a shutdown request and exit, ErrNoShutdown when
// the client exits or the input ends without one, ctx's error when ctx ends it, and the
// error that stopped the stream (a malformed header, a failed write) otherwise. Nothing the
// client sends makes it panic: a handler's panic is answered as an internal error.
func (s *Server) Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	ctx, cancel := context.WithCancel(ctx)
	defer func() {
		cancel()
		s.workers.Wait()
	}()
	s.mu.Lock()
	s.ctx = ctx
	s.mu.Unlock()
	s.out = jsonrpc.NewWriter(out)
	type read struct {
		body []byte
		err  error
	}
	msgs := make(chan read)
	r := jsonrpc.NewReader(in, s.opts.MaxMessageBytes)
	go func() {
		for {
			body, err := r.Read()
			select {
			case msgs <- read{body, err}:
			case <-ctx.Done():
				return
			}
			var tl *jsonrpc.TooLargeError
			if err != nil && !errors.As(err, &tl) {
				return
			}
		}
	}()
	for {
		var m read
		select {
		case <-ctx.Done():
			return ctx.Err()
		case m = <-msgs:
		}
		var tl *jsonrpc.TooLargeError
		switch {
		case errors.As(m.err, &tl):
			s.logf("%v", m.err)
			continue
		case errors.Is(m.err, io.EOF):
			return s.exitError()
		case m.err != nil:
			return m.err
		}
		if exit := s.dispatch(m.body); exit {
			return s.exitError()
		}
	}
}

// exitError is Serve's result when the session ends.
func (s *Server) exitError() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.shutdown {
		return nil
	}
	return ErrNoShutdown
}

// dispatch handles one message and reports whether it was exit.
func (s *Server) dispatch(body []byte) (exit bool) {
	m, rpcErr := jsonrpc.Decode(body)
	if rpcErr != nil {
		var id json.RawMessage
		if m != nil {
			id = m.ID
		}
		s.reply(id, nil, rpcErr)
		return false
	}
	switch {
	case m.Method == "exit":
		return true
	case m.IsRequest():
		s.request(m)
	case m.IsNotification():
		s.notification(m)
	}
	return false // a response: the server sends no requests, so none is awaited
}

// request answers a request, at once or from a goroutine for the ones that wait for a model.
func (s *Server) request(m *jsonrpc.Message) {
	s.mu.Lock()
	initialized, shutdown := s.initialized, s.shutdown
	s.mu.Unlock()
	switch {
	case m.Method == "initialize" && initialized:
		s.reply(m.ID, nil, jsonrpc.Errorf(jsonrpc.CodeInvalidRequest, "initialize sent twice"))
		return
	case m.Method == "initialize":
		res, err := s.initialize(m.Params)
		s.reply(m.ID, res, err)
		return
	case !initialized:
		s.reply(m.ID, nil, jsonrpc.Errorf(jsonrpc.CodeServerNotInitialized, "%s before initialize", m.Method))
		return
	case shutdown:
		s.reply(m.ID, nil, jsonrpc.Errorf(jsonrpc.CodeInvalidRequest, "%s after shutdown", m.Method))
		return
	}
	switch m.Method {
	case "shutdown":
		s.stop()
		s.reply(m.ID, nil, nil)
	case "textDocument/hover":
		s.async(m, s.hover)
	case "textDocument/codeAction":
		s.async(m, s.codeActions)
	default:
		s.reply(m.ID, nil, jsonrpc.Errorf(jsonrpc.CodeMethodNotFound, "method %q is not supported", m.Method))
	}
}

// A handler answers a request from its parameters.
type handler func(ctx context.Context, params json.RawMessage) (any, *jsonrpc.Error)

// async runs a request's handler in a goroutine that $/cancelRequest can cancel.
func (s *Server) async(m *jsonrpc.Message, h handler) {
	s.mu.Lock()
	ctx, cancel := context.WithCancel(s.ctx)
	key := string(m.ID)
	s.inflight[key] = cancel
	s.mu.Unlock()
	s.workers.Go(func() {
		defer func() {
			s.mu.Lock()
			delete(s.inflight, key)
			s.mu.Unlock()
			cancel()
		}()
		res, rpcErr := s.safely(ctx, m, h)
		if ctx.Err() != nil && rpcErr == nil && res == nil {
			rpcErr = jsonrpc.Errorf(jsonrpc.CodeRequestCancelled, "%s cancelled", m.Method)
		}
		s.reply(m.ID, res, rpcErr)
	})
}

// safely runs h, turning a panic into an internal error.
func (s *Server) safely(ctx context.Context, m *jsonrpc.Message, h handler) (res any, rpcErr *jsonrpc.Error) {
	defer func() {
		if p := recover(); p != nil {
			res, rpcErr = nil, jsonrpc.Errorf(jsonrpc.CodeInternalError, "internal error in %s: %v", m.Method, p)
		}
	}()
	return h(ctx, m.Params)
}

// notification handles a notification; one it does not know is ignored, as the protocol
// asks.
func (s *Server) notification(m *jsonrpc.Message) {
	defer func() {
		if p := recover(); p != nil {
			s.logf("internal error in %s: %v", m.Method, p)
		}
	}()
	s.mu.Lock()
	ready := s.initialized && !s.shutdown
	s.mu.Unlock()
	if m.Method == "$/cancelRequest" {
		var p cancelParams
		if json.Unmarshal(m.Params, &p) == nil {
			s.mu.Lock()
			if cancel := s.inflight[string(p.ID)]; cancel != nil {
				cancel()
			}
			s.mu.Unlock()
		}
		return
	}
	if !ready {
		return
	}
	var err error
	switch m.Method {
	case "initialized":
		s.startFolders()
	case "textDocument/didOpen":
		err = s.didOpen(m.Params)
	case "textDocument/didChange":
		err = s.didChange(m.Params)
	case "textDocument/didSave":
		err = s.didSave(m.Params)
	case "textDocument/didClose":
		err = s.didClose(m.Params)
	case "workspace/didChangeWorkspaceFolders":
		err = s.didChangeFolders(m.Params)
	case "workspace/didChangeWatchedFiles":
		err = s.didChangeWatched(m.Params)
	}
	if err != nil {
		s.logf("%s: %v", m.Method, err)
	}
}

// reply sends a response.
func (s *Server) reply(id json.RawMessage, result any, rpcErr *jsonrpc.Error) {
	body, err := jsonrpc.Response(id, result, rpcErr)
	if err != nil {
		body, _ = jsonrpc.Response(id, nil, jsonrpc.Errorf(jsonrpc.CodeInternalError, "%v", err))
	}
	if err := s.out.Write(body); err != nil {
		s.logf("writing a response: %v", err)
	}
}

// notify sends a notification.
func (s *Server) notify(method string, params any) {
	body, err := jsonrpc.Notification(method, params)
	if err == nil {
		err = s.out.Write(body)
	}
	if err != nil {
		s.logf("sending %s: %v", method, err)
	}
}

// logf writes a line to the log.
func (s *Server) logf(format string, args ...any) {
	if s.opts.Log != nil {
		fmt.Fprintf(s.opts.Log, "bucketlint lsp: "+format+"\n", args...)
	}
}

// showError shows a failure to the user (a configuration the check cannot read).
func (s *Server) showError(msg string) {
	s.logf("%s", msg)
	s.notify("window/showMessage", logMessageParams{Type: messageError, Message: "bucketlint: " + msg})
}

// decode reads a notification's or request's parameters.
func decode(params json.RawMessage, v any) *jsonrpc.Error {
	if len(params) == 0 {
		return jsonrpc.Errorf(jsonrpc.CodeInvalidParams, "no parameters")
	}
	if err := json.Unmarshal(params, v); err != nil {
		return jsonrpc.Errorf(jsonrpc.CodeInvalidParams, "%v", err)
	}
	return nil
}

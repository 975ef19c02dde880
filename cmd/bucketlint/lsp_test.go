package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bucketlint/bucketlint/internal/lsp/jsonrpc"
)

// lspChildEnv, when set, makes TestLSPBinary the language server process it talks to.
const lspChildEnv = "BUCKETLINT_LSP_CHILD"

// lspWorkspace writes a folder whose job joins tables of 8 and 16 buckets declared in
// another file, with a configuration that raises BL301 to an error and turns BL403 off.
func lspWorkspace(t *testing.T) (dir, job string) {
	t.Helper()
	dir = t.TempDir()
	for name, text := range map[string]string{
		".bucketlint.yaml": "rules: [-BL403]\nseverity:\n  BL301: error\n",
		"ddl/tables.sql":   "CREATE TABLE orders (id INT) USING parquet CLUSTERED BY (id) INTO 8 BUCKETS;\nCREATE TABLE customers (id INT) USING parquet CLUSTERED BY (id) INTO 16 BUCKETS;\n",
		"jobs/report.sql":  "SELECT * FROM orders o JOIN customers c ON o.id = c.id;\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(dir, "jobs", "report.sql"))}).String()
}

// lspSession speaks the protocol to a server over in and out: initialize on dir, wait for
// the job's diagnostics, shutdown and exit. It returns the diagnostics' codes and
// severities ("BL301/1").
func lspSession(t *testing.T, in io.Writer, out io.Reader, dir, job string) []string {
	t.Helper()
	w, r := jsonrpc.NewWriter(in), jsonrpc.NewReader(out, 0)
	send := func(v map[string]any) {
		v["jsonrpc"] = "2.0"
		b, _ := json.Marshal(v)
		if err := w.Write(b); err != nil {
			t.Fatal(err)
		}
	}
	next := func() *jsonrpc.Message {
		body, err := r.Read()
		if err != nil {
			t.Fatalf("reading from the server: %v", err)
		}
		m, rpcErr := jsonrpc.Decode(body)
		if rpcErr != nil {
			t.Fatalf("the server sent %s: %v", body, rpcErr)
		}
		return m
	}
	folder := (&url.URL{Scheme: "file", Path: filepath.ToSlash(dir)}).String()
	send(map[string]any{"id": 1, "method": "initialize", "params": map[string]any{"processId": nil, "rootUri": folder, "capabilities": map[string]any{}}})
	if m := next(); string(m.ID) != "1" || m.Error != nil || !strings.Contains(string(m.Result), `"hoverProvider":true`) {
		t.Fatalf("initialize: %s %v", m.Result, m.Error)
	}
	send(map[string]any{"method": "initialized", "params": map[string]any{}})
	var got []string
	for got == nil {
		m := next()
		var p struct {
			URI         string `json:"uri"`
			Diagnostics []struct {
				Code     string `json:"code"`
				Severity int    `json:"severity"`
			} `json:"diagnostics"`
		}
		if m.Method != "textDocument/publishDiagnostics" || json.Unmarshal(m.Params, &p) != nil || p.URI != job {
			continue
		}
		got = []string{}
		for _, d := range p.Diagnostics {
			got = append(got, fmt.Sprintf("%s/%d", d.Code, d.Severity))
		}
	}
	send(map[string]any{"id": 2, "method": "shutdown"})
	for done := false; !done; {
		done = string(next().ID) == "2" // diagnostics may come before the response
	}
	send(map[string]any{"method": "exit"})
	return got
}

// TestLSPCommand runs `bucketlint lsp` in-process over pipes: the workspace's configuration
// applies (BL301 raised to an error, BL403 off) and the command ends with status 0 after
// shutdown and exit.
func TestLSPCommand(t *testing.T) {
	t.Parallel()
	dir, job := lspWorkspace(t)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr bytes.Buffer
	code := make(chan int, 1)
	go func() {
		code <- runStreams(context.Background(), []string{"lsp", "--debounce", "10ms"}, &streams{in: inR, out: outW, err: &stderr})
		outW.Close()
	}()
	got := lspSession(t, inW, outR, dir, job)
	if strings.Join(got, " ") != "BL301/1" {
		t.Errorf("diagnostics %v, want BL301 as an error (1) and no BL403", got)
	}
	select {
	case c := <-code:
		if c != exitOK {
			t.Errorf("exit code %d, want 0; stderr:\n%s", c, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("bucketlint lsp did not exit")
	}
}

// TestLSPNoShutdown ends with status 1 when the client closes the stream without shutdown,
// as the protocol asks.
func TestLSPNoShutdown(t *testing.T) {
	t.Parallel()
	var stderr bytes.Buffer
	got := runStreams(context.Background(), []string{"lsp"}, &streams{in: strings.NewReader(""), out: io.Discard, err: &stderr})
	if got != exitFindings || !strings.Contains(stderr.String(), "exit without shutdown") {
		t.Errorf("exit code %d, stderr %q; want 1 and the reason", got, stderr.String())
	}
	if got := runStreams(context.Background(), []string{"lsp", "x"}, &streams{in: strings.NewReader(""), out: io.Discard, err: &stderr}); got != exitUsage {
		t.Errorf("lsp with an argument: exit code %d, want 2", got)
	}
}

// TestLSPBinary runs the language server as a process on its standard input and output, as
// an editor starts it.
func TestLSPBinary(t *testing.T) {
	if os.Getenv(lspChildEnv) != "" {
		os.Exit(run([]string{"lsp", "--debounce", "10ms"}, os.Stdin, os.Stdout, os.Stderr)) //nolint:forbidigo // the child process runs as the binary does
	}
	t.Parallel()
	dir, job := lspWorkspace(t)
	cmd := exec.Command(os.Args[0], "-test.run=^TestLSPBinary$")
	cmd.Env = append(os.Environ(), lspChildEnv+"=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	got := lspSession(t, in, out, dir, job)
	if strings.Join(got, " ") != "BL301/1" {
		t.Errorf("diagnostics %v, want BL301 as an error", got)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("the server process: %v; stderr:\n%s", err, stderr.String())
		}
	case <-time.After(20 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("the server process did not exit; stderr:\n%s", stderr.String())
	}
}

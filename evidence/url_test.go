package evidence

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadURL serves two recorded logs as a History Server's REST API does (the application
// list, and each application's /logs as a zip of its files: one file, or a rolled log's
// directory) and reads them through the URL: the same costs as from the files.
func TestReadURL(t *testing.T) {
	logs := map[string]string{ // application id -> its log as recorded
		"local-1796182766197": "../fixtures/eventlog/3.5/zstd/local-1796182766197.zstd",
		"local-1796183270405": "../fixtures/eventlog/4.3/rolled/eventlog_v2_local-1796183270405",
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/api/v1/applications", func(w http.ResponseWriter, _ *http.Request) {
		var apps []map[string]any
		for id := range logs {
			apps = append(apps, map[string]any{"id": id, "attempts": []map[string]any{{"completed": true}}})
		}
		_ = json.NewEncoder(w).Encode(apps)
	})
	mux.HandleFunc("/api/v1/applications/{id}/logs", func(w http.ResponseWriter, r *http.Request) {
		p, ok := logs[r.PathValue("id")]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/octet-stream")
		_, _ = w.Write(zipOf(t, p))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	got, err := Read(t.Context(), srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	want := &Evidence{}
	for _, p := range logs {
		ev, err := Read(t.Context(), p)
		if err != nil {
			t.Fatal(err)
		}
		want.Merge(ev)
	}
	if got.Apps != 2 || got.Logs != 2 || got.Executions != want.Executions {
		t.Errorf("read %d logs, %d apps, %d executions; want 2, 2, %d", got.Logs, got.Apps, got.Executions, want.Executions)
	}
	g, w := got.Costs(), want.Costs()
	if len(g) != len(w) || len(g) == 0 {
		t.Fatalf("%d costs, want %d", len(g), len(w))
	}
	for i := range g {
		if g[i].Key() != w[i].Key() || g[i].Bytes != w[i].Bytes || g[i].Runs != w[i].Runs || g[i].Apps != w[i].Apps {
			t.Errorf("cost %d: %+v, want %+v", i, g[i], w[i])
		}
		if !strings.HasPrefix(g[i].Example.File, srv.URL+"/api/v1/applications/") {
			t.Errorf("position %q not under the server's URL", g[i].Example.File)
		}
	}
	if _, err := Read(t.Context(), srv.URL+"/nothing/api/v1"); err == nil {
		t.Error("a URL without the API is no error")
	}
}

// zipOf zips a log as the History Server's /logs does: a file under its name, a rolled log's
// files under its directory's name.
func zipOf(t *testing.T, p string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	add := func(name, file string) {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = w.Write(b)
	}
	if fi, err := os.Stat(p); err == nil && fi.IsDir() {
		entries, _ := os.ReadDir(p)
		for _, e := range entries {
			add(filepath.Base(p)+"/"+e.Name(), filepath.Join(p, e.Name()))
		}
	} else {
		add(filepath.Base(p), p)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

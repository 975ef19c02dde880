package evidence

import (
	"archive/zip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/bucketlint/bucketlint/parser/eventlog"
)

// IsURL reports whether a --evidence or evidence argument names a History Server (http or
// https) rather than a path.
func IsURL(s string) bool {
	return strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://")
}

// apiBase is the REST API root of a History Server URL: the URL itself when it ends in
// /api/v1, else /api/v1 under it.
func apiBase(u string) string {
	u = strings.TrimRight(u, "/")
	if i := strings.Index(u, "/api/v1"); i >= 0 {
		return u[:i+len("/api/v1")]
	}
	return u + "/api/v1"
}

// readURL reads every application a History Server lists: each application's (and attempt's)
// event log comes from its /logs endpoint, a zip of the log's files as Spark wrote them, which
// is spooled to a temporary file (not held in memory) and read as a directory would be.
func (ev *Evidence) readURL(ctx context.Context, base string) error {
	api := apiBase(base)
	var apps []struct {
		ID       string `json:"id"`
		Attempts []struct {
			AttemptID string `json:"attemptId"`
		} `json:"attempts"`
	}
	if err := getJSON(ctx, api+"/applications", &apps); err != nil {
		return err
	}
	for _, a := range apps {
		attempts := []string{""}
		if len(a.Attempts) > 0 && a.Attempts[0].AttemptID != "" {
			attempts = attempts[:0]
			for _, at := range a.Attempts {
				attempts = append(attempts, at.AttemptID)
			}
		}
		for _, at := range attempts {
			u := api + "/applications/" + url.PathEscape(a.ID)
			if at != "" {
				u += "/" + url.PathEscape(at)
			}
			if err := ev.readZip(ctx, u+"/logs"); err != nil {
				return err
			}
		}
	}
	return nil
}

func (ev *Evidence) readZip(ctx context.Context, u string) error {
	tmp, err := os.CreateTemp("", "bucketlint-eventlog-*.zip")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()
	if err := get(ctx, u, func(body io.Reader) error {
		_, err := io.Copy(tmp, body)
		return err
	}); err != nil {
		return err
	}
	size, err := tmp.Seek(0, io.SeekEnd)
	if err != nil {
		return err
	}
	zr, err := zip.NewReader(tmp, size)
	if err != nil {
		return fmt.Errorf("%s: %w", u, err)
	}
	logs := map[string]bool{}
	for _, f := range zr.File {
		top, _, _ := strings.Cut(f.Name, "/")
		if top != "" {
			logs[top] = true
		}
	}
	names := make([]string, 0, len(logs))
	for n := range logs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if err := ev.addFS(zr, n, strings.TrimSuffix(u, "/logs")); err != nil {
			return err
		}
	}
	return nil
}

// addFS reads one log of an archive; positions name it under the application's URL.
func (ev *Evidence) addFS(zr *zip.Reader, name, where string) error {
	start := len(ev.Shuffles)
	app, err := eventlog.ReadFS(zr, name, eventlog.Options{}, ev.collect(name))
	if err != nil {
		return fmt.Errorf("%s: %w", where, err)
	}
	ev.Logs++
	ev.finish(app, start, func(p eventlog.Pos) eventlog.Pos {
		p.File = where + "/logs!" + path.Clean(p.File)
		return p
	})
	return nil
}

func getJSON(ctx context.Context, u string, v any) error {
	return get(ctx, u, func(body io.Reader) error { return json.NewDecoder(body).Decode(v) })
}

// get fetches u and hands its body to read; anything but 200 OK is an error naming the URL.
func get(ctx context.Context, u string, read func(io.Reader) error) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Minute)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s", u, resp.Status)
	}
	if err := read(resp.Body); err != nil {
		return fmt.Errorf("%s: %w", u, err)
	}
	return nil
}

package action

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

const fakeCurl = `#!/usr/bin/env bash
echo "curl $*" >> "$FAKE_LOG"
out="" url=""
while [ $# -gt 0 ]; do
  case "$1" in -o) out="$2"; shift 2 ;; --retry) shift 2 ;; -*) shift ;; *) url="$1"; shift ;; esac
done
f="$FAKE_RELEASES/${url#https://github.com/bucketlint/bucketlint/releases/download/}"
if [ ! -f "$f" ]; then echo "curl: (22) The requested URL returned error: 404" >&2; exit 22; fi
cp "$f" "$out"
`

// The fake gh evaluates --jq with jq over FAKE_COMMENTS (a JSON array of issue comments) and
// records PATCH and POST calls with the body they send.
const fakeGH = `#!/usr/bin/env bash
echo "gh $*" >> "$FAKE_LOG"
[ "$1" = api ] || exit 1
shift
method=GET expr="" path="" body=""
while [ $# -gt 0 ]; do
  case "$1" in --method) method="$2"; shift 2 ;; --paginate) shift ;; --jq) expr="$2"; shift 2 ;; -F) body="${2#body=@}"; shift 2 ;; *) path="$1"; shift ;; esac
done
if [ -z "${GH_TOKEN:-}" ]; then echo "gh: no token" >&2; exit 4; fi
case "$method" in
  GET) jq -r "$expr" "$FAKE_COMMENTS" ;;
  *) echo "$method $path" >> "$FAKE_LOG"; cp "$body" "$FAKE_LOG.body"; echo '{}' ;;
esac
`

const version = "v9.9.9"

// release builds bucketlint with action/build.sh, as the Action's fallback does, and lays it
// out in dir as a GitHub release of version: the asset and SHA256SUMS.
func release(t *testing.T, repo, dir string) {
	t.Helper()
	asset := "bucketlint_" + version + "_linux_amd64"
	cmd := exec.Command("bash", filepath.Join(repo, "action", "build.sh"))
	cmd.Env = append(os.Environ(), "GITHUB_ACTION_PATH="+repo, "BIN="+filepath.Join(dir, version, asset), "VERSION="+version)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build.sh: %v: %s", err, out)
	}
	src, err := os.ReadFile(filepath.Join(dir, version, asset))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(src)
	sums := fmt.Sprintf("%s  bucketlint_%s_darwin_arm64\n%s  %s\n", strings.Repeat("0", 64), version, hex.EncodeToString(sum[:]), asset)
	if err := os.WriteFile(filepath.Join(dir, version, "SHA256SUMS"), []byte(sums), 0o644); err != nil {
		t.Fatal(err)
	}
}

// newJob prepares a workspace holding a copy of fixtures/examples/example (a Git checkout:
// it has .git), the runner's directories and the fakes.
func newJob(t *testing.T, repo, releases, store, example string, event, inputs map[string]string) *job {
	t.Helper()
	j := &job{
		t: t, repo: repo, root: t.TempDir(), store: store, inputs: inputs,
		github: map[string]string{"repository": "acme/jobs", "token": "ghs_fake", "action_path": repo, "action_ref": "main"},
	}
	for k, v := range event {
		j.github[k] = v
	}
	for _, d := range []string{"workspace/.git", "temp", "toolcache", "fakebin"} {
		if err := os.MkdirAll(j.path(d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := exec.Command("cp", "-R", filepath.Join(repo, "fixtures", "examples", example)+"/.", j.path("workspace")).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	for name, text := range map[string]string{"curl": fakeCurl, "gh": fakeGH} {
		if err := os.WriteFile(filepath.Join(j.path("fakebin"), name), []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	j.extraEnv = []string{"FAKE_RELEASES=" + releases, "FAKE_COMMENTS=" + j.path("comments.json")}
	return j
}

// comments writes the pull request's existing comments for the fake gh: n by someone else,
// then the given ones.
func (j *job) comments(n int, extra ...string) {
	var items []string
	for i := range n {
		items = append(items, fmt.Sprintf(`{"id": %d, "user": {"login": "reviewer%d"}, "body": "looks good"}`, 1000+i, i%7))
	}
	items = append(items, extra...)
	if err := os.WriteFile(j.path("comments.json"), []byte("["+strings.Join(items, ",\n")+"]"), 0o644); err != nil {
		j.t.Fatal(err)
	}
}

func (j *job) calls() string {
	b, _ := os.ReadFile(j.path("calls.log"))
	return string(b)
}

func repoRoot(t *testing.T) string {
	t.Helper()
	abs, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

func requireTools(t *testing.T) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the Action's scripts are tested with bash on Linux and macOS runners")
	}
	for _, tool := range []string{"bash", "jq", "cp"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is needed to test the Action (GitHub's runners have it): %v", tool, err)
		}
	}
}

var pullRequest = map[string]string{
	"event_name": "pull_request", "event.pull_request.number": "42",
	"event.pull_request.head.repo.full_name": "acme/jobs",
}

var forkPullRequest = map[string]string{
	"event_name": "pull_request", "event.pull_request.number": "43",
	"event.pull_request.head.repo.full_name": "fork/jobs",
}

const mine = `{"id": 7, "user": {"login": "github-actions[bot]"}, "body": "<!-- bucketlint -->\nold report"}`

// Someone quoting the marker is not the sticky comment: the author must match too.
const quoted = `{"id": 8, "user": {"login": "reviewer1"}, "body": "<!-- bucketlint -->\nquoted"}`

// TestAction runs the Action's steps through the fake runner: a push with findings that
// downloads the release and a second run that reuses the cached binary; pull requests that
// update the sticky comment or post it; a fork's pull request; a clean run; a release whose
// checksum does not match; and a build from source when there is no release to download.
func TestAction(t *testing.T) {
	requireTools(t)
	repo := repoRoot(t)
	a := loadAction(t, repo)
	releases := t.TempDir()
	release(t, repo, releases)
	pinned := map[string]string{"version": version}
	for _, tc := range []struct {
		name    string
		example string
		event   map[string]string
		inputs  map[string]string
		setup   func(j *job)
		check   func(j *job)
	}{
		{"push_downloads_the_release", "transactions-accounts", map[string]string{"event_name": "push"}, pinned, nil, func(j *job) {
			t := j.t
			want(t, j.calls(), "curl -fsSL --retry 3 -o", "/"+version+"/SHA256SUMS", "cache save bucketlint-"+version+"-linux-amd64")
			wantNot(t, j.calls(), "gh api", "cache restore")
			wantEq(t, j.outputs["install"]["how"], "download")
			wantEq(t, j.outputs["check"]["exit-code"], "1")
			wantEq(t, strings.Join(j.uploaded, ","), "bucketlint.sarif (11 results)")
			wantEq(t, fmt.Sprint(j.failed), "true") // the last step fails the job on findings
		}},
		{"pull_request_updates_the_sticky_comment", "transactions-accounts", pullRequest, pinned, func(j *job) { j.comments(250, quoted, mine) }, func(j *job) {
			t := j.t
			want(t, j.calls(), "PATCH repos/acme/jobs/issues/comments/7", "cache restore")
			wantNot(t, j.calls(), "curl", "POST", "comments/8")
			body, _ := os.ReadFile(j.path("calls.log.body"))
			want(t, string(body), "<!-- bucketlint -->", "BL301")
		}},
		{"pull_request_posts_the_first_comment", "transactions-accounts", pullRequest, pinned, func(j *job) { j.comments(3, quoted) }, func(j *job) {
			t := j.t
			want(t, j.calls(), "POST repos/acme/jobs/issues/42/comments")
			wantNot(t, j.calls(), "PATCH")
		}},
		{"fork_pull_request_skips_the_comment", "transactions-accounts", forkPullRequest, pinned, func(j *job) { j.comments(1, mine) }, func(j *job) {
			t := j.t
			wantNot(t, j.calls(), "gh api")
			want(t, readLog(j), "pull request from the fork fork/jobs")
			wantEq(t, strings.Join(j.uploaded, ","), "bucketlint.sarif (11 results)")
		}},
		{"no_findings", "clean", pullRequest, pinned, func(j *job) { j.comments(2) }, func(j *job) {
			t := j.t
			wantEq(t, j.outputs["check"]["exit-code"], "0")
			wantEq(t, fmt.Sprint(j.failed), "false")
			wantEq(t, strings.Join(j.uploaded, ","), "bucketlint.sarif (0 results)")
			want(t, j.calls(), "gh api --paginate repos/acme/jobs/issues/42/comments")
			wantNot(t, j.calls(), "POST", "PATCH")
		}},
		{"checksum_mismatch_is_refused", "transactions-accounts", map[string]string{"event_name": "push"}, map[string]string{"version": "v9.9.8"}, nil, func(j *job) {
			t := j.t
			want(t, readLog(j), "refusing to run it")
			wantEq(t, fmt.Sprint(j.failed), "true")
			wantEq(t, len(j.uploaded), 0)
			if _, err := os.Stat(j.outputs["resolve"]["bin"]); err == nil {
				t.Error("the unverified download was installed")
			}
		}},
		{"no_release_builds_from_source", "clean", map[string]string{"event_name": "push", "action_ref": "main"}, map[string]string{}, nil, func(j *job) {
			t := j.t
			want(t, strings.Join(j.ran, "\n"), "Set up Go", "Build bucketlint from source")
			want(t, j.outputs["resolve"]["key"], "bucketlint-src-")
			want(t, readLog(j), "built bucketlint devel from source")
			wantEq(t, j.outputs["check"]["exit-code"], "0")
		}},
	} {
		store := filepath.Join(t.TempDir(), "cache")
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "pull_request_updates_the_sticky_comment" {
				// A previous run of the same version left the binary in the cache.
				newJob(t, repo, releases, store, tc.example, map[string]string{"event_name": "push"}, map[string]string{"version": version}).run(a)
			}
			if tc.name == "checksum_mismatch_is_refused" {
				tamper(t, releases)
			}
			j := newJob(t, repo, releases, store, tc.example, tc.event, tc.inputs)
			if tc.setup != nil {
				tc.setup(j)
			}
			j.run(a)
			tc.check(j)
		})
	}
}

// tamper publishes a v9.9.8 whose SHA256SUMS does not match its asset.
func tamper(t *testing.T, dir string) {
	t.Helper()
	bad := filepath.Join(dir, "v9.9.8")
	if err := os.MkdirAll(bad, 0o755); err != nil {
		t.Fatal(err)
	}
	asset := "bucketlint_v9.9.8_linux_amd64"
	if err := os.WriteFile(filepath.Join(bad, asset), []byte("#!/bin/sh\necho pwned\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	sums := strings.Repeat("ab", 32) + "  " + asset + "\n"
	if err := os.WriteFile(filepath.Join(bad, "SHA256SUMS"), []byte(sums), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readLog(j *job) string {
	b, _ := os.ReadFile(j.path("log"))
	return string(b)
}

func want(t *testing.T, got string, subs ...string) {
	t.Helper()
	for _, s := range subs {
		if !strings.Contains(got, s) {
			t.Errorf("missing %q in:\n%s", s, got)
		}
	}
}

func wantNot(t *testing.T, got string, subs ...string) {
	t.Helper()
	for _, s := range subs {
		if strings.Contains(got, s) {
			t.Errorf("unexpected %q in:\n%s", s, got)
		}
	}
}

func wantEq[T comparable](t *testing.T, got, want T) {
	t.Helper()
	if got != want {
		t.Errorf("got %v, want %v", got, want)
	}
}

// TestActionFile: what the runner would silently get wrong. hashFiles sees only the
// workspace (the reports are under runner.temp), upload-sarif v3 is deprecated, and every
// step's logic is in a script that this test runs.
func TestActionFile(t *testing.T) {
	repo := repoRoot(t)
	src, err := os.ReadFile(filepath.Join(repo, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	wantNot(t, string(src), "hashFiles", "upload-sarif@v3", "| head")
	want(t, string(src), "github/codeql-action/upload-sarif@v4")
	for _, s := range loadAction(t, repo).Runs.Steps {
		if s.Run == "" || strings.HasPrefix(s.Run, "exit ") {
			continue
		}
		script, ok := strings.CutPrefix(strings.TrimSpace(s.Run), `bash "$GITHUB_ACTION_PATH/`)
		if !ok {
			t.Errorf("step %q: run %q; want bash \"$GITHUB_ACTION_PATH/action/NAME.sh\"", s.Name, s.Run)
			continue
		}
		if _, err := os.Stat(filepath.Join(repo, strings.TrimSuffix(script, `"`))); err != nil {
			t.Errorf("step %q: %v", s.Name, err)
		}
	}
}

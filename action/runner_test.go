package action

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// The fake runner runs action.yml's composite steps as a GitHub runner does, in a temporary
// workspace: each `run` step through `bash --noprofile --norc -eo pipefail` with the step's
// env (its ${{ }} expressions resolved), GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files and
// the runner's variables; `if:` conditions evaluated; the `uses` steps replaced by fakes
// (actions/cache saves and restores a directory under a key; setup-go is recorded; upload-sarif
// checks that the file it is given is SARIF 2.1.0 and records it). `gh` and `curl` on PATH
// are fakes that log their calls.

type actionFile struct {
	Inputs map[string]struct {
		Default string `yaml:"default"`
	} `yaml:"inputs"`
	Runs struct {
		Steps []step `yaml:"steps"`
	} `yaml:"runs"`
}

type step struct {
	Name  string            `yaml:"name"`
	ID    string            `yaml:"id"`
	If    string            `yaml:"if"`
	Uses  string            `yaml:"uses"`
	Shell string            `yaml:"shell"`
	Run   string            `yaml:"run"`
	Env   map[string]string `yaml:"env"`
	With  map[string]string `yaml:"with"`
}

// A job is one run of the Action: what GitHub would provide, and what happened.
type job struct {
	t         *testing.T
	repo      string            // the Action's source (GITHUB_ACTION_PATH)
	root      string            // the job's directory: workspace, temp, tool cache, fakes
	store     string            // where actions/cache keeps saved directories, shared by jobs
	inputs    map[string]string // with: of the workflow step
	github    map[string]string // the github context, flattened ("event.pull_request.number")
	extraEnv  []string          // FAKE_* settings for the fake gh and curl
	outputs   map[string]map[string]string
	ran       []string // names of the steps that ran
	uploaded  []string // SARIF files uploaded
	failed    bool
	cacheSave []func()
}

func loadAction(t *testing.T, repo string) actionFile {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(repo, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var a actionFile
	if err := yaml.Unmarshal(src, &a); err != nil {
		t.Fatal(err)
	}
	return a
}

// run runs every step of the Action and then the post-job cache saves.
func (j *job) run(a actionFile) {
	j.t.Helper()
	for name, in := range a.Inputs {
		if _, ok := j.inputs[name]; !ok {
			j.inputs[name] = in.Default
		}
	}
	j.outputs = map[string]map[string]string{}
	for _, s := range a.Runs.Steps {
		if !j.cond(s.If) {
			continue
		}
		j.ran = append(j.ran, s.Name)
		if err := j.step(s); err != nil {
			j.t.Logf("step %q failed: %v", s.Name, err)
			j.failed = true
		}
	}
	for _, save := range j.cacheSave {
		save()
	}
}

var exprRE = regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`)

// expand resolves the ${{ }} expressions of a string.
func (j *job) expand(s string) string {
	return exprRE.ReplaceAllStringFunc(s, func(m string) string {
		return j.value(exprRE.FindStringSubmatch(m)[1])
	})
}

// value evaluates the expressions action.yml uses: context lookups, 'literals' and a || b.
func (j *job) value(e string) string {
	e = strings.TrimSpace(e)
	if a, b, ok := strings.Cut(e, "||"); ok {
		if v := j.value(a); v != "" {
			return v
		}
		return j.value(b)
	}
	if strings.HasPrefix(e, "'") && strings.HasSuffix(e, "'") {
		return strings.Trim(e, "'")
	}
	ctx, name, _ := strings.Cut(e, ".")
	switch ctx {
	case "inputs":
		return j.inputs[name]
	case "github":
		return j.github[name]
	case "steps":
		p := strings.Split(name, ".")
		if len(p) == 3 && p[1] == "outputs" {
			return j.outputs[p[0]][p[2]]
		}
	case "runner":
		return map[string]string{"temp": j.path("temp"), "tool_cache": j.path("toolcache")}[name]
	}
	j.t.Fatalf("expression %q: not understood by the fake runner", e)
	return ""
}

// cond evaluates an if: of terms joined by &&: always(), success(), a == 'x', a != 'x'.
func (j *job) cond(c string) bool {
	c = strings.TrimSpace(c)
	if m := exprRE.FindStringSubmatch(c); m != nil {
		c = m[1]
	}
	if c == "" {
		return !j.failed
	}
	always := false
	for _, term := range strings.Split(c, "&&") {
		term = strings.TrimSpace(term)
		switch {
		case term == "always()":
			always = true
		case term == "success()":
			if j.failed {
				return false
			}
		case strings.Contains(term, "!="):
			a, b, _ := strings.Cut(term, "!=")
			if j.value(a) == j.value(b) {
				return false
			}
		case strings.Contains(term, "=="):
			a, b, _ := strings.Cut(term, "==")
			if j.value(a) != j.value(b) {
				return false
			}
		default:
			j.t.Fatalf("condition %q: term %q not understood by the fake runner", c, term)
		}
	}
	return always || !j.failed
}

func (j *job) path(name string) string { return filepath.Join(j.root, name) }

func (j *job) step(s step) error {
	switch {
	case s.Run != "":
		return j.shell(s)
	case strings.HasPrefix(s.Uses, "actions/cache@"):
		return j.cache(s)
	case strings.HasPrefix(s.Uses, "actions/setup-go@"):
		return nil // Go is on PATH already
	case strings.HasPrefix(s.Uses, "github/codeql-action/upload-sarif@"):
		return j.uploadSARIF(j.expand(s.With["sarif_file"]))
	}
	return fmt.Errorf("uses %s: no fake for it", s.Uses)
}

// shell runs a run: step as the runner does for shell: bash.
func (j *job) shell(s step) error {
	if s.Shell != "bash" {
		return fmt.Errorf("shell %q: every step of the Action must say shell: bash", s.Shell)
	}
	script := filepath.Join(j.path("temp"), "step.sh")
	outFile := filepath.Join(j.path("temp"), "output-"+s.ID)
	if err := os.WriteFile(script, []byte(j.expand(s.Run)), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(outFile, nil, 0o644); err != nil {
		return err
	}
	cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", script)
	cmd.Dir = j.path("workspace")
	cmd.Env = append(j.env(), "GITHUB_OUTPUT="+outFile)
	for k, v := range s.Env {
		cmd.Env = append(cmd.Env, k+"="+j.expand(v))
	}
	out, err := cmd.CombinedOutput()
	j.t.Logf("step %q:\n%s", s.Name, out)
	appendFile(j.t, j.path("log"), fmt.Sprintf("== %s\n%s", s.Name, out))
	if s.ID != "" {
		j.outputs[s.ID] = readOutputs(j.t, outFile)
	}
	return err
}

// env is the runner's environment for a step.
func (j *job) env() []string {
	env := []string{
		"PATH=" + j.path("fakebin") + string(os.PathListSeparator) + os.Getenv("PATH"),
		"HOME=" + os.Getenv("HOME"),
		"GITHUB_ACTIONS=true",
		"CI=true",
		"GITHUB_ACTION_PATH=" + j.repo,
		"GITHUB_WORKSPACE=" + j.path("workspace"),
		"GITHUB_REPOSITORY=" + j.github["repository"],
		"GITHUB_EVENT_NAME=" + j.github["event_name"],
		"GITHUB_STEP_SUMMARY=" + j.path("summary.md"),
		"RUNNER_OS=Linux",
		"RUNNER_ARCH=X64",
		"RUNNER_TEMP=" + j.path("temp"),
		"RUNNER_TOOL_CACHE=" + j.path("toolcache"),
		"FAKE_LOG=" + j.path("calls.log"),
	}
	for _, k := range []string{"GOPATH", "GOCACHE", "GOMODCACHE", "GOFLAGS", "GOPROXY", "GOTOOLCHAIN"} {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	return append(env, j.extraEnv...)
}

// cache is actions/cache: restore the key's saved directory into path, and save path under
// the key after the job when it was not restored.
func (j *job) cache(s step) error {
	key, dir := j.expand(s.With["key"]), j.expand(s.With["path"])
	if key == "" || dir == "" {
		return fmt.Errorf("actions/cache: empty key %q or path %q", key, dir)
	}
	saved := filepath.Join(j.store, key)
	if _, err := os.Stat(saved); err == nil {
		appendFile(j.t, j.path("calls.log"), "cache restore "+key+"\n")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		return exec.Command("cp", "-R", saved+"/.", dir+"/").Run()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	j.cacheSave = append(j.cacheSave, func() {
		if err := os.MkdirAll(saved, 0o755); err != nil {
			j.t.Fatal(err)
		}
		if out, err := exec.Command("cp", "-R", dir+"/.", saved+"/").CombinedOutput(); err != nil {
			j.t.Fatalf("cache save: %v: %s", err, out)
		}
		appendFile(j.t, j.path("calls.log"), "cache save "+key+"\n")
	})
	return nil
}

// uploadSARIF is upload-sarif: the file must exist and be SARIF 2.1.0.
func (j *job) uploadSARIF(file string) error {
	src, err := os.ReadFile(file)
	if err != nil {
		return fmt.Errorf("upload-sarif: %w", err)
	}
	var doc struct {
		Version string `json:"version"`
		Runs    []struct {
			Results []json.RawMessage `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(src, &doc); err != nil {
		return fmt.Errorf("upload-sarif: %s: %w", file, err)
	}
	if doc.Version != "2.1.0" || len(doc.Runs) != 1 {
		return fmt.Errorf("upload-sarif: %s is not SARIF 2.1.0 with one run", file)
	}
	j.uploaded = append(j.uploaded, fmt.Sprintf("%s (%d results)", filepath.Base(file), len(doc.Runs[0].Results)))
	return nil
}

func readOutputs(t *testing.T, file string) map[string]string {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, line := range strings.Split(string(src), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			out[k] = v
		}
	}
	return out
}

func appendFile(t *testing.T, file, text string) {
	t.Helper()
	f, err := os.OpenFile(file, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}

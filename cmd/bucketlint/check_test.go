package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"
)

// writeFiles lays out files (slash paths → contents) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// checkIn runs bucketlint with args in dir and returns stdout, stderr and the exit code.
func checkIn(t *testing.T, dir string, env map[string]string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	t.Chdir(dir)
	var out, errw bytes.Buffer
	s := &streams{in: strings.NewReader(""), out: &out, err: &errw, getenv: func(k string) string { return env[k] }}
	code = runStreams(t.Context(), args, s)
	return out.String(), errw.String(), code
}

const (
	ddlText = "CREATE TABLE a (k INT, v INT) USING parquet CLUSTERED BY (k) INTO 200 BUCKETS;\n" +
		"CREATE TABLE b (k INT, w INT) USING parquet CLUSTERED BY (k) INTO 8 BUCKETS;\n"
	joinText = "SELECT * FROM a JOIN b ON a.k = b.k;\n"
)

func TestFindConfigWalksUpToTheRepositoryRoot(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		".bucketlint.yaml":               "rules: [all]\n", // above the repository: never read
		"repo/.git/HEAD":                 "ref: refs/heads/main\n",
		"repo/.bucketlint.yaml":          "rules: [all]\n",
		"repo/jobs/daily/q.sql":          joinText,
		"other/.git/HEAD":                "ref: refs/heads/main\n",
		"other/sub/.bucketlint.yaml/x":   "a directory named like the file is not a config\n",
		"repo/jobs/.bucketlint.yaml.bak": "",
	})
	for _, c := range []struct{ from, want string }{
		{"repo/jobs/daily", "repo/.bucketlint.yaml"},
		{"repo", "repo/.bucketlint.yaml"},
		{"other/sub", ""},
	} {
		got := findConfig(filepath.Join(root, filepath.FromSlash(c.from)))
		want := ""
		if c.want != "" {
			want = filepath.Join(root, filepath.FromSlash(c.want))
		}
		if got != want {
			t.Errorf("findConfig(%s) = %q, want %q", c.from, got, want)
		}
	}
}

func TestConfigDiscoveredFromASubdirectory(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		".git/HEAD": "ref: refs/heads/main\n", ".bucketlint.yaml": "rules: [none, BL301]\nseverity: {BL301: error}\n",
		"sql/ddl.sql": ddlText, "sql/q.sql": joinText,
	})
	out, _, code := checkIn(t, filepath.Join(dir, "sql"), nil, "check", "--format", "json")
	var doc struct {
		Findings []struct{ Rule, Severity string }
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if code != exitFindings || len(doc.Findings) != 1 || doc.Findings[0].Rule != "BL301" || doc.Findings[0].Severity != "error" {
		t.Errorf("exit %d, findings %+v; want one BL301 error from the parent's config", code, doc.Findings)
	}
}

func TestBaselineRoundTrip(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"ddl.sql": ddlText, "q.sql": joinText})
	if _, errOut, code := checkIn(t, dir, nil, "check", "--write-baseline", "baseline.json"); code != exitOK {
		t.Fatalf("--write-baseline: exit %d, %s", code, errOut)
	}
	out, _, code := checkIn(t, dir, nil, "check", "--baseline", "baseline.json")
	if code != exitOK || !strings.HasPrefix(out, "no findings") {
		t.Fatalf("with the baseline: exit %d\n%s", code, out)
	}
	// Moving every line down keeps the baseline valid.
	writeFiles(t, dir, map[string]string{"ddl.sql": "-- tables\n\n" + ddlText, "q.sql": "\n\n\n-- the daily join\n" + joinText})
	out, _, code = checkIn(t, dir, nil, "check", "--baseline", "baseline.json")
	if code != exitOK || !strings.HasPrefix(out, "no findings") {
		t.Fatalf("after moving lines: exit %d\n%s", code, out)
	}
	// A new finding is the only one reported.
	writeFiles(t, dir, map[string]string{"new.sql": "CREATE TABLE c (k INT) USING parquet CLUSTERED BY (k) INTO 16 BUCKETS;\nSELECT * FROM a JOIN c ON a.k = c.k;\n"})
	out, _, code = checkIn(t, dir, nil, "check", "--baseline", "baseline.json", "--disable", "BL306")
	if code != exitFindings || strings.Count(out, "(BL") != 1 || !strings.Contains(out, "new.sql:") || !strings.Contains(out, "accepted by the baseline") {
		t.Fatalf("after adding a finding: exit %d\n%s", code, out)
	}
	// Fixing a baselined finding leaves its entry unused, which the summary says.
	writeFiles(t, dir, map[string]string{"ddl.sql": strings.Replace(ddlText, "INTO 8 BUCKETS", "INTO 200 BUCKETS", 1)})
	out, _, code = checkIn(t, dir, nil, "check", "--baseline", "baseline.json", "--disable", "BL306", "q.sql", "ddl.sql")
	if code != exitOK || !strings.Contains(out, "no longer found") {
		t.Fatalf("after fixing a finding: exit %d\n%s", code, out)
	}
}

func TestSeveralFormatsWriteTheirFiles(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"ddl.sql": ddlText, "q.sql": joinText, "out/.keep": ""})
	out, errOut, code := checkIn(t, dir, nil, "check", "--format", "text", "--format", "json=out/r.json", "--format", "sarif=r.sarif")
	if code != exitFindings || !strings.Contains(out, "(BL301)") {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	var doc struct {
		Summary struct{ Findings int }
	}
	data, err := os.ReadFile(filepath.Join(dir, "out/r.json"))
	if err != nil || json.Unmarshal(data, &doc) != nil || doc.Summary.Findings == 0 {
		t.Errorf("out/r.json: %v\n%s", err, data)
	}
	sarif, err := os.ReadFile(filepath.Join(dir, "r.sarif"))
	if err != nil || !bytes.Contains(sarif, []byte(`"ruleId": "BL301"`)) {
		t.Errorf("r.sarif: %v\n%s", err, sarif)
	}
	if strings.Contains(out, "\x1b[") {
		t.Error("colour in output that is not a terminal")
	}
}

func TestGitHubOverflowGoesToTheStepSummary(t *testing.T) {
	dir := t.TempDir()
	var py strings.Builder
	for i := 0; i < 13; i++ {
		py.WriteString("df.write.bucketBy(8, \"k\").save(\"/data/x\")\n")
	}
	writeFiles(t, dir, map[string]string{"job.py": py.String()})
	summary := filepath.Join(dir, "summary.md")
	writeFiles(t, dir, map[string]string{"summary.md": "previous step\n"})
	out, _, code := checkIn(t, dir, map[string]string{"GITHUB_STEP_SUMMARY": summary}, "check", "--format", "github", "job.py")
	if code != exitFindings {
		t.Fatalf("exit %d", code)
	}
	if n := strings.Count(out, "::error "); n != 10 {
		t.Errorf("%d error annotations, want 10:\n%s", n, out)
	}
	data, _ := os.ReadFile(summary)
	if !strings.HasPrefix(string(data), "previous step\n") || strings.Count(string(data), "| `job.py:") != 3 {
		t.Errorf("step summary should keep what was there and list the 3 findings left over:\n%s", data)
	}
}

func TestPreCommitHook(t *testing.T) {
	src, err := os.ReadFile("../../.pre-commit-hooks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var hooks []struct {
		ID, Entry, Language string
		Args                []string
		PassFilenames       *bool `yaml:"pass_filenames"`
	}
	if err := yaml.Unmarshal(src, &hooks); err != nil {
		t.Fatal(err)
	}
	if len(hooks) == 0 {
		t.Fatal("no hooks")
	}
	for _, h := range hooks {
		fields := strings.Fields(h.Entry)
		if h.Language != "golang" || len(fields) < 2 || fields[0] != "bucketlint" {
			t.Fatalf("hook %s: entry %q language %q; want a golang hook running bucketlint", h.ID, h.Entry, h.Language)
		}
		args := append(append([]string(nil), fields[1:]...), h.Args...)
		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{
			".git/HEAD": "ref: refs/heads/main\n", "ddl.sql": ddlText, "q.sql": joinText, "README.md": "# not Spark\n",
			"job.py": "df.write.bucketBy(8, \"k\").save(\"/data/x\")\n",
		})
		files := []string{"ddl.sql", "q.sql", "job.py", "README.md"}
		if h.PassFilenames != nil && !*h.PassFilenames {
			files = nil
		}
		out, errOut, code := checkIn(t, dir, nil, append(args, files...)...)
		if code != exitFindings || !strings.Contains(out, "q.sql:1:17: warning:") || !strings.Contains(out, "job.py:1:") {
			t.Errorf("hook %s: exit %d\n%s%s", h.ID, code, out, errOut)
		}
	}
}

func TestExitCodePrecedence(t *testing.T) {
	parse, finds := &parseFailure{count: 1}, &findingsError{count: 2, failOn: "warning"}
	for _, c := range []struct {
		name string
		err  error
		want int
	}{
		{"clean", nil, exitOK},
		{"findings", outcome{finds}, exitFindings},
		{"parse error and findings", outcome{parse, finds}, exitParse},
		{"internal error over parse errors", outcome{errors.New("internal error: x"), parse, finds}, exitUsage},
		{"config error", &configError{msg: "x"}, exitUsage},
		{"usage error", usagef("x"), exitUsage},
	} {
		if got := exitCode(c.err); got != c.want {
			t.Errorf("%s: exit %d, want %d", c.name, got, c.want)
		}
	}
}

func TestMachineFormatsNameFilesFromTheRepositoryRoot(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{".git/HEAD": "ref: refs/heads/main\n", "spark/ddl.sql": ddlText, "spark/jobs/q.sql": joinText})
	out, errOut, code := checkIn(t, filepath.Join(dir, "spark"), nil, "check", "--disable", "BL306",
		"--format", "text", "--format", "rdjsonl=../r.jsonl", "--format", "markdown=../r.md")
	if code != exitFindings || !strings.HasPrefix(out, "jobs/q.sql:1:17: warning:") {
		t.Fatalf("text keeps working-directory paths: exit %d\n%s%s", code, out, errOut)
	}
	rd, _ := os.ReadFile(filepath.Join(dir, "r.jsonl"))
	if !strings.Contains(string(rd), `"path":"spark/jobs/q.sql"`) || !strings.Contains(string(rd), `"path":"spark/ddl.sql"`) {
		t.Errorf("rdjsonl paths are not relative to the repository root:\n%s", rd)
	}
	md, _ := os.ReadFile(filepath.Join(dir, "r.md"))
	if !strings.Contains(string(md), "`spark/ddl.sql:2:67`") || !strings.Contains(string(md), "+ CREATE TABLE b (k INT, w INT) USING parquet CLUSTERED BY (k) INTO 200 BUCKETS;") {
		t.Errorf("markdown paths or fix diff wrong:\n%s", md)
	}
}

func TestSARIFOfARealRun(t *testing.T) {
	schema, err := filepath.Abs("../../report/testdata/sarif-2.1.0-rtm.5.json")
	if err != nil {
		t.Fatal(err)
	}
	sch, err := jsonschema.NewCompiler().Compile(schema)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"ddl.sql": ddlText, "q.sql": joinText, "job.py": "df.write.bucketBy(8, \"k\").save(\"/data/x\")\n",
		"bad.sql": "CREATE TABLE c (k INT) USING parquet CLUSTERED BY (k) INTO x BUCKETS;\n",
	})
	if _, errOut, code := checkIn(t, dir, nil, "check", "--format", "sarif=out.sarif"); code != exitParse {
		t.Fatalf("exit %d, want 3 (one input error)\n%s", code, errOut)
	}
	f, err := os.Open(filepath.Join(dir, "out.sarif"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(doc); err != nil {
		t.Errorf("SARIF of a real run does not validate: %v", err)
	}
	for _, id := range []string{`"ruleId": "BL301"`, `"ruleId": "BL201"`, `"ruleId": "BL901"`, `"id": "BL404"`, "primaryLocationLineHash", "toolExecutionNotifications"} {
		if data, _ := os.ReadFile(filepath.Join(dir, "out.sarif")); !bytes.Contains(data, []byte(id)) {
			t.Errorf("SARIF lacks %s", id)
		}
	}
}

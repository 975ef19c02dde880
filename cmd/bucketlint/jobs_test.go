package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// variedTree writes into dir every rule's test cases (rules/testdata, each case in a
// directory of its own: DDL, SQL, PySpark, Scala, notebooks, explain output, sessions with
// settings), the example projects (fixtures/examples), three recorded Spark scenarios
// (explain output, DESCRIBE and SHOW CREATE TABLE), and inputs that cannot be read: a SQL syntax error, a binary file named as SQL and
// a file over 1 MiB, the --max-input-size the test gives.
func variedTree(t *testing.T, dir string) {
	t.Helper()
	cases, err := filepath.Glob("../../rules/testdata/BL*/*.txtar")
	if err != nil || len(cases) < 100 {
		t.Fatalf("rules' cases: %d, %v", len(cases), err)
	}
	files := map[string]string{}
	for _, c := range cases {
		a, err := txtar.ParseFile(c)
		if err != nil {
			t.Fatal(err)
		}
		at := filepath.ToSlash(filepath.Join("rules", filepath.Base(filepath.Dir(c)), strings.TrimSuffix(filepath.Base(c), ".txtar")))
		for _, f := range a.Files {
			if f.Name != "want" && f.Name != "conf" && f.Name != "files" {
				files[at+"/"+f.Name] = string(f.Data)
			}
		}
	}
	copyTree(t, "../../fixtures/examples", files, "examples")
	for _, scenario := range []string{
		"3.3/bucketed_read/br03_one_side_bucketed_shuffle5", "3.5/bucketed_read/br04_different_bucket_numbers",
		"4.3/bucketed_read/br02_join_keys_superset_of_bucket_keys",
	} {
		copyTree(t, "../../fixtures/spark/"+scenario, files, "spark/"+scenario)
	}
	files["broken/bad.sql"] = "CREATE TABLE c (k INT) USING parquet CLUSTERED BY (k) INTO x BUCKETS;\nSELECT * FROM;\n"
	files["broken/blob.sql"] = "\x00\x01binary"
	files["broken/huge.sql"] = strings.Repeat("-- padding\n", 110_000)
	writeFiles(t, dir, files)
}

// copyTree adds the files under src to files, named under prefix.
func copyTree(t *testing.T, src string, files map[string]string, prefix string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		files[prefix+"/"+filepath.ToSlash(rel)] = string(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestJobsSameOutput checks a varied tree with one job and with several, on one core and on
// two, twice each, and wants the same bytes from every run, in text on standard output and
// in JSON: files are parsed, join sites built and rules run side by side, and nothing of it
// may show in the output. The unreadable inputs are reported and hide nothing else.
func TestJobsSameOutput(t *testing.T) {
	dir := t.TempDir()
	variedTree(t, dir)
	t.Chdir(dir)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	var first, firstJSON []byte
	var firstRun string
	for round := range 2 {
		for _, procs := range []int{1, 2} {
			runtime.GOMAXPROCS(procs)
			for _, jobs := range []int{1, 3, 0} {
				run := "GOMAXPROCS=" + strconv.Itoa(procs) + " --jobs " + strconv.Itoa(jobs) + " round " + strconv.Itoa(round)
				var out, errw bytes.Buffer
				s := &streams{in: strings.NewReader(""), out: &out, err: &errw}
				code := runStreams(t.Context(), []string{
					"check", "--jobs", strconv.Itoa(jobs), "--max-input-size", "1MB",
					"--fail-on", "never", "--format", "text", "--format", "json=out.json", ".",
				}, s)
				if code != exitParse {
					t.Fatalf("%s: exit %d, want 3 (inputs that cannot be read)\n%s", run, code, errw.String())
				}
				js, err := os.ReadFile("out.json")
				if err != nil {
					t.Fatal(err)
				}
				if first == nil {
					first, firstJSON, firstRun = out.Bytes(), js, run
					checkVariedFindings(t, out.String())
					continue
				}
				if !bytes.Equal(out.Bytes(), first) || !bytes.Equal(js, firstJSON) {
					t.Fatalf("%s differs from %s:\n%s", run, firstRun, firstDifference(first, out.Bytes()))
				}
			}
		}
	}
}

// checkVariedFindings wants the unreadable inputs reported and the others' findings kept:
// warnings of several rules, from the rules' cases, the examples and the recorded scenarios
// (explanations, info findings without a fix, may be left out of check's output).
func checkVariedFindings(t *testing.T, out string) {
	t.Helper()
	for _, want := range []string{
		"broken/bad.sql:1:", "broken/blob.sql:1:1: error: binary file", "broken/huge.sql:1:1: error: file is 1210000 bytes",
		"(BL101)", "(BL301)", "(BL302)", "examples/events-users/", "spark/3.5/bucketed_read/",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the output lacks %q", want)
		}
	}
	if n := strings.Count(out, ": warning: "); n < 100 {
		t.Errorf("%d warnings: the tree should give well over a hundred", n)
	}
}

// firstDifference shows the first line where a and b differ.
func firstDifference(a, b []byte) string {
	la, lb := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := range min(len(la), len(lb)) {
		if la[i] != lb[i] {
			return "line " + strconv.Itoa(i+1) + ":\n- " + la[i] + "\n+ " + lb[i]
		}
	}
	return "one is a prefix of the other: " + strconv.Itoa(len(la)) + " and " + strconv.Itoa(len(lb)) + " lines"
}

func TestJobsFlag(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"ddl.sql": ddlText, "q.sql": joinText})
	for _, c := range []struct {
		jobs string
		code int
	}{{"1", exitFindings}, {"3", exitFindings}, {"0", exitFindings}, {"-1", exitUsage}, {"x", exitUsage}} {
		_, errOut, code := checkIn(t, dir, nil, "check", "--jobs", c.jobs, ".")
		if code != c.code {
			t.Errorf("--jobs %s: exit %d, want %d\n%s", c.jobs, code, c.code, errOut)
		}
	}
}

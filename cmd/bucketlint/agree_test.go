package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/bucketlint/bucketlint/advise"
	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
)

// TestCommandsAgree runs check, simulate and advise as their commands build their workloads
// on every query of every example repository (fixtures/examples/*), every input set of the
// command goldens (testdata/*.txtar) and of the loader's goldens (parser/testdata/load), and
// every recorded name-resolution scenario (unqualified and reversed keys, USING, views:
// resolutionRepos), and requires the same verdict for each query: which joins and aggregations shuffle, on which
// side. check's verdict is the simulation its rules read (the workload runCheck builds);
// simulate's is its JSON output for the query's file with the rest of the repository as
// --tables; advise's is the plan before of its recommendations. The verdicts are the
// simulations, before any finding is made: check's leaving out explanations (info findings
// without a fix, listed with --explain) changes what it prints, not the plans compared here.
func TestCommandsAgree(t *testing.T) {
	if testing.Short() {
		t.Skip("runs three commands over every repository")
	}
	repos := exampleRepos(t)
	for dir := range resolutionRepos(t) {
		repos = append(repos, dir)
	}
	compared := 0
	for _, dir := range repos {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			t.Chdir(dir)
			compared += agreeIn(t)
		})
	}
	t.Logf("%d queries in %d repositories compared", compared, len(repos))
	if compared < 50 {
		t.Errorf("only %d queries compared; the repositories were not read", compared)
	}
}

// exampleRepos returns the repositories to compare, each a directory: the examples as they
// are, and every txtar archive's files written into a directory of their own.
func exampleRepos(t *testing.T) []string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dirs, _ := filepath.Glob(filepath.Join(root, "fixtures", "examples", "*"))
	var out []string
	for _, d := range dirs {
		if fi, err := os.Stat(d); err == nil && fi.IsDir() && filepath.Base(d) != "testdata" {
			out = append(out, d)
		}
	}
	archives, _ := filepath.Glob(filepath.Join(root, "cmd", "bucketlint", "testdata", "*.txtar"))
	loads, _ := filepath.Glob(filepath.Join(root, "parser", "testdata", "load", "*.txtar"))
	for _, a := range append(archives, loads...) {
		ar, err := txtar.ParseFile(a)
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(t.TempDir(), strings.TrimSuffix(filepath.Base(a), ".txtar"))
		n := 0
		for _, f := range ar.Files {
			switch f.Name {
			case "args", "stdout", "stderr", "exit", "stdin", "want", "exclude":
				continue
			}
			p := filepath.Join(dir, filepath.FromSlash(f.Name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, f.Data, 0o644); err != nil {
				t.Fatal(err)
			}
			n++
		}
		if n > 0 {
			out = append(out, dir)
		}
	}
	return out
}

// agreeIn compares the three commands in the working directory and returns how many queries
// it compared.
func agreeIn(t *testing.T) int {
	t.Helper()
	s := &streams{in: strings.NewReader(""), out: &bytes.Buffer{}, err: &bytes.Buffer{}}
	opts, err := parseCheck([]string{"."}, s)
	if err != nil {
		t.Fatal(err)
	}
	ld, err := opts.common.load(t.Context(), opts.paths, s)
	if err != nil {
		return 0 // a configuration every command rejects alike
	}
	checkVerdicts := map[*plan.Query]string{}
	byFile := map[string][]*plan.Query{}
	for _, q := range ld.w.Queries() {
		r, err := ld.w.Simulate(q.Query)
		if err != nil {
			continue
		}
		checkVerdicts[q.Query] = verdict(r)
		f := q.Query.Span.Start.File
		byFile[f] = append(byFile[f], q.Query)
	}
	files := make([]string, 0, len(byFile))
	for f := range byFile {
		files = append(files, f)
	}
	sort.Strings(files)
	for _, f := range files {
		got := simulateVerdicts(t, f)
		var want []string
		for _, q := range byFile[f] {
			want = append(want, checkVerdicts[q])
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: simulate says\n\t%s\ncheck's simulation says\n\t%s", f, strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
		}
	}
	for q, v := range adviseVerdicts(t, s) {
		if want, ok := checkVerdicts[q]; ok && v != want {
			t.Errorf("%s: advise's plan before says %s, check's simulation %s", q.Span.Start, v, want)
		}
	}
	return len(checkVerdicts)
}

// simulateVerdicts runs `simulate --tables . --format json FILE` and returns each query's
// verdict.
func simulateVerdicts(t *testing.T, file string) []string {
	t.Helper()
	var out, errOut bytes.Buffer
	runStreams(t.Context(), []string{"simulate", "--tables", ".", "--format", "json", "--", file}, &streams{in: strings.NewReader(""), out: &out, err: &errOut})
	if out.Len() == 0 {
		t.Errorf("simulate %s printed nothing: %s", file, errOut.String())
		return nil
	}
	type decision struct{ Node, Side, Inserted string }
	type result struct {
		Exchanges int
		Decisions []decision
	}
	var rs []result
	if bytes.HasPrefix(bytes.TrimSpace(out.Bytes()), []byte("[")) {
		if err := json.Unmarshal(out.Bytes(), &rs); err != nil {
			t.Fatal(err)
		}
	} else {
		var r result
		if err := json.Unmarshal(out.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	vs := make([]string, len(rs))
	for i, r := range rs {
		var sides []string
		for _, d := range r.Decisions {
			if d.Inserted == "Exchange" {
				name, _, _ := strings.Cut(strings.FieldsFunc(d.Node, func(r rune) bool { return r == ' ' || r == '(' || r == '[' })[0], " ")
				sides = append(sides, name+" "+d.Side)
			}
		}
		vs[i] = verdictOf(r.Exchanges, sides)
	}
	return vs
}

// adviseVerdicts builds advise's workload as runAdvise does and returns the verdict of the
// plan before of every query its recommendations carry.
func adviseVerdicts(t *testing.T, s *streams) map[*plan.Query]string {
	t.Helper()
	opts, err := parseAdvise([]string{"."}, s)
	if err != nil {
		t.Fatal(err)
	}
	ld, err := opts.common.load(t.Context(), opts.files, s)
	if err != nil {
		t.Fatal(err)
	}
	ao, err := opts.adviseOptions(ld.w)
	if err != nil {
		t.Fatal(err)
	}
	qs := queriesUnder(ld.w, opts.files)
	queries := advise.Merged(ld.w, qs)
	// The weighted queries are the workload's, resolved queries: map them back.
	orig := map[*plan.Query]*plan.Query{}
	for _, q := range qs {
		orig[ld.w.Resolved(q.Query).Query] = q.Query
	}
	out := map[*plan.Query]string{}
	for _, r := range advise.Advise(ld.w.Catalogue().Tables(), queries, ao) {
		for _, o := range r.Queries {
			if q := orig[queries[o.Index].Query]; q != nil && o.Before != nil {
				out[q] = verdict(o.Before)
			}
		}
	}
	return out
}

// verdict is which operators a plan shuffles the input of, and on which side.
func verdict(r *simulate.Result) string {
	var sides []string
	for _, d := range r.Decisions {
		if d.Inserted == "Exchange" {
			sides = append(sides, d.Node.Info().Name+" "+d.Side)
		}
	}
	return verdictOf(r.Exchanges, sides)
}

func verdictOf(exchanges int, sides []string) string {
	sort.Strings(sides)
	return fmt.Sprintf("%d exchange(s) [%s]", exchanges, strings.Join(sides, ", "))
}

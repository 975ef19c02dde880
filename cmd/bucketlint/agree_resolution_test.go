package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// A recordedScenario is what TestCommandsAgree reads of a real-Spark recording
// (fixtures/spark/<series>/<group>/<name>/scenario.json).
type recordedScenario struct {
	Confs      map[string]string `json:"confs"`
	Statements []struct {
		SQL   string          `json:"sql"`
		Error json.RawMessage `json:"error"`
	} `json:"statements"`
	Tables []struct {
		DDL   string          `json:"ddl"`
		Error json.RawMessage `json:"error"`
	} `json:"tables"`
	Queries []struct {
		SQL  string `json:"sql"`
		Runs map[string]struct {
			Counts struct {
				Shuffles int `json:"shuffles"`
			} `json:"counts"`
		} `json:"runs"`
	} `json:"queries"`
}

// failed reports a recorded error (JSON null is none).
func failed(e json.RawMessage) bool { return len(e) > 0 && string(e) != "null" }

// resolutionRepos writes every recorded name-resolution scenario (unqualified and reversed
// join keys, USING, views; fixtures/spark/<series>/resolution/*) as a repository of its own:
// ddl.sql with its tables and the views its statements create, queries.sql with its queries,
// and .bucketlint.yaml with its Spark version and settings, adaptive execution off as in the
// recorded aqe-off run. It returns each directory with the shuffles Spark made for each query
// of queries.sql, in order.
func resolutionRepos(t *testing.T) map[string][]int {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(root, "fixtures", "spark", "*", "resolution", "*", "scenario.json"))
	out := map[string][]int{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var sc recordedScenario
		if err := json.Unmarshal(b, &sc); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		series := filepath.Base(filepath.Dir(filepath.Dir(filepath.Dir(f))))
		dir := filepath.Join(t.TempDir(), series+"-"+filepath.Base(filepath.Dir(f)))
		var ddl, queries strings.Builder
		for _, tb := range sc.Tables {
			if !failed(tb.Error) {
				ddl.WriteString(tb.DDL + ";\n")
			}
		}
		for _, st := range sc.Statements {
			if !failed(st.Error) {
				ddl.WriteString(st.SQL + ";\n")
			}
		}
		var shuffles []int
		for _, q := range sc.Queries {
			run, ok := q.Runs["aqe-off"]
			if !ok {
				continue
			}
			queries.WriteString(q.SQL + ";\n")
			shuffles = append(shuffles, run.Counts.Shuffles)
		}
		confs := map[string]string{"spark.sql.adaptive.enabled": "false"}
		for k, v := range sc.Confs {
			confs[k] = v
		}
		cfg, err := yaml.Marshal(map[string]any{"spark": map[string]any{"version": series, "conf": confs}})
		if err != nil {
			t.Fatal(err)
		}
		writeFiles(t, dir, map[string]string{"ddl.sql": ddl.String(), "queries.sql": queries.String(), ".bucketlint.yaml": string(cfg)})
		out[dir] = shuffles
	}
	if len(out) == 0 {
		t.Fatal("no recorded resolution scenarios under fixtures/spark/*/resolution")
	}
	return out
}

// sparkShuffles returns the shuffles of each query of file as check's workload (the one
// TestCommandsAgree compares simulate and advise with) predicts them.
func sparkShuffles(t *testing.T, file string) []int {
	t.Helper()
	s := &streams{in: strings.NewReader(""), out: &bytes.Buffer{}, err: &bytes.Buffer{}}
	opts, err := parseCheck([]string{"."}, s)
	if err != nil {
		t.Fatal(err)
	}
	ld, err := opts.common.load(t.Context(), opts.paths, s)
	if err != nil {
		t.Fatal(err)
	}
	var out []int
	for _, q := range queriesUnder(ld.w, []string{file}) {
		r, err := ld.w.Simulate(q.Query)
		if err != nil {
			t.Fatalf("%s: %v", q.Query.Span.Start, err)
		}
		out = append(out, r.Exchanges)
	}
	return out
}

// TestResolutionScenariosMatchSpark: on the recorded name-resolution scenarios, where
// TestCommandsAgree proves check, simulate and advise agree, check's workload predicts the
// shuffles real Spark made.
func TestResolutionScenariosMatchSpark(t *testing.T) {
	for dir, want := range resolutionRepos(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			t.Chdir(dir)
			if got := sparkShuffles(t, "queries.sql"); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("shuffles per query: predicted %v, Spark made %v", got, want)
			}
		})
	}
}

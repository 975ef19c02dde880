package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
)

var semver = regexp.MustCompile(`"semanticVersion": "[^"]*"`)

// sarifResults returns the results of a SARIF log, indented.
func sarifResults(t *testing.T, b []byte) string {
	t.Helper()
	var log struct {
		Runs []struct {
			Results json.RawMessage `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(b, &log); err != nil || len(log.Runs) != 1 {
		t.Fatalf("not a SARIF log of one run: %v", err)
	}
	var out bytes.Buffer
	if err := json.Indent(&out, log.Runs[0].Results, "", "  "); err != nil {
		t.Fatal(err)
	}
	return out.String() + "\n"
}

// TestEvidenceCommand runs `bucketlint evidence` over real event logs (fixtures/eventlog,
// Spark 3.5.9 zstd and 4.3.0 lz4) and over a log that is not one, and `check --evidence` with
// those logs over testdata/evidence/work.sql, whose join of orders_p and customers_p on cust
// the logs ran (its findings carry the measured bytes and come first), and over agg.sql, whose
// aggregation of orders_p by cust the logs ran (BL307's finding carries its measured bytes);
// `advise --evidence` weighs layouts by those bytes and says which figures are measured; on the
// example repositories with their recorded logs, the Markdown report opens with the measured
// findings, costliest first (events-users: the dropDuplicates aggregation, then the funnel's
// join). Output
// and exit code are compared with testdata/evidence/<case>.golden (rewritten with -update).
// `plan` on a log prints each execution that ran a job with its operators' metrics.
func TestEvidenceCommand(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "app.zstd")
	if err := os.WriteFile(bad, []byte("not zstd"), 0o600); err != nil {
		t.Fatal(err)
	}
	logs := []string{"../../fixtures/eventlog/3.5/zstd", "../../fixtures/eventlog/4.3/lz4"}
	for _, c := range []struct {
		name string
		args []string
	}{
		{"text", append([]string{"evidence"}, logs...)},
		{"json", append([]string{"evidence", "--format", "json", "--top", "1"}, logs...)},
		{"unreadable", []string{"evidence", bad}},
		{"no_path", []string{"evidence"}},
		{"check_text", []string{"check", "--evidence", logs[0], "testdata/evidence/work.sql"}},
		{"check_markdown", []string{"check", "--evidence", logs[0], "--format", "markdown", "testdata/evidence/work.sql"}},
		{"plan_eventlog", []string{"plan", "../../fixtures/eventlog/4.3/lz4/local-1796183418526.lz4"}},
		{"plan_eventlog_json", []string{"plan", "--format", "json", "../../fixtures/eventlog/3.5/rolled/eventlog_v2_local-1796182653610"}},
		{"check_example_markdown", []string{"check", "--evidence", "../../fixtures/eventlog/examples/3.5/zstd", "--format", "markdown", "../../fixtures/examples/transactions-accounts"}},
		{"check_sarif", []string{"check", "--evidence", logs[0], "--format", "sarif", "testdata/evidence/work.sql"}},
		{"check_aggregate", []string{"check", "--evidence", logs[0], "testdata/evidence/agg.sql"}},
		{"check_aggregate_json", []string{"check", "--evidence", logs[0], "--format", "json", "testdata/evidence/agg.sql"}},
		{"advise_aggregate", []string{"advise", "--evidence", logs[0], "testdata/evidence/agg.sql"}},
		{"advise_work_json", []string{"advise", "--evidence", logs[0], "--format", "json", "testdata/evidence/work.sql"}},
		{"advise_example", []string{"advise", "--evidence", "../../fixtures/eventlog/examples/3.5/zstd", "../../fixtures/examples/transactions-accounts"}},
		{"check_events_users_markdown", []string{"check", "--evidence", "../../fixtures/eventlog/examples/3.5/events-users", "--format", "markdown", "../../fixtures/examples/events-users"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(c.args, nil, &stdout, &stderr)
			out := semver.ReplaceAllString(stdout.String(), `"semanticVersion": "VERSION"`) // the build's version
			if c.name == "check_sarif" {
				out = sarifResults(t, stdout.Bytes()) // the results only: the rules' documentation changes with the rules
			}
			got := out + "-- stderr --\n" + string(bytes.ReplaceAll(stderr.Bytes(), []byte(bad), []byte("BAD"))) +
				"-- exit --\n" + strconv.Itoa(code) + "\n"
			path := filepath.Join("testdata", "evidence", c.name+".golden")
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("got:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

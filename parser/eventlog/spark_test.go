package eventlog

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// reported is oracle/eventlog.py's reported.json: what the running application reported.
type reported struct {
	Spark     string `json:"spark"`
	Variant   string `json:"variant"`
	AppID     string `json:"appId"`
	Scenarios []struct {
		Queries []struct {
			Query      string `json:"query"`
			Executions []struct {
				ID      int64 `json:"executionId"`
				Metrics map[string]struct {
					Node   string `json:"node"`
					Metric string `json:"metric"`
					Type   string `json:"type"`
					Value  *int64 `json:"value"`
					Shown  string `json:"shown"`
				} `json:"metrics"`
			} `json:"executions"`
		} `json:"queries"`
	} `json:"scenarios"`
	Stages []map[string]any `json:"stages"`
}

// recorded lists the recorded logs: fixtures/eventlog/<series>/<variant>/ and
// fixtures/eventlog/examples/<series>/<variant>/.
func recorded(t *testing.T) []string {
	t.Helper()
	dirs, err := filepath.Glob("../../fixtures/eventlog/*/*/reported.json")
	more, _ := filepath.Glob("../../fixtures/eventlog/examples/*/*/reported.json")
	dirs = append(dirs, more...)
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no recorded event logs under fixtures/eventlog (%v)", err)
	}
	for i, d := range dirs {
		dirs[i] = filepath.Dir(d)
	}
	return dirs
}

func loadReported(t *testing.T, dir string) *reported {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "reported.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep reported
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	return &rep
}

// logOf returns the one log (file or rolled directory) next to reported.json.
func logOf(t *testing.T, dir string) string {
	t.Helper()
	logs, err := Logs(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range logs {
		if filepath.Base(l) != "reported.json" {
			out = append(out, l)
		}
	}
	if len(out) != 1 {
		t.Fatalf("%s: want one log, have %v", dir, out)
	}
	return out[0]
}

// TestRecordedLogsAgreeWithSpark reads every recorded log and checks each SQL metric total
// against the value of the driver's SQLMetric in the executed plan, as the running
// application reported it, and each stage's task metric sums against its status store.
func TestRecordedLogsAgreeWithSpark(t *testing.T) {
	for _, dir := range recorded(t) {
		t.Run(filepath.Base(filepath.Dir(dir))+"/"+filepath.Base(dir), func(t *testing.T) {
			rep := loadReported(t, dir)
			got := map[int64]*Execution{}
			app, err := Read(logOf(t, dir), Options{Stages: true}, func(e *Execution) error {
				got[e.ID] = e
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if app.SparkVersion != rep.Spark || app.ID != rep.AppID || app.Incomplete {
				t.Errorf("app: version %q id %q incomplete %v, want %q %q complete", app.SparkVersion, app.ID, app.Incomplete, rep.Spark, rep.AppID)
			}
			checked := compareExecutions(t, rep, got)
			if checked < 20 {
				t.Errorf("only %d metrics compared", checked)
			}
			compareStages(t, rep, app)
		})
	}
}

func compareExecutions(t *testing.T, rep *reported, got map[int64]*Execution) int {
	t.Helper()
	checked := 0
	for _, sc := range rep.Scenarios {
		for _, q := range sc.Queries {
			for _, want := range q.Executions {
				e := got[want.ID]
				if e == nil || !e.Ended {
					t.Errorf("%s: execution %d not read or not ended", q.Query, want.ID)
					continue
				}
				byID := map[int64]Metric{}
				e.Plan.Walk(func(n *Node) {
					for _, m := range n.Metrics {
						byID[m.Accumulator] = m
					}
				})
				for id, wm := range want.Metrics {
					if wm.Value == nil {
						continue // a metric of the SQL tab's graph that is not in the final executed plan
					}
					aid, _ := strconv.ParseInt(id, 10, 64)
					m, ok := byID[aid]
					switch {
					case !ok:
						t.Errorf("%s: %s %q (accumulator %d) not in the plan read", q.Query, wm.Node, wm.Metric, aid)
					case *wm.Value < 0 && m.Set:
						t.Errorf("%s: %s %q set to %d, Spark has it unset", q.Query, wm.Node, wm.Metric, m.Value)
					case *wm.Value >= 0 && (m.Value != *wm.Value || (*wm.Value > 0 && !m.Set)):
						// tasks do not send an accumulator still at zero: Spark's 0 may be unset here
						t.Errorf("%s: %s %q = %d (set %v), Spark reported %d", q.Query, wm.Node, wm.Metric, m.Value, m.Set, *wm.Value)
					default:
						checked++
					}
				}
			}
		}
	}
	return checked
}

func compareStages(t *testing.T, rep *reported, app *App) {
	t.Helper()
	for _, ws := range rep.Stages {
		if ws["status"] == "SKIPPED" {
			continue
		}
		k := StageKey{Stage: int(ws["stageId"].(float64)), Attempt: int(ws["attemptId"].(float64))}
		s := app.Stages[k]
		if s == nil {
			t.Errorf("stage %v not read", k)
			continue
		}
		for name, v := range map[string]int64{
			"numCompleteTasks": int64(s.Tasks - s.Failed), "inputBytes": s.InputBytes, "inputRecords": s.InputRecords,
			"outputBytes": s.OutputBytes, "outputRecords": s.OutputRecords,
			"shuffleReadBytes": s.ShuffleReadBytes, "shuffleReadRecords": s.ShuffleReadRecords,
			"shuffleWriteBytes": s.ShuffleWriteBytes, "shuffleWriteRecords": s.ShuffleWriteRecords,
			"memoryBytesSpilled": s.MemoryBytesSpilled, "diskBytesSpilled": s.DiskBytesSpilled,
			"executorRunTime": s.ExecutorRunTime,
		} {
			if want := int64(ws[name].(float64)); v != want {
				t.Errorf("stage %v: %s = %d, Spark reported %d", k, name, v, want)
			}
		}
	}
}

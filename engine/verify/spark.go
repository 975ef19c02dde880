//go:build engine

package verify

import (
	"bytes"
	"context"
	_ "embed" // the Python verify --spark runs is built in
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	engine "github.com/bucketlint/bucketlint/engine/exec"
	"github.com/bucketlint/bucketlint/engine/store"
	"github.com/bucketlint/bucketlint/simulate"
)

// sparkScript is verify_spark.py, built into the binary: the Python verify --spark runs is
// never taken from the working tree, which may be the repository being checked (issue 14).
//
//go:embed verify_spark.py
var sparkScript string

// SparkCheck runs a scenario's query on a real Spark: verify_spark.py (built in), started
// with a Python that has pyspark, adopts the tables the engine wrote (CREATE TABLE … USING
// parquet CLUSTERED BY … INTO n BUCKETS LOCATION …), counts the Exchanges of Spark's own plan
// and computes the result checksum as engine/exec does.
type SparkCheck struct {
	// Python is the interpreter of a pyspark venv.
	Python string
	// Script, when set, is the path of a verify_spark.py to run instead of the built-in one
	// (developing it); the built-in one is written into the run's temporary directory.
	Script string
	// Master is the Spark master, "local[2]".
	Master string
	// Confs are Spark SQL settings for the session (the workload's) when a scenario has no
	// settings of its own (Scenario.Sim). Only Spark SQL planner settings are passed on
	// (PlannerConfs); the others are dropped with a note on the result.
	Confs map[string]string
}

// SparkSide is one run of the query on Spark.
type SparkSide struct {
	Exchanges int             `json:"exchanges"`
	Checksum  engine.Checksum `json:"checksum"`
	Millis    int64           `json:"millis"`
	Plan      []string        `json:"plan"`
}

// A SparkResult is a scenario run on Spark, compared with the embedded engine.
type SparkResult struct {
	Version       string    `json:"version"`
	Before, After SparkSide `json:"-"`
	// PredictedBefore and PredictedAfter are simulate's Exchange counts; EngineChecksum the
	// embedded engine's result checksum, which Spark's must equal.
	PredictedBefore, PredictedAfter int
	EngineChecksum                  engine.Checksum
}

// Agrees reports whether Spark planned as many Exchanges as predicted on both sides and
// returned the engine's rows on both.
func (s *SparkResult) Agrees() bool {
	return s.Before.Exchanges == s.PredictedBefore && s.After.Exchanges == s.PredictedAfter &&
		s.Before.Checksum == s.EngineChecksum && s.After.Checksum == s.EngineChecksum
}

type sparkTable struct {
	Name             string   `json:"name"`
	Schema           string   `json:"schema"`
	Location         string   `json:"location"`
	BucketColumns    []string `json:"bucket_columns"`
	SortColumns      []string `json:"sort_columns"`
	Buckets          int      `json:"buckets"`
	PartitionColumns []string `json:"partition_columns"`
}

type sparkManifest struct {
	Master     string            `json:"master"`
	Confs      map[string]string `json:"confs"`
	AfterConfs map[string]string `json:"after_confs"`
	SQL        string            `json:"sql"`
	Sides      [2][]sparkTable   `json:"sides"`
}

type sparkOutput struct {
	Version string       `json:"spark_version"`
	Sides   [2]SparkSide `json:"sides"`
}

// run runs the scenario whose embedded result is r on Spark.
func (c *SparkCheck) run(ctx context.Context, w *warehouse, sc *Scenario, r *Result) (*SparkResult, error) {
	all := c.Confs
	if sc.Sim != nil {
		all = sc.Sim.Confs // the settings of the query's session, as simulated
	}
	confs, notes := sessionConfs(all)
	for _, n := range notes {
		r.Notes = appendUnique(r.Notes, n)
	}
	after, _ := sessionConfs(sc.AfterConfs)
	m := sparkManifest{Master: c.Master, Confs: confs, AfterConfs: after, SQL: sc.Query.Text}
	m.Confs[simulate.ConfBroadcastThreshold] = "-1"
	for side := range r.adopted {
		for _, a := range r.adopted[side] {
			st := sparkTable{
				Name: a.name, Schema: a.files.Schema.String(), Location: a.files.Dir,
				PartitionColumns: a.table.PartitionColumns, BucketColumns: []string{}, SortColumns: []string{},
			}
			// A Hive-format table is adopted unbucketed: Spark never reads one with a bucketed
			// scan, and the in-memory catalog cannot hold Hive tables.
			if a.files.Layout.Bucketed() && a.files.Layout.Bucketing != store.HiveBucketing {
				st.BucketColumns, st.SortColumns, st.Buckets = a.files.Layout.BucketColumns, a.files.Layout.SortColumns, a.files.Layout.Buckets
			}
			m.Sides[side] = append(m.Sides[side], st)
		}
	}
	dir, err := os.MkdirTemp(w.root, "spark-")
	if err != nil {
		return nil, fmt.Errorf("spark manifest: %w", err)
	}
	in, out := filepath.Join(dir, "manifest.json"), filepath.Join(dir, "result.json")
	buf, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("spark manifest: %w", err)
	}
	if err := os.WriteFile(in, buf, 0o600); err != nil {
		return nil, fmt.Errorf("spark manifest: %w", err)
	}
	script := c.Script
	if script == "" {
		script = filepath.Join(dir, "verify_spark.py")
		if err := os.WriteFile(script, []byte(sparkScript), 0o600); err != nil {
			return nil, fmt.Errorf("spark script: %w", err)
		}
	}
	cmd := exec.CommandContext(ctx, c.Python, script, "--manifest", in, "--out", out, "--work", dir)
	cmd.Env = append(os.Environ(), "TZ=UTC", "TMPDIR="+dir)
	cmd.Dir = dir // nothing is found relative to the working directory
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%s %s: %w: %s", c.Python, script, err, lastLines(stderr.String(), 15))
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		return nil, fmt.Errorf("spark result: %w", err)
	}
	var o sparkOutput
	if err := json.Unmarshal(raw, &o); err != nil {
		return nil, fmt.Errorf("spark result: %w", err)
	}
	return &SparkResult{
		Version: o.Version, Before: o.Sides[0], After: o.Sides[1], PredictedBefore: r.Before.Predicted,
		PredictedAfter: r.After.Predicted, EngineChecksum: r.After.Checksum,
	}, nil
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

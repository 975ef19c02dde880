package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/bucketlint/bucketlint/engine/verify"
	"github.com/bucketlint/bucketlint/simulate"
)

// sparkCheck finds the Python with pyspark and verify_spark.py for --spark: $BUCKETLINT_PYTHON,
// or the venv of the modelled Spark series under ${BUCKETLINT_VENV_DIR:-~/.cache/bucketlint}
// (venv-<version>, as oracle/setup.sh creates them).
func sparkCheck(opts *verifyOptions, sim simulate.Options, s *streams) (*verify.SparkCheck, error) {
	py := s.env("BUCKETLINT_PYTHON")
	if py == "" {
		dir := s.env("BUCKETLINT_VENV_DIR")
		if dir == "" {
			home := s.env("HOME")
			if home == "" {
				return nil, usagef("--spark: set BUCKETLINT_PYTHON or BUCKETLINT_VENV_DIR (see oracle/README.md)")
			}
			dir = filepath.Join(home, ".cache", "bucketlint")
		}
		v := sim.Version()
		series := fmt.Sprintf("%d.%d", v.Major, v.Minor)
		found, _ := filepath.Glob(filepath.Join(dir, "venv-"+series+"*", "bin", "python"))
		if len(found) == 0 {
			return nil, usagef("--spark: no pyspark %s venv under %s; run oracle/setup.sh %s or set BUCKETLINT_PYTHON", series, dir, series)
		}
		sort.Strings(found)
		py = found[len(found)-1]
	}
	script := opts.sparkScript
	if script == "" {
		script = findUp("oracle/verify_spark.py")
		if script == "" {
			return nil, usagef("--spark: oracle/verify_spark.py not found from the working directory up; pass --spark-script")
		}
	}
	master := opts.spark
	if master == "local" {
		master = "local[2]"
	}
	return &verify.SparkCheck{Python: py, Script: script, Master: master, Confs: sim.Confs}, nil
}

// findUp returns rel joined to the working directory or its nearest ancestor that has it.
func findUp(rel string) string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if _, err := os.Stat(p); err == nil {
			return p
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

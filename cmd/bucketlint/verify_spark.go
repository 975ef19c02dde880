//go:build engine

package main

import (
	"fmt"
	"path/filepath"
	"sort"

	"github.com/bucketlint/bucketlint/engine/verify"
	"github.com/bucketlint/bucketlint/simulate"
)

// sparkCheck finds the Python with pyspark for --spark: $BUCKETLINT_PYTHON, or the venv of
// the modelled Spark series under ${BUCKETLINT_VENV_DIR:-~/.cache/bucketlint} (venv-<version>,
// as oracle/setup.sh creates them).
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
	master := opts.spark
	if master == "local" {
		master = "local[2]"
	}
	// The script is the one built into the binary unless --spark-script names another: never
	// one found in the working tree, which may be the repository being checked. Of the
	// settings only Spark SQL planner settings reach Spark (verify.PlannerConfs); a result
	// notes the others.
	return &verify.SparkCheck{Python: py, Script: opts.sparkScript, Master: master, Confs: sim.Confs}, nil
}
